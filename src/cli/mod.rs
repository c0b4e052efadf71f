//! What the `paneward` binary does with its command line; `main.rs` only calls [`run`].

pub mod args;
pub mod call;
pub mod doctor;
pub mod flags;
pub mod grant;
pub mod help;
pub mod out;
pub mod parse;
pub mod raw;
pub mod resolve;
pub mod suggest;
pub mod targets;
pub mod tools_doc;
pub mod usage;

use std::ffi::OsString;
use std::process::ExitCode;
use std::sync::Arc;

use crate::app::App;
use crate::mcp::client_log::{ClientLog, ClientLogLayer, TARGET as CLIENT_LOG_TARGET};
use crate::mcp::server::McpServer;
use args::Invocation;

/// Runs the command line `args` (without the program name).
pub fn run(args: impl IntoIterator<Item = OsString>) -> ExitCode {
    let invocation = match args::parse(args, &|key| std::env::var(key).ok()) {
        Ok(invocation) => invocation,
        Err(error) => {
            eprintln!("paneward: {error}\nTry 'paneward --help'.");
            return ExitCode::from(2);
        }
    };
    match invocation {
        Invocation::Help(subcommand) => {
            out::print(&subcommand.map_or_else(help::render, |name| help::render_command(&name)));
            ExitCode::SUCCESS
        }
        Invocation::Version => {
            out::print(&format!("paneward {}{}\n", env!("CARGO_PKG_VERSION"), FAULT_NOTE));
            ExitCode::SUCCESS
        }
        Invocation::Tools {
            config, markdown: true, ..
        } => match App::from_env(config) {
            Ok(app) => {
                out::print(&tools_doc::markdown(&app));
                ExitCode::SUCCESS
            }
            Err(error) => fail(&error),
        },
        Invocation::Tools { config, json, .. } => match App::from_env(config) {
            Ok(app) => print_tools(McpServer::new(Arc::new(app)), json),
            Err(error) => fail(&error),
        },
        Invocation::Serve(config) => serve(config, &Transport::Stdio),
        Invocation::ServeHttp { config, http } => serve(config, &Transport::Http(&http)),
        Invocation::Call {
            config,
            tool,
            arguments,
        } => {
            init_logging("warn", None);
            call::run(config, &tool, arguments.as_deref())
        }
        Invocation::Doctor(config) => doctor::run(&config),
        Invocation::Grant { config, pane, revoke } => {
            init_logging("warn", None);
            grant::run(&config, pane.as_deref(), revoke)
        }
        Invocation::Conform(options) => conform(&options),
    }
}

/// Exit status 1 means the server differs from the contract; 2 that it could not be compared.
fn conform(options: &crate::conform::Options) -> ExitCode {
    match crate::conform::run(options) {
        Ok(report) => {
            out::print(&report.render());
            if report.is_clean() {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(1)
            }
        }
        Err(error) => {
            eprintln!("paneward conform: {error}");
            ExitCode::from(2)
        }
    }
}

/// Said by `--version` and at start-up of a test build with deliberately broken replies.
#[cfg(feature = "conformance-fault")]
const FAULT_NOTE: &str = " (TEST BUILD with feature conformance-fault: snapshot_pane replies are broken on purpose)";
#[cfg(not(feature = "conformance-fault"))]
const FAULT_NOTE: &str = "";

fn fail(message: &str) -> ExitCode {
    eprintln!("paneward: {message}");
    ExitCode::FAILURE
}

fn print_tools(server: McpServer, json: bool) -> ExitCode {
    if json {
        return match serde_json::to_string_pretty(&server.list()) {
            Ok(text) => {
                out::print(&format!("{text}\n"));
                ExitCode::SUCCESS
            }
            Err(error) => fail(&error.to_string()),
        };
    }
    out::print(&tools_table(server.app()));
    ExitCode::SUCCESS
}

