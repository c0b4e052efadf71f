//! MCP over Streamable HTTP (`paneward serve --http ADDR`), on rmcp's server transport.
//!
//! In front of rmcp, in this order:
//! - the connection: its headers must arrive within a bound, and connections that
//!   have not yet sent the token are bounded too ([`admission`]); accepting pauses when
//!   descriptors run out ([`accept`]);
//! - the bearer token ([`token`]): without the right one, 401 with a one-line body and
//!   nothing else; the `Authorization` header is removed before rmcp sees the request,
//!   so no log of rmcp's can show it;
//! - exactly one `Host`, without userinfo (400 otherwise), since rmcp checks only the
//!   first one against its allowlist;
//! - the body of a POST goes through the protocol layer stdio uses
//!   ([`crate::mcp::protocol`]), so a malformed message gets the same JSON-RPC error
//!   on both transports.
//!
//! rmcp then checks `Host` and `Origin` against allowlists (DNS-rebinding protection,
//! as the MCP specification asks) and keeps sessions. Each MCP session gets its own
//! [`McpServer`]; all share one [`App`], so one tmux server.

pub mod accept;
pub mod admission;
pub mod options;
pub mod token;

use std::convert::Infallible;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Instant;

use bytes::Bytes;
use http::{HeaderValue, Request, Response, StatusCode};
use http_body_util::combinators::BoxBody;
use http_body_util::{BodyExt, Empty, Full, LengthLimitError, Limited};
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;

use crate::app::App;
use crate::limits::{
    HTTP_HEADER_READ_TIMEOUT, HTTP_REQUEST_MAX_BYTES, HTTP_SSE_KEEP_ALIVE, HTTP_UNAUTHENTICATED_CONNECTIONS_MAX,
};
use crate::mcp::protocol::triage::{self, Triage};
use crate::mcp::server::McpServer;
use accept::AcceptFailures;
use admission::{Stranger, Strangers};
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
    let shared = Arc::new(Shared { rmcp, token });
    let strangers = Strangers::new(HTTP_UNAUTHENTICATED_CONNECTIONS_MAX);
    let mut failures = AcceptFailures::default();
    let mut builder = hyper::server::conn::http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(HTTP_HEADER_READ_TIMEOUT);
    tokio::pin!(stop);
    loop {
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(pair) => {
                    failures.succeeded();
                    pair
                }
                Err(error) => {
                    let pause = failures.failed(&error, Instant::now());
                    if !pause.is_zero() {
                        // Out of descriptors: a stranger's is one a client with the token can use.
                        strangers.close_oldest();
                        tokio::select! {
                            () = tokio::time::sleep(pause) => {}
                            () = &mut stop => break,
                        }
                    }
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
        let stranger = Arc::new(strangers.admit());
        let closing = stranger.closing();
        let service = Guarded {
            shared: Arc::clone(&shared),
            stranger,
        };
        let connection = builder.serve_connection(TokioIo::new(stream), service);
        tokio::spawn(async move {
            tokio::select! {
                ended = connection => if let Err(error) = ended {
                    tracing::debug!(%peer, %error, "HTTP connection ended with an error");
                },
                () = closing.cancelled() => {
                    tracing::debug!(%peer, "closed a connection without the token to make room");
                }
            }
        });
    }
    cancel.cancel();
    Ok(())
}

/// What every connection shares: rmcp's service and the token.
struct Shared {
    rmcp: Rmcp,
    token: Token,
}

/// rmcp's service behind the checks, for one connection.
#[derive(Clone)]
struct Guarded {
    shared: Arc<Shared>,
    stranger: Arc<Stranger>,
}

type Reply = Pin<Box<dyn Future<Output = Result<Response<Body>, Infallible>> + Send>>;

impl hyper::service::Service<Request<Incoming>> for Guarded {
    type Response = Response<Body>;
    type Error = Infallible;
    type Future = Reply;

