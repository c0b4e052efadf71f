//! `wait_for_idle`: a pane that has gone quiet, or is back at its shell's prompt.
//!
//! An agent or a full-screen program goes byte-silent when it is done, and a shell
//! is done when its prompt is back; neither needs a pattern. Each tick reads the pane
//! once ([`ready::look`]: its facts and screen in one round trip); the pane is "quiet"
//! while nothing of that changes (rows, cursor, history size, program, alternate
//! screen). Quiet counts from the wait's start: tmux 3.3a keeps no per-pane output
//! time (`window_activity` is the window's), so a pane quiet before the call still
//! takes `quiet_seconds` to be reported, and one that never prints is reported quiet.
//! "Back at a prompt" is the one rule of `run::prompt`, through [`ready::judge`].
//! "Waiting for input" (`until: input`) is the kernel's answer
//! (`guard::terminal::pane_input_wait`), asked once per tick after the look.
//!
//! A known agent (`tools::agents`) is never quiet nor waiting while its busy marker
//! shows (a static "esc to interrupt" line is work, not quiet), and the kernel's
//! "unknown" for its event loop becomes "waiting" once its input box is drawn empty
//! with no marker: the table only tightens, and other programs keep the rules above.

use std::time::{Duration, Instant};

use crate::generated::types::{
    WaitForIdleInput, WaitForIdleInputUntil, WaitForIdleOutput, WaitForIdleOutputOutcome, WaitForIdleOutputReadsAs,
};
use crate::guard::terminal::{cannot_ask_kernel, pane_input_wait};
use crate::guard::typed::TypedLine;
use crate::guard::ReadGate;
use crate::limits::{IDLE_DEFAULT_QUIET, WAIT_DEFAULT_TIMEOUT, WAIT_POLL_INTERVAL};
use crate::runtime::error::ToolError;
use crate::tmux::input_wait::{InputWait, ReadsAs};
use crate::tools::agents::agent_for;
use crate::tools::args;
use crate::tools::budget::{refuse_in_batch, Budget, Progress};
use crate::tools::run::ready::{self, PaneLook, Readiness};
use crate::tools::wait::echo::{shown_lines, shown_since, without_own_echo};

/// What of a look counts as the pane changing. With `own_input` (what paneward typed
/// into the pane lately), a change that is only its echo (the rows as they were once
/// each typed line's text is taken out, and the cursor that moved along) is none.
fn moved(before: &PaneLook, now: &PaneLook, own_input: &[TypedLine]) -> bool {
    if before == now {
        return false;
    }
    if own_input.is_empty() {
        return true;
    }
    let facts = |look: &PaneLook| {
        (
            look.program.clone(),
            look.pid.clone(),
            look.dead,
            look.in_mode,
            look.alternate,
            look.history_size,
        )
    };
    facts(before) != facts(now) || without_own_echo(own_input, &before.rows) != without_own_echo(own_input, &now.rows)
}

