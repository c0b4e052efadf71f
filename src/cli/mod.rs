//! What the `paneward` binary does with its command line; `main.rs` only calls [`run`].

pub mod args;

use std::ffi::OsString;
use std::process::ExitCode;
use std::sync::Arc;

use crate::app::App;
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
        Invocation::Help => {
            print!("{}", args::HELP);
            ExitCode::SUCCESS
        }
        Invocation::Version => {
            println!("paneward {}{}", env!("CARGO_PKG_VERSION"), FAULT_NOTE);
            ExitCode::SUCCESS
        }
        Invocation::Tools { config, json } => match App::from_env(config) {
            Ok(app) => print_tools(McpServer::new(Arc::new(app)), json),
            Err(error) => fail(&error),
        },
        Invocation::Serve(config) => serve(config),
        Invocation::Conform(options) => conform(&options),
    }
}

/// Exit status 1 means the server differs from the contract; 2 that it could not be compared.
fn conform(options: &crate::conform::Options) -> ExitCode {
    match crate::conform::run(options) {
        Ok(report) => {
            print!("{}", report.render());
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
                println!("{text}");
                ExitCode::SUCCESS
            }
            Err(error) => fail(&error.to_string()),
        };
    }
    let app = server.app();
    let tier = app.config.safety;
    let specs: Vec<_> = app.catalog.listed(tier).map(|entry| entry.spec).collect();
    println!("{} tools at safety tier {tier}:", specs.len());
    for spec in specs {
        let summary = spec.title.unwrap_or(spec.description);
        println!("  {:<24} {:<11} {}", spec.name, spec.tier.as_str(), summary);
    }
    ExitCode::SUCCESS
}

fn init_logging() {
    let filter = tracing_subscriber::EnvFilter::try_from_env("PANEWARD_LOG")
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info,rmcp=warn"));
    // Standard output carries the protocol; logs go to standard error only.
    tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(false)
        .with_target(false)
        .init();
}

fn serve(config: crate::config::Config) -> ExitCode {
    init_logging();
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
    tracing::info!(
        version = env!("CARGO_PKG_VERSION"),
        tools = app.catalog.listed(app.config.safety).count(),
        tier = %app.config.safety,
        server = %app.config.address.label(),
        "paneward serving MCP on stdio{FAULT_NOTE}"
    );
    let result = runtime.block_on(crate::mcp::stdio::serve(McpServer::new(app)));
    // A read of standard input may still be pending; it must not hold the exit.
    runtime.shutdown_background();
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => fail(&error),
    }
}
