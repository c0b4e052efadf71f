//! MCP over Streamable HTTP (`paneward serve --http ADDR`), on rmcp's server transport.
//!
//! In front of rmcp, one check: the bearer token ([`token`]). A request without the
//! right one gets 401 with an empty body and reaches nothing else; the `Authorization`
//! header is removed before rmcp sees the request, so no log of rmcp's can show it.
//! rmcp then checks `Host` and `Origin` against allowlists (DNS-rebinding protection,
//! as the MCP specification asks), bounds the request body, and keeps sessions. Each
//! MCP session gets its own [`McpServer`]; all share one [`App`], so one tmux server.

pub mod options;
pub mod token;

use std::convert::Infallible;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use bytes::Bytes;
use http::{Request, Response, StatusCode};
use http_body_util::combinators::BoxBody;
use http_body_util::{BodyExt, Empty};
use hyper::body::Incoming;
use hyper_util::rt::TokioIo;
use hyper_util::service::TowerToHyperService;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;

use crate::app::App;
use crate::limits::{HTTP_REQUEST_MAX_BYTES, HTTP_SSE_KEEP_ALIVE};
use crate::mcp::server::McpServer;
pub use options::HttpOptions;
use token::Token;

/// The one path MCP is served on.
pub const MCP_PATH: &str = "/mcp";

type Body = BoxBody<Bytes, Infallible>;
type Rmcp = StreamableHttpService<McpServer, LocalSessionManager>;

/// Serves MCP on `listener` until `stop` completes.
///
/// # Errors
/// The listener fails for good.
pub async fn serve(
    app: Arc<App>,
    options: &HttpOptions,
    token: Token,
    listener: TcpListener,
    stop: impl Future<Output = ()>,
) -> Result<(), String> {
    let cancel = CancellationToken::new();
    let config = StreamableHttpServerConfig::default()
        .with_allowed_hosts(options.allowed_hosts())
        .with_allowed_origins(options.allowed_origins())
        .enforce_origin_validation()
        .with_max_request_body_bytes(HTTP_REQUEST_MAX_BYTES)
        .with_sse_keep_alive(Some(HTTP_SSE_KEEP_ALIVE))
        .with_cancellation_token(cancel.clone());
    let factory_app = Arc::clone(&app);
    // A new server per MCP session: its own requests in flight, and later its own
    // consent and subscriptions; the tmux handle inside `App` is shared.
    let rmcp: Rmcp = StreamableHttpService::new(
        move || Ok(McpServer::new(Arc::clone(&factory_app))),
        Arc::new(LocalSessionManager::default()),
        config,
    );
    let guarded = Guarded {
        inner: TowerToHyperService::new(rmcp),
        token: Arc::new(token),
    };
    tokio::pin!(stop);
    loop {
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(pair) => pair,
                // A full descriptor table or an aborted handshake: that connection only.
                Err(error) => {
                    tracing::warn!(%error, "cannot accept a connection");
                    continue;
                }
            },
            () = &mut stop => break,
        };
        // hyper writes a response's head and its event-stream chunks separately: with
        // Nagle's algorithm the second waits for the client's delayed ACK, about 40 ms
        // a call on loopback (measured, BENCHMARKS.md).
        if let Err(error) = stream.set_nodelay(true) {
            tracing::debug!(%peer, %error, "cannot set TCP_NODELAY");
        }
        let service = guarded.clone();
        tokio::spawn(async move {
            let connection = hyper::server::conn::http1::Builder::new().serve_connection(TokioIo::new(stream), service);
            if let Err(error) = connection.await {
                tracing::debug!(%peer, %error, "HTTP connection ended with an error");
            }
        });
    }
    cancel.cancel();
    Ok(())
}

/// rmcp's service behind the token check.
#[derive(Clone)]
struct Guarded {
    inner: TowerToHyperService<Rmcp>,
    token: Arc<Token>,
}

type Reply = Pin<Box<dyn Future<Output = Result<Response<Body>, Infallible>> + Send>>;

impl hyper::service::Service<Request<Incoming>> for Guarded {
    type Response = Response<Body>;
    type Error = Infallible;
    type Future = Reply;

    fn call(&self, mut request: Request<Incoming>) -> Self::Future {
        if !self.token.admits(request.headers()) {
            tracing::info!(method = %request.method(), "refused a request without the right bearer token (401)");
            return Box::pin(std::future::ready(Ok(status_only(StatusCode::UNAUTHORIZED))));
        }
        // Checked; nothing after this point needs it, and no log may show it.
        request.headers_mut().remove(http::header::AUTHORIZATION);
        if request.uri().path() != MCP_PATH {
            return Box::pin(std::future::ready(Ok(status_only(StatusCode::NOT_FOUND))));
        }
        let future = self.inner.call(request);
        Box::pin(async move {
            match future.await {
                Ok(response) => Ok(response),
                Err(never) => match never {},
            }
        })
    }
}

/// A response with `status`, an empty body, and for 401 the scheme to use.
fn status_only(status: StatusCode) -> Response<Body> {
    let mut response = Response::new(Empty::new().boxed());
    *response.status_mut() = status;
    if status == StatusCode::UNAUTHORIZED {
        response
            .headers_mut()
            .insert(http::header::WWW_AUTHENTICATE, http::HeaderValue::from_static("Bearer"));
    }
    response
}