    fn call(&self, mut request: Request<Incoming>) -> Self::Future {
        if !self.shared.token.admits(request.headers()) {
            tracing::info!(method = %request.method(), "refused a request without the right bearer token (401)");
            return Box::pin(std::future::ready(Ok(unauthorized(request.headers()))));
        }
        self.stranger.authenticated();
        // Checked; nothing after this point needs it, and no log may show it.
        request.headers_mut().remove(http::header::AUTHORIZATION);
        if let Some(problem) = host_problem(request.headers()) {
            tracing::info!("refused a request: {problem} (400)");
            return Box::pin(std::future::ready(Ok(status_only(StatusCode::BAD_REQUEST))));
        }
        if request.uri().path() != MCP_PATH {
            return Box::pin(std::future::ready(Ok(status_only(StatusCode::NOT_FOUND))));
        }
        let shared = Arc::clone(&self.shared);
        let asked = Asked::of(request.headers());
        if request.method() == http::Method::POST && is_json(request.headers()) {
            return Box::pin(async move { Ok(asked.say_if_forbidden(post(&shared, request).await).await) });
        }
        Box::pin(async move { Ok(asked.say_if_forbidden(shared.rmcp.handle(request).await).await) })
    }
}

/// A JSON POST: its body through the protocol layer, then to rmcp unless answered.
async fn post(shared: &Shared, request: Request<Incoming>) -> Response<Body> {
    let (parts, body) = request.into_parts();
    let body = match Limited::new(body, HTTP_REQUEST_MAX_BYTES).collect().await {
        Ok(collected) => collected.to_bytes(),
        Err(error) if error.downcast_ref::<LengthLimitError>().is_some() => {
            return status_only(StatusCode::PAYLOAD_TOO_LARGE)
        }
        Err(error) => {
            tracing::debug!(%error, "cannot read a request body");
            return status_only(StatusCode::BAD_REQUEST);
        }
    };
    if let Some(answer) = settled(&body) {
        return answer;
    }
    shared.rmcp.handle(Request::from_parts(parts, Full::new(body))).await
}

/// The protocol layer's answer to a POST body, if it settles it. Over HTTP rmcp keeps
/// the handshake per session, so the rules for messages before `initialize` are its.
fn settled(body: &[u8]) -> Option<Response<Body>> {
    // RFC 8259 lets a parser skip a byte order mark, as stdio does.
    let text = body.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(body);
    let answer = match triage::triage(text, true) {
        Triage::Answer(answer) => answer,
        Triage::Ignore(_) if text.iter().all(u8::is_ascii_whitespace) => match serde_json::from_slice::<()>(text) {
            Err(error) => triage::parse_error(&error),
            Ok(()) => return None,
        },
        Triage::Request(request) => {
            let echo = &text[request.id_span.clone()];
            match carried_id(echo) {
                Some(refusal) => refusal,
                None => crate::mcp::protocol::rmcp_refusal(text, echo)?,
            }
        }
        Triage::Forward { .. } | Triage::Cancel { .. } | Triage::Ignore(_) => return None,
    };
    // A request naming 2026-07-28 gets that revision's statuses even where its `_meta`
    // lacks a required key (itself a refusal with 400).
    let current = serde_json::from_slice::<serde_json::Value>(text)
        .ok()
        .and_then(|message| {
            message
                .as_object()
                .map(crate::mcp::protocol::revision::names_stateless_revision)
        })
        .unwrap_or(false);
    Some(json_rpc_answer(answer, current))
}

/// The refusal of an id rmcp cannot carry (a fraction, an integer past 64 bits): over
/// stdio such ids are swapped, over HTTP rmcp would answer 415 without one.
fn carried_id(echo: &[u8]) -> Option<String> {
    let id: serde_json::Value = serde_json::from_slice(echo).ok()?;
    if id.is_string() || id.as_i64().is_some() {
        return None;
    }
    Some(triage::id_not_carried(echo))
}

/// A JSON-RPC error as the reply: 200 when it answers a request by its id; 400, as
/// the Streamable HTTP transport asks, for input with no id to answer. A request of
/// 2026-07-28 (`current`) gets that revision's statuses: 404 for a method not served,
/// 400 for any other refusal.
fn json_rpc_answer(answer: String, current: bool) -> Response<Body> {
    let message = serde_json::from_str::<serde_json::Value>(&answer).unwrap_or_default();
    let has_id = !message["id"].is_null();
    let method_not_found = message["error"]["code"].as_i64() == Some(triage::METHOD_NOT_FOUND);
    let mut response = Response::new(Full::new(Bytes::from(answer)).boxed());
    *response.status_mut() = match (current, method_not_found) {
        (true, true) => StatusCode::NOT_FOUND,
        (true, false) => StatusCode::BAD_REQUEST,
        (false, _) if has_id => StatusCode::OK,
        (false, _) => StatusCode::BAD_REQUEST,
    };
    response
        .headers_mut()
        .insert(http::header::CONTENT_TYPE, HeaderValue::from_static("application/json"));
    response
}

