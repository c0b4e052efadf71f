//! The differential suite of `--profile libtmux`: the real `tmux-mcp` 0.1.2 and
//! paneward, each on a private tmux server built the same way, run one scripted session
//! (`tests/libtmux-profile/session.json`: a success and a failure call for each of the
//! 45 tools, as an agent would make them), and their replies are compared structurally:
//! `isError`, `structuredContent`, the text (as JSON) and `_meta`, with what cannot be
//! equal between two servers (a pane's working folder, each server's own name)
//! normalised away. Where both fail, the family's `data` (`kind`, `retryable`, `stale`)
//! is compared and the `message` is paneward's own wording. Every other difference left
//! must be an exception of `tests/libtmux-profile/exceptions.json`, with its reason; an
//! exception that no longer occurs fails too. The figures (equal, documented, not
//! documented) are printed; `PANEWARD_DIFF_DRAFT=1` prints the differences not yet
//! listed, as exceptions to fill in.
//!
//! `tmux-mcp` comes from `tests/libtmux-profile/install` (`.ci/run` runs it), into
//! `target/tmux-mcp`, or from `PANEWARD_TMUX_MCP_DIR` (the `--root` it was installed to).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // helpers outside #[test] fns

use serde_json::Value;

use crate::support::differential::{scrub, tmux_pair, Suite, Twin};
use crate::support::Client;

use super::tmux_mcp;

const SUITE: Suite = Suite {
    peer: "tmux-mcp",
    script: "tests/libtmux-profile/session.json",
    exceptions: "tests/libtmux-profile/exceptions.json",
    outcome: "peer",
    // A new pane's working folder is null until its shell reports one, so when it is
    // read is chance.
    volatile: &["path"],
    compare_wording: false,
    normalise: respawned_command,
};

/// Right after a respawn, tmux names the pane's process `tmux` until the new process has
/// exec'd its program, so whether a read sees `tmux` or the shell is chance, on either
/// server.
fn respawned_command(tool: &str, reply: &mut Value) {
    if tool == "respawn_pane" {
        scrub(reply, &["command"], &[]);
    }
}

#[test]
fn paneward_answers_the_scripted_session_as_tmux_mcp_does() {
    let program = tmux_mcp();
    let (theirs_tmux, ours_tmux) = tmux_pair();
    let toolsets = "inspect,manage,execute,teardown";
    let mut theirs_client = Client::spawn_program(
        &program,
        &["-L", theirs_tmux.name.as_str()],
        &[("LIBTMUX_TOOLSETS", toolsets)],
    );
    theirs_client.initialize();
    // PANEWARD_DIFF_SELF=1 runs tmux-mcp on both sides: the noise of the comparison
    // itself (the A/A run), which should be none.
    let self_check = std::env::var_os("PANEWARD_DIFF_SELF").is_some();
    let mut ours_client = if self_check {
        Client::spawn_program(
            &program,
            &["-L", ours_tmux.name.as_str()],
            &[("LIBTMUX_TOOLSETS", toolsets)],
        )
    } else {
        ours_tmux.paneward_with(&super::PROFILE, &[])
    };
    ours_client.initialize();
    let mut theirs = Twin::new(theirs_tmux, theirs_client);
    let mut ours = Twin::new(ours_tmux, ours_client);

    let figures = SUITE.run(&mut theirs, &mut ours);
    eprintln!(
        "libtmux differential: {} calls: {} equal, {} equal but for the error's wording, \
         {} different as documented, {} different and not documented",
        figures.calls, figures.equal, figures.worded, figures.documented, figures.undocumented
    );
    if self_check {
        assert_eq!(
            figures.equal + figures.worded,
            figures.calls,
            "tmux-mcp against itself differs: {:?}",
            figures.unlisted
        );
        return;
    }
    SUITE.assert_listed(&figures);
    assert_eq!(figures.tools.len(), 45, "every tool of the family is called");
    assert!(figures.calls >= 90, "a success and a failure for each tool");
}
