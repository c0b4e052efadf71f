//! The differential suite: the real libtmux-mcp 0.1.0a22 and `paneward --profile
//! python`, each on a private tmux server built the same way, run one scripted session
//! (`tests/python-profile/session.json`: a success and a failure call for each of the 54
//! tools), and their replies are compared structurally: `isError`, `structuredContent`,
//! the text (as JSON where it is JSON) and `_meta`, with what cannot be equal (process
//! ids, terminals, times, the temp folder) normalised away. Every difference left must
//! be an exception of `tests/python-profile/exceptions.json`, with its reason; an
//! exception that no longer occurs fails too, so the list stays true.
//! `PANEWARD_DIFF_DRAFT=1` prints the differences not yet listed as exceptions to add.
//! The test prints its figures (calls equal, different only as listed, different
//! otherwise); `PANEWARD_DIFF_AA=1` runs libtmux-mcp on both sides instead, to show
//! what the harness itself cannot hold equal (it then only reports).
//!
//! libtmux-mcp comes from `tests/python-profile/install` (`.ci/run` runs it), into
//! `target/libtmux-mcp`, or from `PANEWARD_LIBTMUX_MCP` (its executable).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // helpers outside #[test] fns

use std::path::PathBuf;

use serde_json::{json, Value};

use crate::support::differential::{rewrite_strings, tmux_pair, Suite, Twin};
use crate::support::{root, Client, TmuxServer};

const SUITE: Suite = Suite {
    peer: "libtmux-mcp",
    script: "tests/python-profile/session.json",
    exceptions: "tests/python-profile/exceptions.json",
    outcome: "expect",
    // A new pane's path is null until its shell reports one, so when it is read is
    // chance; the others are each server's own process, terminal and clock.
    volatile: &[
        "pane_current_path",
        "pane_pid",
        "pane_tty",
        "session_created",
        "elapsed_seconds",
        "elapsed",
        "socket_path",
        "pid",
        "session_activity",
    ],
    compare_wording: true,
    normalise,
};

fn libtmux_mcp() -> PathBuf {
    let program = std::env::var_os("PANEWARD_LIBTMUX_MCP")
        .map(PathBuf::from)
        .unwrap_or_else(|| root().join("target/libtmux-mcp/bin/libtmux-mcp"));
    assert!(
        program.is_file(),
        "libtmux-mcp is not installed at {}: run tests/python-profile/install (or set PANEWARD_LIBTMUX_MCP)",
        program.display()
    );
    program
}

/// What this suite holds equal beyond the common normalising.
fn normalise(tool: &str, reply: &mut Value) {
    rewrite_strings(reply, &buffer_names);
    if tool == "respawn_pane" {
        just_respawned(reply);
    }
}

/// A buffer's name carries a random part each server draws for itself; tmux's own
/// message template (`display_message ""`) ends with the clock, which may turn between
/// the twins' calls.
fn buffer_names(text: &str) -> String {
    let pattern = regex::Regex::new("libtmux_mcp_[0-9a-f]{32}_").unwrap();
    let text = pattern.replace_all(text, "libtmux_mcp_<hex>_");
    let clock = regex::Regex::new(r"\(\d\d:\d\d \d\d-[A-Z][a-z]{2}-\d\d\)$").unwrap();
    clock.replace_all(&text, "(<time>)").into_owned()
}

/// A pane read just after `respawn-pane` may still run tmux's own child, before it
/// becomes the shell: `pane_current_command` is `tmux` or `sh` by chance, on either
/// server, so a respawned pane's command is not compared.
fn just_respawned(reply: &mut Value) {
    for pointer in ["/structuredContent", "/content/0/text"] {
        if let Some(Value::Object(pane)) = reply.pointer_mut(pointer) {
            if pane.contains_key("pane_current_command") {
                pane.insert("pane_current_command".into(), json!("<respawning>"));
            }
        }
    }
}

#[test]
fn paneward_answers_the_scripted_session_as_libtmux_mcp_does() {
    let program = libtmux_mcp();
    let (theirs_tmux, ours_tmux) = tmux_pair();
    let tmp = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("pw-differential-{}", std::process::id()));
    let (theirs_tmp, ours_tmp) = (tmp.join("theirs"), tmp.join("ours"));
    std::fs::create_dir_all(&theirs_tmp).unwrap();
    std::fs::create_dir_all(&ours_tmp).unwrap();
    let toolsets = "inspect,manage,execute,teardown";
    let upstream = |tmux: &TmuxServer| {
        Client::spawn_program(
            &program,
            &[],
            &[
                ("LIBTMUX_SOCKET", tmux.name.as_str()),
                ("LIBTMUX_TOOLSETS", toolsets),
                ("FASTMCP_SHOW_CLI_BANNER", "false"),
                ("FASTMCP_LOG_LEVEL", "ERROR"),
            ],
        )
    };
    let mut theirs_client = upstream(&theirs_tmux);
    theirs_client.initialize();
    // `PANEWARD_DIFF_AA=1`: libtmux-mcp on both sides, to show the harness's own noise.
    let self_check = std::env::var_os("PANEWARD_DIFF_AA").is_some();
    // paneward at its widest: every toolset and tier, environment values shown.
    let mut ours_client = if self_check {
        upstream(&ours_tmux)
    } else {
        ours_tmux.paneward_with(
            &[
                "--profile",
                "python",
                "--safety",
                "destructive",
                "--toolsets",
                toolsets,
                "--reveal-environment",
            ],
            &[],
        )
    };
    ours_client.initialize();
    let mut theirs = Twin::new(theirs_tmux, theirs_client).with_folder("tmp", &theirs_tmp);
    let mut ours = Twin::new(ours_tmux, ours_client).with_folder("tmp", &ours_tmp);

    let figures = SUITE.run(&mut theirs, &mut ours);
    let _ = std::fs::remove_dir_all(&tmp);
    eprintln!(
        "differential: {} calls: {} equal, {} different as listed, {} different otherwise{}",
        figures.calls,
        figures.equal,
        figures.documented,
        figures.undocumented,
        if self_check {
            " (libtmux-mcp against itself)"
        } else {
            ""
        }
    );
    if self_check {
        eprintln!("{}", figures.unlisted.join("\n"));
        return;
    }
    SUITE.assert_listed(&figures);
    assert!(figures.calls >= 108, "a success and a failure for each tool");
}