fn is_json(headers: &http::HeaderMap) -> bool {
    headers
        .get(http::header::CONTENT_TYPE)
        .and_then(|value| value.to_str().ok())
        .is_some_and(|value| {
            let essence = value.split_once(';').map_or(value, |(essence, _)| essence);
            essence.trim().eq_ignore_ascii_case("application/json")
        })
}

/// What is wrong with the request's `Host`, if anything: rmcp checks only the first
/// of several against its allowlist, and would read `user@host` as `host`.
fn host_problem(headers: &http::HeaderMap) -> Option<&'static str> {
    let mut hosts = headers.get_all(http::header::HOST).iter();
    match (hosts.next(), hosts.next()) {
        (_, Some(_)) => Some("more than one Host header"),
        (Some(host), None) if host.as_bytes().contains(&b'@') => Some("a Host with userinfo"),
        _ => None,
    }
}

/// The `Origin` and `Host` a request came with, kept to say in words why rmcp refused
/// it: rmcp's own line shows them as Rust `Debug` values.
struct Asked {
    origin: Option<String>,
    host: Option<String>,
}

impl Asked {
    fn of(headers: &http::HeaderMap) -> Self {
        let text = |name| {
            headers
                .get(name)
                .map(|value: &HeaderValue| String::from_utf8_lossy(value.as_bytes()).into_owned())
        };
        Self {
            origin: text(http::header::ORIGIN),
            host: text(http::header::HOST),
        }
    }

    /// Logs one line for a 403 of rmcp's allowlists, naming the value refused and the
    /// flag that would allow it; the response goes on unchanged.
    async fn say_if_forbidden(self, response: Response<Body>) -> Response<Body> {
        if response.status() != StatusCode::FORBIDDEN {
            return response;
        }
        let (parts, body) = response.into_parts();
        let bytes = match body.collect().await {
            Ok(collected) => collected.to_bytes(),
            Err(never) => match never {},
        };
        let said = String::from_utf8_lossy(&bytes);
        let unknown = || "(none)".to_string();
        if said.contains("Origin") {
            tracing::warn!(
                "refused a request from a web page at origin {}: not an allowed origin (pages on this machine are; --allow-origin adds others) (403)",
                self.origin.unwrap_or_else(unknown)
            );
        } else if said.contains("Host") {
            tracing::warn!(
                "refused a request for host {}: not an allowed Host (loopback names and the bound address are; --allow-host adds others) (403)",
                self.host.unwrap_or_else(unknown)
            );
        }
        Response::from_parts(parts, Full::new(bytes).boxed())
    }
}

/// 401 with the scheme to use and one line saying what is missing, for the person
/// reading a client's error (an empty body prints as an empty error).
fn unauthorized(headers: &http::HeaderMap) -> Response<Body> {
    let line = if headers.contains_key(http::header::AUTHORIZATION) {
        "401 Unauthorized: the bearer token does not match the one this paneward was started with (--token-file or PANEWARD_TOKEN)\n"
    } else {
        "401 Unauthorized: missing header Authorization: Bearer <token> (the token this paneward was started with, --token-file or PANEWARD_TOKEN)\n"
    };
    let mut response = Response::new(Full::new(Bytes::from_static(line.as_bytes())).boxed());
    *response.status_mut() = StatusCode::UNAUTHORIZED;
    let headers = response.headers_mut();
    headers.insert(http::header::WWW_AUTHENTICATE, HeaderValue::from_static("Bearer"));
    headers.insert(
        http::header::CONTENT_TYPE,
        HeaderValue::from_static("text/plain; charset=utf-8"),
    );
    response
}

/// A response with `status`, an empty body, and for 401 the scheme to use.
fn status_only(status: StatusCode) -> Response<Body> {
    let mut response = Response::new(Empty::new().boxed());
    *response.status_mut() = status;
    if status == StatusCode::UNAUTHORIZED {
        response
            .headers_mut()
            .insert(http::header::WWW_AUTHENTICATE, HeaderValue::from_static("Bearer"));
    }
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    fn host_headers(values: &[&str]) -> http::HeaderMap {
        let mut map = http::HeaderMap::new();
        for value in values {
            map.append(http::header::HOST, value.parse().unwrap());
        }
        map
    }

    #[test]
    fn one_host_without_userinfo_passes() {
        assert_eq!(host_problem(&host_headers(&["localhost:8765"])), None);
        assert!(host_problem(&host_headers(&["localhost", "evil.example"])).is_some());
        assert!(host_problem(&host_headers(&["evil.example@localhost"])).is_some());
    }
}