/// `wait_for_idle`: see the tool's description in `schemas/tools/wait_for_idle.json`.
///
/// # Errors
/// Bad arguments, a batch row, a pane missing at the start, or tmux failing.
pub async fn wait_for_idle(gate: &ReadGate<'_>, input: WaitForIdleInput) -> Result<WaitForIdleOutput, ToolError> {
    let WaitForIdleInput {
        pane_id,
        quiet_seconds,
        until,
        timeout_seconds,
        include_own_input,
    } = input;
    let pane = args::pane_id("/pane_id", &pane_id)?;
    let for_prompt = matches!(until, Some(WaitForIdleInputUntil::Prompt));
    let for_input = matches!(until, Some(WaitForIdleInputUntil::Input));
    if let (true, Some(why)) = (for_input, cannot_ask_kernel(gate)) {
        return Err(ToolError::invalid_argument(
            "/until",
            format!("input needs the kernel's view of the pane's processes, which this server lacks: {why}; use until: quiet or prompt"),
        ));
    }
    let quiet = match quiet_seconds {
        Some(seconds) if !seconds.is_finite() || seconds < 0.0 => {
            return Err(ToolError::invalid_argument("/quiet_seconds", "must be 0 to 3600"))
        }
        Some(seconds) => Duration::from_secs_f64(seconds),
        None if for_prompt || for_input => Duration::ZERO,
        None => IDLE_DEFAULT_QUIET,
    };
    let budget = Budget::new(
        "/timeout_seconds",
        timeout_seconds,
        WAIT_DEFAULT_TIMEOUT,
        gate.state().settings.max_wait,
    )?;
    refuse_in_batch(gate.context(), "wait_for_idle")?;

    let context = gate.context();
    let mut progress = Progress::new(context);
    let what = format!("pane {pane}");
    let started = Instant::now();
    let mut last = ready::look(gate, pane).await?;
    let first_rows = last.rows.clone();
    let mut changed_at = Instant::now();
    let mut saw_change = false;
    let mut reads_as = None;
    let outcome = loop {
        if last.dead {
            break WaitForIdleOutputOutcome::PaneDied;
        }
        let agent = agent_for(&last.program);
        let quiet_enough = changed_at.elapsed() >= quiet && !agent.is_some_and(|a| a.busy(&last.rows));
        if quiet_enough && for_prompt && ready::judge(&last) == Readiness::Ready {
            break WaitForIdleOutputOutcome::Prompt;
        }
        if quiet_enough && for_input {
            match pane_input_wait(gate, pane).await {
                Ok(InputWait::Waiting { reads_as: how, .. }) => {
                    reads_as = Some(reads_as_field(how));
                    break WaitForIdleOutputOutcome::Input;
                }
                Ok(InputWait::Unknown(_)) if agent.is_some_and(|a| a.prompt_mark.is_some() && a.ready(&last.rows)) => {
                    reads_as = Some(WaitForIdleOutputReadsAs::ProgramInput);
                    break WaitForIdleOutputOutcome::Input;
                }
                Ok(_) => {}
                Err(error) if error.is_object_gone() => break WaitForIdleOutputOutcome::PaneDied,
                Err(error) => return Err(error.into()),
            }
        }
        if quiet_enough && !for_prompt && !for_input {
            break WaitForIdleOutputOutcome::Quiet;
        }
        if budget.is_over() {
            break WaitForIdleOutputOutcome::Timeout;
        }
        progress.tick(&budget, &what).await;
        tokio::select! {
            () = tokio::time::sleep(WAIT_POLL_INTERVAL.min(budget.left())) => {}
            () = context.cancelled() => return Err(ToolError::cancelled()),
        }
        let now = match ready::look(gate, pane).await {
            Ok(now) => now,
            // Killed during the wait: the capture fails for a pane that is gone.
            Err(error) if error.is_object_gone() => break WaitForIdleOutputOutcome::PaneDied,
            Err(error) => return Err(error.into()),
        };
        // Only an echo seen at the typing, and not one gone before the wait began.
        let own_input = if include_own_input.unwrap_or(false) {
            Vec::new()
        } else {
            shown_since(shown_lines(gate, pane).await, started, &first_rows)
        };
        if moved(&last, &now, &own_input) {
            changed_at = Instant::now();
            saw_change = true;
        }
        last = now;
    };
    Ok(WaitForIdleOutput {
        pane_id: pane.to_string(),
        outcome,
        program: last.program,
        alternate_screen: last.alternate,
        quiet_seconds: Budget::seconds(changed_at.elapsed()),
        saw_change,
        elapsed_seconds: Budget::seconds(budget.elapsed()),
        timeout_seconds: Budget::seconds(budget.timeout),
        timeout_clamped: budget.clamped,
        reads_as,
    })
}

fn reads_as_field(how: ReadsAs) -> WaitForIdleOutputReadsAs {
    match how {
        ReadsAs::ShellPrompt => WaitForIdleOutputReadsAs::ShellPrompt,
        ReadsAs::Password => WaitForIdleOutputReadsAs::Password,
        ReadsAs::ProgramInput => WaitForIdleOutputReadsAs::ProgramInput,
    }
}
