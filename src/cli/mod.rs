//! What the `paneward` binary does with its command line; `main.rs` only calls [`run`].

pub mod args;
pub mod call;
pub mod doctor;

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
        Invocation::Call {
            config,
            tool,
            arguments,
        } => {
            init_logging("warn");
            call::run(config, &tool, arguments.as_deref())
        }
        Invocation::Doctor(config) => doctor::run(&config),
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
    let entries: Vec<_> = app.catalog.listed(tier).collect();
    println!("{} tools at safety tier {tier}:", entries.len());
    for entry in entries {
        let tool = &entry.tool;
        let summary = tool
            .title
            .as_deref()
            .unwrap_or(tool.description.as_deref().unwrap_or(""));
        println!("  {:<24} {:<11} {}", tool.name, entry.tier.as_str(), summary);
        // An argument value that needs more than the tool's tier, and whether this
        // server allows it.
        for escalation in &entry.escalations {
            let allowed = if escalation.tier <= tier {
                "allowed"
            } else {
                "refused here"
            };
            println!(
                "  {:<24} {:<11} with {}: {} ({allowed})",
                "",
                escalation.tier.as_str(),
                escalation.argument,
                escalation.equals
            );
        }
    }
    ExitCode::SUCCESS
}

/// Logs on standard error, filtered by PANEWARD_LOG or else `default`.
fn init_logging(default: &str) {
    let filter = tracing_subscriber::EnvFilter::try_from_env("PANEWARD_LOG")
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new(default));
    // Standard output carries the protocol; logs go to standard error only.
    tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(false)
        .with_target(false)
        .init();
}

/// Said on standard error when a person starts the server at a terminal.
const TERMINAL_NOTICE: &str = "\
paneward is an MCP server: an MCP client (Claude Code, Codex, Gemini CLI, VS Code,
Cursor, ...) starts it and speaks JSON-RPC on its standard input. See README.md,
\"Quick start\", for the client set-up line.
To try it from a shell instead:
  paneward doctor                        what paneward sees and whether it can serve
  paneward call list_panes               one tool call, its result as JSON
  paneward call snapshot_pane '{\"pane_id\": \"%0\"}'
Serving MCP on standard input now; Ctrl-D or Ctrl-C to stop.
";

fn serve(config: crate::config::Config) -> ExitCode {
    init_logging("info,rmcp=warn");
    if std::io::IsTerminal::is_terminal(&std::io::stdin()) {
        eprint!("{TERMINAL_NOTICE}");
    }
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
        profile = %app.config.profile,
        server = %app.config.address.label(),
        "paneward serving MCP on stdio{FAULT_NOTE}"
    );
    let result = runtime.block_on(crate::mcp::stdio::serve(McpServer::new(Arc::clone(&app))));
    // A clean end of input: the buffers this process staged go with it.
    runtime.block_on(crate::tools::buffers::delete_staged(&app));
    // A read of standard input may still be pending; it must not hold the exit.
    runtime.shutdown_background();
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => fail(&error),
    }
}
