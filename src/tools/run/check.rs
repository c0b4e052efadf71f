//! The check before `run_command` types anything: one look at the pane (its options,
//! facts, pending job buffers and screen), the earlier jobs to remove or the one that
//! blocks, and the rules a pane must meet, in their order ([`check_pane`]).

use std::time::Instant;

use crate::guard::screen::ScreenAt;
use crate::guard::{ChangeCommand, ChangeGate, ChangeVerb};
use crate::limits::{RUN_POLL_FIRST, RUN_POLL_MAX, RUN_PROMPT_GRACE};
use crate::runtime::error::ToolError;
use crate::tmux::format::{parse_one, record_format, Record};
use crate::tmux::{PaneId, ReadCommand, ReadVerb};
use crate::tools::observe::text::split_rows;
use crate::tools::shells::is_posix_shell;

use super::prompt::{self, NotAtPrompt};
use super::ready;
use super::record::{now_ms, recorded_jobs, shown_program};
use super::{forget_commands, is_listed, pending_buffers, show_pane_options, standing, JobId, Standing};

/// The pane facts `run_command` checks before typing.
const PANE_FIELDS: [&str; 8] = [
    "pane_id",
    "pane_current_command",
    "synchronize-panes",
    "pane_in_mode",
    "alternate_on",
    "cursor_x",
    "cursor_y",
    "history_size",
];

/// One look at a pane before typing.
struct Look {
    options: String,
    buffers: Vec<u8>,
    described: String,
    screen: Vec<String>,
}

async fn look(gate: &ChangeGate<'_>, pane: PaneId) -> Result<Look, ToolError> {
    let describe = ReadCommand::new(ReadVerb::DisplayMessage)
        .arg("-t")
        .arg(pane.to_string())
        .arg(record_format(&PANE_FIELDS));
    let capture = ReadCommand::new(ReadVerb::CapturePane)
        .arg("-p")
        .arg("-t")
        .arg(pane.to_string());
    let [options, described, buffers, screen] = gate
        .run_each([show_pane_options(pane), describe, pending_buffers(), capture])
        .await?;
    Ok(Look {
        options: String::from_utf8_lossy(&options).into_owned(),
        buffers,
        described: String::from_utf8_lossy(&described).into_owned(),
        screen: split_rows(&screen),
    })
}

/// What a look says: the jobs to remove, or the one that blocks.
fn earlier_jobs(pane: PaneId, look: &Look, force: bool) -> Result<Vec<ChangeCommand>, ToolError> {
    let mut cleanup = Vec::new();
    for job in recorded_jobs(&look.options) {
        let id = JobId {
            pane,
            random: job.random.clone(),
        };
        let waits = is_listed(&look.buffers, &id.buffer());
        if job.staged && !job.fetched && job.exit.is_none() {
            // Staged by a paneward that stopped before typing (its typing step would
            // have overwritten the record): nothing was typed, so it holds nothing.
            tracing::info!(job = %id, "removing a job staged but never typed");
            cleanup.extend(forget_commands(pane, &job.random, waits));
            continue;
        }
        let since = job
            .started_ms
            .map(|started| format!(" (typed {} s ago)", now_ms().saturating_sub(started) / 1000))
            .unwrap_or_default();
        let blocked = match standing(&job, waits) {
            Standing::Pending => Some(format!(
                "pane {pane} holds job {id}{since}, typed but not yet fetched by its shell (a slow shell, or one \
                 whose `tmux` cannot reach this server: is $TMUX set there?); a second line would be typed behind \
                 it, so nothing was typed; wait for it with get_job, or pass force: true to abandon it"
            )),
            Standing::Running => Some(format!(
                "pane {pane} is still running job {id}{since}; read it with get_job, interrupt it with send_keys \
                 C-c, or pass force: true to abandon its record; nothing was typed"
            )),
            Standing::Finished(_) | Standing::Lost => None,
        };
        if let Some(reason) = blocked.filter(|_| !force) {
            return Err(ToolError::blocked(reason));
        }
        if waits {
            // Abandoned before its shell fetched it: only the buffer goes, so the
            // record stays to tell get_job (and a caller still waiting) that it never
            // ran; the next run_command here removes it as lost.
            cleanup.push(ChangeCommand::new(ChangeVerb::DeleteBuffer).arg("-b").arg(id.buffer()));
        } else {
            cleanup.extend(forget_commands(pane, &job.random, false));
        }
    }
    Ok(cleanup)
}

fn number(record: &Record<'_>, field: &str) -> Result<u64, ToolError> {
    record
        .text(field)?
        .parse()
        .map_err(|_| ToolError::internal(format!("tmux gave a {field} that is not a number")))
}

/// What the check before typing found.
pub(super) enum Checked {
    /// Type: after removing these earlier jobs' records, at this screen.
    Ready(Vec<ChangeCommand>, ScreenAt),
    /// The pane's shell is still starting; the sentence says so.
    NotReady(String),
}

