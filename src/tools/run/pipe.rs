//! `pipe_pane`: copy a pane's output to a file, or stop copying.
//!
//! tmux runs `pipe-pane`'s argument through `sh -c` after expanding it twice: first
//! `strftime` (every `%`), then tmux formats (`#`). The path is therefore quoted for the
//! shell, then each `%` doubled and the text made [`literal`], so that what reaches the
//! shell is the quoted path exactly; the caller never supplies a command.

use crate::generated::types::{PipePaneInput, PipePaneOutput};
use crate::guard::{ChangeCommand, ChangeGate, ChangeVerb};
use crate::limits::{PIPE_NAME_MAX_BYTES, PIPE_PATH_MAX_BYTES};
use crate::runtime::error::echo;
use crate::runtime::error::{ToolError, ToolErrorKind};
use crate::tmux::format::literal;
use crate::tmux::PaneId;
use crate::tools::args;
use crate::tools::observe::marks::RECORDING_OPTION;
use crate::tools::observe::pane_state::{describe_pane, pane_record};
use std::path::Path;

const FIELDS: [&str; 2] = ["pane_id", "pane_pipe"];

/// Checks the output path: absolute, bounded, no control characters.
fn output_path(text: &str) -> Result<&str, ToolError> {
    if !text.starts_with('/') {
        return Err(ToolError::invalid_argument(
            "/path",
            "must be an absolute path (starting with /)",
        ));
    }
    if text.len() > PIPE_PATH_MAX_BYTES {
        return Err(ToolError::invalid_argument(
            "/path",
            format!("must be at most {PIPE_PATH_MAX_BYTES} bytes"),
        ));
    }
    if text.chars().any(char::is_control) {
        return Err(ToolError::invalid_argument(
            "/path",
            "must not contain control characters",
        ));
    }
    if text.ends_with('/') {
        return Err(ToolError::invalid_argument(
            "/path",
            "must name a file, not a directory",
        ));
    }
    if let Some(long) = text.split('/').find(|part| part.len() > PIPE_NAME_MAX_BYTES) {
        return Err(ToolError::invalid_argument(
            "/path",
            format!(
                "each name in the path must be at most {PIPE_NAME_MAX_BYTES} bytes ({} is {})",
                echo(long),
                long.len()
            ),
        ));
    }
    Ok(text)
}

/// Where tmux runs on this host, checks what would make the pipe's shell fail to open
/// `path` after `pipe-pane` has already succeeded (tmux reports nothing then): a
/// directory there, or no directory to hold it. With `--ssh` the file is on that host.
fn openable_here(path: &str) -> Result<(), ToolError> {
    let path = Path::new(path);
    if path.is_dir() {
        return Err(ToolError::invalid_argument(
            "/path",
            format!(
                "{} is a directory; name a file; nothing was changed",
                echo(&path.to_string_lossy())
            ),
        ));
    }
    let parent = path.parent().unwrap_or(Path::new("/"));
    if !parent.is_dir() {
        return Err(ToolError::invalid_argument(
            "/path",
            format!(
                "no directory {} exists to hold the file; nothing was changed",
                echo(&parent.to_string_lossy())
            ),
        ));
    }
    Ok(())
}

/// The shell command tmux is given: `cat` appending (or truncating) to `path`, quoted
/// for `sh` and escaped for tmux's `strftime` and format expansions.
pub fn pipe_command(path: &str, append: bool) -> String {
    let quoted = format!("'{}'", path.replace('\'', r"'\''"));
    let redirect = if append { ">>" } else { ">" };
    let shell = format!("exec cat {redirect} {quoted}");
    literal(&shell.replace('%', "%%"))
}

/// Notes on the pane the file its pipe writes ([`RECORDING_OPTION`]), or forgets it.
fn recording_mark(pane: PaneId, path: Option<&str>) -> ChangeCommand {
    let set = ChangeCommand::new(ChangeVerb::SetOption)
        .arg("-p")
        .arg("-t")
        .arg(pane.to_string());
    match path {
        Some(path) => set.arg(RECORDING_OPTION).arg(path),
        None => set.arg("-u").arg(RECORDING_OPTION),
    }
}

async fn is_piping(gate: &ChangeGate<'_>, pane: PaneId) -> Result<bool, ToolError> {
    let output = gate.run(describe_pane(pane, &FIELDS)).await?;
    let text = String::from_utf8_lossy(&output);
    Ok(pane_record(pane, &FIELDS, &text)?.flag("pane_pipe")?)
}

/// `pipe_pane`: see `schemas/tools/pipe_pane.json`.
///
/// # Errors
/// A bad pane id or path, a pipe already open without `replace`, a missing pane, or
/// tmux failing.
pub async fn pipe_pane(gate: &ChangeGate<'_>, input: PipePaneInput) -> Result<PipePaneOutput, ToolError> {
    let PipePaneInput {
        pane_id,
        path,
        append,
        replace,
        stop,
    } = input;
    let pane = args::pane_id("/pane_id", &pane_id)?;
    let stop = stop.unwrap_or(false);
    let path = match (stop, path.as_deref()) {
        (true, Some(_)) => {
            return Err(ToolError::invalid_argument("/path", "must be left out with stop: true"));
        }
        (false, Some(text)) => {
            let path = output_path(text)?;
            if gate.state().settings.ssh_host.is_none() {
                openable_here(path)?;
            }
            Some(path)
        }
        (_, None) => None,
    };
    let was_piping = is_piping(gate, pane).await?;
    let base = ChangeCommand::new(ChangeVerb::PipePane).arg("-t").arg(pane.to_string());
    let Some(path) = path else {
        if was_piping {
            gate.change_all(&[base, recording_mark(pane, None)])
                .await
                .map_err(|e| ToolError::from(e).for_a_change())?;
        }
        return Ok(PipePaneOutput {
            pane_id: pane.to_string(),
            piping: false,
            path: None,
            was_piping,
        });
    };
    if was_piping && !replace.unwrap_or(false) {
        return Err(ToolError::new(
            ToolErrorKind::Refused,
            format!(
                "pane {pane} already pipes its output somewhere (perhaps the user's own log); \
                 pass replace: true to replace that pipe, or stop: true to stop it"
            ),
        ));
    }
    let command = base.arg("-O").arg(pipe_command(path, append.unwrap_or(true)));
    gate.change_all(&[command, recording_mark(pane, Some(path))])
        .await
        .map_err(|e| ToolError::from(e).for_a_change())?;
    Ok(PipePaneOutput {
        pane_id: pane.to_string(),
        piping: true,
        path: Some(path.to_string()),
        was_piping,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_path_is_quoted_for_the_shell_and_escaped_for_tmux() {
        assert_eq!(pipe_command("/tmp/a b", true), "exec cat >> '/tmp/a b'");
        assert_eq!(pipe_command("/tmp/x", false), "exec cat > '/tmp/x'");
        assert_eq!(
            pipe_command("/tmp/100%#{pid}'$(id)", true),
            r"exec cat >> '/tmp/100%%##{pid}'\''$(id)'"
        );
        assert_eq!(pipe_command("/tmp/s#[x", true), "exec cat >> '/tmp/s#[x'");
    }

    #[test]
    fn only_absolute_file_paths_without_control_characters_pass() {
        assert!(output_path("/tmp/log").is_ok());
        let long_name = format!("/tmp/{}", "n".repeat(256));
        let long_path = format!("/tmp/{}", "d/".repeat(2046));
        for bad in ["tmp/log", "/tmp/", "/tmp/a\nb", "", &long_name, &long_path] {
            assert!(output_path(bad).is_err(), "{bad:?}");
        }
    }
}
