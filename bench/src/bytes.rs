//! `paneward-bench bytes`: the bytes a model reads from each list and search tool, and
//! from a screen snapshot and a 2,000-line history capture, in both channels (the text
//! blocks, and `structuredContent` as compact JSON), for paneward (its default brief
//! rows, and `detail: "full"`) beside tmux-mcp and libtmux-mcp on the same tmux.
//! Counts, not timings: a debug build and a busy machine give the same figures.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::cases::{Case, Flavour};
use crate::fixture::{Fixture, Shape};
use crate::mcp::{Launch, Server};

struct Options {
    paneward: PathBuf,
    tmux_mcp: Option<PathBuf>,
    libtmux_mcp: Option<PathBuf>,
    panes: Vec<usize>,
}

pub const USAGE: &str = "usage: paneward-bench bytes [--paneward PATH] [--tmux-mcp PATH] [--libtmux-mcp PATH] \
[--panes 16,64,256]";

/// The calls measured: every list and search tool of paneward's contract that a peer
/// also has, `list_pane_activity`, which none has, and two reads of a pane's text (as
/// each server is called for them: `cases`).
enum Call {
    Plain(&'static str, &'static str),
    Case(&'static str, Case),
}

const CALLS: [Call; 7] = [
    Call::Plain("list_sessions", "{}"),
    Call::Plain("list_windows", "{}"),
    Call::Plain("list_panes", "{}"),
    Call::Plain("search_panes", r#"{"pattern": "benchmark"}"#),
    Call::Plain("list_pane_activity", "{}"),
    Call::Case("snapshot_pane", Case::SnapshotPane),
    Call::Case("capture_pane (2,000 lines of history)", Case::CaptureHistory),
];

impl Call {
    fn label(&self) -> &'static str {
        match self {
            Self::Plain(label, _) | Self::Case(label, _) => label,
        }
    }

    /// The tool and its arguments on `flavour`'s server.
    fn on(&self, flavour: Flavour, fixture: &Fixture) -> (&'static str, Value) {
        match self {
            Self::Plain(tool, arguments) => (tool, serde_json::from_str(arguments).unwrap_or_else(|_| json!({}))),
            Self::Case(_, case) => flavour.call(*case, fixture),
        }
    }
}

fn parse(args: impl Iterator<Item = String>) -> Result<Options, String> {
    let mut options = Options {
        paneward: PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../target/debug/paneward"),
        tmux_mcp: None,
        libtmux_mcp: None,
        panes: vec![16, 64, 256],
    };
    let mut args = args;
    while let Some(flag) = args.next() {
        let value = args.next().ok_or_else(|| format!("{flag} needs a value\n{USAGE}"))?;
        match flag.as_str() {
            "--paneward" => options.paneward = value.into(),
            "--tmux-mcp" => options.tmux_mcp = Some(value.into()),
            "--libtmux-mcp" => options.libtmux_mcp = Some(value.into()),
            "--panes" => {
                options.panes = value
                    .split(',')
                    .map(|n| n.trim().parse().map_err(|_| format!("bad pane count {n:?}")))
                    .collect::<Result<_, _>>()?;
            }
            other => return Err(format!("unknown argument {other:?}\n{USAGE}")),
        }
    }
    Ok(options)
}

/// One column of the table: a server, and what paneward is asked on top of each call.
struct Column {
    label: &'static str,
    flavour: Flavour,
    launch: Launch,
    extra: Value,
}

fn columns(options: &Options, socket: &str) -> Vec<Column> {
    let path = |p: &PathBuf| p.to_string_lossy().into_owned();
    let paneward = || Launch {
        program: path(&options.paneward),
        args: vec!["--socket-name".into(), socket.into()],
        env: vec![("PANEWARD_LOG".into(), "error".into())],
        http_token: None,
    };
    let mut columns = vec![
        Column {
            label: "paneward",
            flavour: Flavour::Paneward,
            launch: paneward(),
            extra: json!({}),
        },
        Column {
            label: "paneward, detail full",
            flavour: Flavour::Paneward,
            launch: paneward(),
            extra: json!({"detail": "full"}),
        },
    ];
    if let Some(program) = &options.tmux_mcp {
        columns.push(Column {
            label: "tmux-mcp 0.1.2",
            flavour: Flavour::TmuxMcp,
            launch: Launch {
                program: path(program),
                args: vec!["--socket-name".into(), socket.into()],
                env: Vec::new(),
                http_token: None,
            },
            extra: json!({}),
        });
    }
    if let Some(program) = &options.libtmux_mcp {
        columns.push(Column {
            label: "libtmux-mcp 0.1.0a22",
            flavour: Flavour::LibtmuxMcp,
            launch: Launch {
                program: path(program),
                args: Vec::new(),
                env: vec![
                    ("LIBTMUX_SOCKET".into(), socket.into()),
                    ("FASTMCP_SHOW_CLI_BANNER".into(), "false".into()),
                    ("FASTMCP_LOG_LEVEL".into(), "ERROR".into()),
                ],
                http_token: None,
            },
            extra: json!({}),
        });
    }
    columns
}

/// The bytes of a result's text blocks and of its `structuredContent` as compact JSON.
fn channels(result: &Value) -> (usize, usize) {
    let text = result["content"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|block| block["text"].as_str())
        .map(str::len)
        .sum();
    let structured = result.get("structuredContent").map_or(0, |s| s.to_string().len());
    (text, structured)
}

/// Waits until every pane of the fixture shows its line, so that a search finds them all.
fn wait_drawn(fixture: &Fixture) -> Result<(), String> {
    let deadline = Instant::now() + Duration::from_secs(30);
    for pane in fixture.panes.iter().skip(1) {
        while !fixture.tmux(&["capture-pane", "-p", "-t", pane])?.contains("benchmark") {
            if Instant::now() > deadline {
                return Err(format!("{pane} never showed its line"));
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }
    Ok(())
}

fn with_extra(mut arguments: Value, extra: &Value) -> Value {
    if let (Some(to), Some(from)) = (arguments.as_object_mut(), extra.as_object()) {
        to.extend(from.clone());
    }
    arguments
}

/// The cells of one pane count: for each call, `text / JSON` per column.
fn measure(options: &Options, panes: usize) -> Result<Vec<(String, Vec<String>)>, String> {
    let shape = Shape {
        panes,
        one_window: false,
        sessions: 1,
    };
    let fixture = Fixture::start(shape, false)?;
    wait_drawn(&fixture)?;
    let mut rows: Vec<(String, Vec<String>)> = CALLS
        .iter()
        .map(|call| (format!("{} ({panes})", call.label()), Vec::new()))
        .collect();
    for column in columns(options, &fixture.socket) {
        let mut started = Server::start(&column.launch)?;
        let asks_detail = column.extra.as_object().is_some_and(|extra| !extra.is_empty());
        for (call, (_, cells)) in CALLS.iter().zip(rows.iter_mut()) {
            let (tool, arguments) = call.on(column.flavour, &fixture);
            let lists = matches!(tool, "list_sessions" | "list_windows" | "list_panes" | "search_panes");
            let cell = if !started.tools.iter().any(|t| t == tool) || (asks_detail && !lists) {
                "n/a".to_string()
            } else {
                // A server without `detail` (an older paneward) refuses it: say so.
                match started.server.call_reply(tool, &with_extra(arguments, &column.extra)) {
                    Ok((_, response)) => {
                        let (text, structured) = channels(&response["result"]);
                        format!("{text} / {structured}")
                    }
                    Err(_) if asks_detail => "refused".to_string(),
                    Err(error) => return Err(error),
                }
            };
            cells.push(cell);
        }
    }
    Ok(rows)
}

/// Runs `paneward-bench bytes`: a Markdown table on standard output.
///
/// # Errors
/// Bad arguments, a fixture or server that would not start, a call that failed.
pub fn run(args: impl Iterator<Item = String>) -> Result<String, String> {
    let options = parse(args)?;
    if !options.paneward.exists() {
        return Err(format!("{} does not exist: `cargo build`", options.paneward.display()));
    }
    let labels: Vec<&str> = columns(&options, "-").iter().map(|c| c.label).collect();
    let mut out = String::from("Bytes a model reads: text blocks / structuredContent as compact JSON\n\n");
    out.push_str(&format!("| call (panes) | {} |\n", labels.join(" | ")));
    out.push_str(&format!("|---|{}\n", "---:|".repeat(labels.len())));
    for &panes in &options.panes {
        eprintln!("{panes} panes");
        for (call, cells) in measure(&options, panes)? {
            out.push_str(&format!("| {call} | {} |\n", cells.join(" | ")));
        }
    }
    Ok(out)
}