/// `paneward tools`: one line per tool, its name, tier and title in aligned columns,
/// then the argument values that need more than its tier and whether this server
/// allows them.
pub fn tools_table(app: &App) -> String {
    use std::fmt::Write as _;
    let tier = app.config.safety;
    let entries: Vec<_> = app.catalog.listed(tier).collect();
    let name_width = entries.iter().map(|entry| entry.tool.name.len()).max().unwrap_or(0);
    let tier_width = entries.iter().map(|entry| entry.tier.as_str().len()).max().unwrap_or(0);
    let toolset_width = entries
        .iter()
        .map(|entry| entry.toolset.as_str().len())
        .max()
        .unwrap_or(0);
    let class_width = entries
        .iter()
        .map(|entry| entry.class.as_str().len())
        .max()
        .unwrap_or(0);
    let mut table = format!(
        "{} tools at safety tier {tier}, {}:\n",
        entries.len(),
        crate::resources::capabilities::summary(&app.config)
    );
    for entry in entries {
        let tool = &entry.tool;
        let mut line = format!(
            "  {:<name_width$}  {:<tier_width$}  {:<toolset_width$}  {:<class_width$}  {}",
            tool.name,
            entry.tier.as_str(),
            entry.toolset.as_str(),
            entry.class.as_str(),
            summary(tool.title.as_deref(), tool.description.as_deref())
        );
        for escalation in &entry.escalations {
            let allowed = if escalation.tier <= tier {
                "allowed"
            } else {
                "refused here"
            };
            let _ = write!(
                line,
                " [{}={}: {}, {allowed}]",
                escalation.argument,
                escalation.equals,
                escalation.tier.as_str()
            );
        }
        let _ = writeln!(table, "{}", line.trim_end());
    }
    table
}

/// A tool's one-line summary: its title, or the first sentence of its description.
fn summary<'a>(title: Option<&'a str>, description: Option<&'a str>) -> &'a str {
    if let Some(title) = title.filter(|title| !title.is_empty()) {
        return title;
    }
    let description = description.unwrap_or("").trim();
    let first_line = description.lines().next().unwrap_or("");
    // Up to the first clause's end: a title's length, not a paragraph.
    let end = [". ", "; "].iter().filter_map(|stop| first_line.find(stop)).min();
    end.map_or(first_line, |end| &first_line[..end])
}

/// The log filter without PANEWARD_LOG. rmcp's HTTP service logs its Host and Origin
/// refusals as Rust `Debug` values; paneward says each once in words instead
/// (`mcp::http`), so that module's warnings are left out.
pub const DEFAULT_LOG_FILTER: &str = "info,rmcp=warn,rmcp::transport::streamable_http_server::tower=error";

/// Logs on standard error, filtered by PANEWARD_LOG or else `default`; with
/// `client_log`, events meant for the client go there too, whatever that filter says
/// (the client chooses its own level).
fn init_logging(default: &str, client_log: Option<Arc<ClientLog>>) {
    use tracing_subscriber::layer::SubscriberExt;
    use tracing_subscriber::util::SubscriberInitExt;
    use tracing_subscriber::Layer;
    let filter = tracing_subscriber::EnvFilter::try_from_env("PANEWARD_LOG")
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new(default));
    // Standard output carries the protocol; logs go to standard error only.
    let stderr = tracing_subscriber::fmt::layer()
        .with_writer(std::io::stderr)
        .with_ansi(false)
        .with_target(false)
        .with_filter(filter);
    let client = client_log.map(|log| {
        ClientLogLayer::new(log).with_filter(tracing_subscriber::filter::filter_fn(|metadata| {
            metadata.target() == CLIENT_LOG_TARGET
        }))
    });
    tracing_subscriber::registry().with(stderr).with(client).init();
}

/// Said on standard error when a person starts the server at a terminal.
const TERMINAL_NOTICE: &str = "\
paneward is an MCP server: an MCP client (Claude Code, Codex, Gemini CLI, VS Code,
Cursor, ...) starts it and speaks JSON-RPC on its standard input. See README.md,
\"Quick start\", and docs/clients.md for the client set-up line.
To try it from a shell instead:
  paneward doctor                        what paneward sees and whether it can serve
  paneward call list_panes               one tool call, its result as JSON
  paneward call snapshot_pane '{\"pane_id\": \"%0\"}'
Serving MCP on standard input now; Ctrl-D or Ctrl-C to stop.
";

/// What `serve` speaks on, with what only that transport needs.
enum Transport<'a> {
    Stdio,
    Http(&'a crate::mcp::http::HttpOptions),
}