/// Checks the pane before anything is typed; returns the jobs of earlier calls to
/// remove (finished or lost; with `force`, any) and the screen the typing requires.
///
/// The order of the rules: an earlier job first (its message says the most), then a
/// pane still starting ([`ready`]: not a refusal, a "not ready yet"), then the program
/// (a POSIX-like shell), synchronize-panes, modes and full-screen programs, and last
/// the prompt itself ([`prompt`]). A shell that has not drawn its prompt yet (just
/// after the last job, a pane still starting) and the tail of an earlier wrapper (a
/// `tmux` process) are waited out for [`RUN_PROMPT_GRACE`], never the whole timeout.
///
/// # Errors
/// A missing pane, or any rule broken, with nothing typed.
pub(super) async fn check_pane(gate: &ChangeGate<'_>, pane: PaneId, force: bool) -> Result<Checked, ToolError> {
    let deadline = Instant::now() + RUN_PROMPT_GRACE;
    let mut pause = RUN_POLL_FIRST;
    loop {
        let look = look(gate, pane).await?;
        let cleanup = earlier_jobs(pane, &look, force)?;
        let record = parse_one("display-message", &PANE_FIELDS, &look.described)?;
        let program = record.text("pane_current_command")?;
        let at = ScreenAt {
            cursor_x: number(&record, "cursor_x")?,
            cursor_y: number(&record, "cursor_y")?,
            history_size: number(&record, "history_size")?,
        };
        let at_prompt = prompt::empty_prompt(&look.screen, at.cursor_x, at.cursor_y);
        let settling = program == "tmux" || at_prompt == Err(NotAtPrompt::NotDrawn);
        if settling && Instant::now() < deadline {
            // A prompt usually follows the last job within milliseconds.
            tokio::time::sleep(pause).await;
            pause = (pause + pause / 4).min(RUN_POLL_MAX);
            continue;
        }
        let in_mode = record.flag("pane_in_mode")? || record.flag("alternate_on")?;
        if at_prompt == Err(NotAtPrompt::NotDrawn) && !in_mode && ready::never_drawn(&look.screen, at.history_size) {
            // A shell still reading its startup files: whatever runs in the foreground
            // (`mesg`, a `sleep` in an rc file) is the startup's, not a refusal's reason.
            return Ok(Checked::NotReady(ready::not_ready_sentence(pane, program)));
        }
        if !is_posix_shell(program) {
            return Err(ToolError::blocked(format!(
                "pane {pane} runs {} in the foreground, not a POSIX-like shell (sh, bash, dash, zsh, ksh, mksh, ash, \
                 busybox); run_command types shell syntax, so nothing was typed (use send_keys for other programs)",
                shown_program(program)
            )));
        }
        if record.flag("synchronize-panes")? {
            return Err(ToolError::blocked(format!(
                "pane {pane} has synchronize-panes on, so the command would also run in other panes; nothing was typed"
            )));
        }
        if in_mode {
            return Err(ToolError::blocked(format!(
                "pane {pane} is in a mode (such as copy mode) or shows a full-screen program's screen, so its shell \
                 is not at its prompt; nothing was typed (leave the mode first; force does not change this)"
            )));
        }
        at_prompt.map_err(|why| ToolError::blocked(why.sentence(&pane.to_string())))?;
        return Ok(Checked::Ready(cleanup, at));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn look(options: String, buffers: &str) -> Look {
        Look {
            options,
            buffers: buffers.as_bytes().to_vec(),
            described: String::new(),
            screen: Vec::new(),
        }
    }

    #[test]
    fn a_staged_job_is_removed_and_a_typed_one_still_holds_the_pane() {
        let pane = PaneId(3);
        let (job, _) = JobId::new(pane).unwrap();
        let x = &job.random;
        let buffer = job.buffer();
        // Staged, with its buffer or without (stopped mid-staging): removed, not blocking.
        for buffers in [buffer.as_str(), ""] {
            let cleanup = earlier_jobs(pane, &look(format!("@paneward_job_{x} staged\n"), buffers), false).unwrap();
            let summaries: Vec<String> = cleanup.iter().map(ChangeCommand::summary).collect();
            assert!(
                summaries.contains(&format!("set-option -p -u -t %3 @paneward_job_{x}")),
                "{summaries:?}"
            );
            let deletes = summaries.contains(&format!("delete-buffer -b {buffer}"));
            assert_eq!(deletes, !buffers.is_empty(), "{summaries:?}");
        }
        // Typed and not fetched: its shell may still read it.
        let typed = look(format!("@paneward_job_{x} 1700000000000\n"), &buffer);
        let Err(error) = earlier_jobs(pane, &typed, false) else {
            panic!("a typed job was removed");
        };
        let error = error.to_string();
        assert!(error.contains("not yet fetched"), "{error}");
        // "staged" beside a fetched mark was not written by paneward: it proves nothing.
        let forged = look(format!("@paneward_job_{x} staged\n@paneward_run_{x} 1\n"), "");
        assert!(earlier_jobs(pane, &forged, false).is_err());
    }
}
