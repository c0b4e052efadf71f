//! `paneward-bench fleet`: what a fan-out read costs. Three private tmux servers of N
//! panes each (default 64); `list_panes` through paneward pointed at each one alone,
//! then through one paneward with all three as targets. The fleet's target is at most
//! the slowest single server plus 1 ms: the targets answer in parallel, and merging the
//! rows and writing the targets into their ids is the only work added.

use std::path::Path;

use serde_json::json;

use crate::fixture::{Fixture, Shape};
use crate::mcp::{Launch, Server};
use crate::stats::{show, Samples};

/// Calls `list_panes` `samples` times (after one warm-up call) and returns the times.
fn list_panes(server: &mut Server, samples: usize) -> Result<Samples, String> {
    server.call("list_panes", &json!({}))?;
    let mut times = Samples::default();
    for _ in 0..samples {
        times.push(server.call("list_panes", &json!({}))?);
    }
    Ok(times)
}

fn launch(paneward: &Path, args: Vec<String>) -> Launch {
    Launch {
        program: paneward.to_string_lossy().into_owned(),
        args,
        env: vec![("PANEWARD_LOG".into(), "error".into())],
        http_token: None,
    }
}

/// Runs the measurement and returns its Markdown table.
///
/// # Errors
/// tmux or paneward failed.
pub fn run(paneward: &Path, panes: usize, samples: usize) -> Result<String, String> {
    let shape = Shape {
        panes,
        one_window: false,
        sessions: 1,
    };
    let fixtures = [
        Fixture::start(shape, false)?,
        Fixture::start(shape, false)?,
        Fixture::start(shape, false)?,
    ];
    let mut rows = String::new();
    let mut slowest = std::time::Duration::ZERO;
    for (index, fixture) in fixtures.iter().enumerate() {
        eprintln!("list_panes on server {index} alone ({samples} calls)");
        let mut server = Server::start(&launch(paneward, vec!["--socket-name".into(), fixture.socket.clone()]))?.server;
        let times = list_panes(&mut server, samples)?;
        slowest = slowest.max(times.median());
        rows.push_str(&format!(
            "| server {index} alone, {panes} panes | {} | {} |\n",
            show(times.median()),
            show(times.p99())
        ));
    }
    let mut args = Vec::new();
    for (index, fixture) in fixtures.iter().enumerate() {
        args.extend(["--target".to_string(), format!("t{index}=-L:{}", fixture.socket)]);
    }
    eprintln!("list_panes across the three targets ({samples} calls)");
    let mut server = Server::start(&launch(paneward, args))?.server;
    let (_, reply) = server.call_reply("list_panes", &json!({}))?;
    let listed = reply["result"]["structuredContent"]["panes"]
        .as_array()
        .map_or(0, Vec::len);
    if listed != 3 * panes {
        return Err(format!("the fleet listed {listed} panes, not {}", 3 * panes));
    }
    let fleet = list_panes(&mut server, samples)?;
    let budget = slowest + std::time::Duration::from_millis(1);
    Ok(format!(
        "| list_panes | median | p99 |\n|---|---:|---:|\n{rows}\
         | the three as targets of one paneward, {} panes | **{}** | {} |\n\n\
         Target: the fleet's median at most the slowest single server's plus 1 ms ({}): {}.\n",
        3 * panes,
        show(fleet.median()),
        show(fleet.p99()),
        show(budget),
        if fleet.median() <= budget { "met" } else { "NOT met" }
    ))
}