/// The one start and the one shutdown of `serve`, whichever the transport: logging,
/// the app, a one-thread runtime, the serving line, serving, then the staged buffers
/// deleted and the ssh connection closed.
fn serve(config: crate::config::Config, transport: &Transport<'_>) -> ExitCode {
    // Over HTTP the client log is not fed (one tracing layer, many sessions): a
    // session that sets a level gets no `notifications/message`.
    let client_log = matches!(transport, Transport::Stdio).then(|| Arc::new(ClientLog::default()));
    init_logging(DEFAULT_LOG_FILTER, client_log.clone());
    let token = match transport {
        Transport::Stdio => {
            if std::io::IsTerminal::is_terminal(&std::io::stdin()) {
                eprint!("{TERMINAL_NOTICE}");
            }
            None
        }
        Transport::Http(http) => match read_token(http) {
            Ok(token) => Some(token),
            Err(error) => return fail(&error),
        },
    };
    let app = match App::from_env(config) {
        Ok(app) => Arc::new(app),
        Err(error) => return fail(&error),
    };
    // One thread: a call is mostly waiting on tmux, and tasks that hand each other
    // replies (the handler, the control connection, rmcp) then never wake another
    // thread; this halved the MCP ping round trip when measured (BENCHMARKS.md).
    let runtime = match tokio::runtime::Builder::new_current_thread().enable_all().build() {
        Ok(runtime) => runtime,
        Err(error) => return fail(&format!("cannot start the async runtime: {error}")),
    };
    let served = match (transport, token) {
        (Transport::Http(http), Some(token)) => {
            let listener = match runtime.block_on(tokio::net::TcpListener::bind(http.bind)) {
                Ok(listener) => listener,
                Err(error) => return fail(&format!("cannot listen on {}: {error}", http.bind)),
            };
            let bound = listener
                .local_addr()
                .map_or_else(|_| http.bind.to_string(), |a| a.to_string());
            let place = format!("over Streamable HTTP at http://{bound}{}", crate::mcp::http::MCP_PATH);
            say_serving(&app, &place);
            let serving = crate::mcp::http::serve(Arc::clone(&app), http, token, listener, stop_signal());
            runtime.block_on(serving)
        }
        _ => {
            say_serving(&app, "on stdio");
            let server = McpServer::with_client_log(Arc::clone(&app), client_log.unwrap_or_default());
            runtime.block_on(crate::mcp::stdio::serve(server))
        }
    };
    // A clean end: the buffers this process staged go with it.
    for guard in app.guards() {
        runtime.block_on(crate::tools::input::buffers::delete_staged(guard));
    }
    close_ssh(&app);
    // A read of standard input may still be pending; it must not hold the exit.
    runtime.shutdown_background();
    match served {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => fail(&error),
    }
}

/// The bearer token of `serve --http`, read once; `PANEWARD_TOKEN` is then removed
/// (tmux processes paneward starts have no use for it). No other thread runs yet, so
/// changing the environment here races with nothing.
fn read_token(http: &crate::mcp::http::HttpOptions) -> Result<crate::mcp::http::token::Token, String> {
    use crate::mcp::http::options::TokenSource;
    use crate::mcp::http::token::Token;
    let token = match &http.token {
        TokenSource::File(path) => Token::from_file(path),
        TokenSource::Environment(text) => Token::new(text).map_err(|e| format!("PANEWARD_TOKEN: {e}")),
    };
    std::env::remove_var("PANEWARD_TOKEN");
    token
}

/// The serving line on standard error: what is served, and where (`place`).
fn say_serving(app: &App, place: &str) {
    tracing::info!(
        version = env!("CARGO_PKG_VERSION"),
        tools = app.catalog.listed(app.config.safety).count(),
        tier = %app.config.safety,
        profile = %app.config.profile,
        server = %app.fleet.as_ref().map_or_else(|| app.config.address.label(), |fleet| format!("targets {}", fleet.names())),
        host = app.config.ssh.as_ref().map_or("this machine", |ssh| ssh.destination.as_str()),
        "paneward serving MCP {place}{FAULT_NOTE}"
    );
}

/// Completes at SIGINT or SIGTERM (or at once if they cannot be watched: serving
/// without a way to stop cleanly would leave staged buffers behind on every stop).
async fn stop_signal() {
    use tokio::signal::unix::{signal, SignalKind};
    let (Ok(mut interrupt), Ok(mut terminate)) = (signal(SignalKind::interrupt()), signal(SignalKind::terminate()))
    else {
        tracing::error!("cannot watch SIGINT and SIGTERM; stopping");
        return;
    };
    tokio::select! {
        _ = interrupt.recv() => tracing::info!("SIGINT: stopping"),
        _ = terminate.recv() => tracing::info!("SIGTERM: stopping"),
    }
}

/// Ends the shared ssh connection now rather than when its idle time runs out.
fn close_ssh(app: &App) {
    for link in app.ssh_links() {
        link.close();
    }
}
