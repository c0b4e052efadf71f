//! `paneward grant [PANE]` and `paneward revoke [PANE]`: the person hands the agent one
//! of their panes, or takes it back, from a shell. A grant sets the pane's ownership
//! mark (`guard::owner`), so `--scope owned` lets tools change that pane as if paneward
//! had made it; its window and session stay the person's (a split or a kill that
//! reaches them is still refused). The agent cannot grant itself anything: `set_option`
//! refuses every paneward option.
//!
//! Without PANE, the pane the shell runs in (`$TMUX_PANE`), but only when that pane is
//! on the server paneward is pointed at: `%N` names another pane on another server.
//! Both are written to the audit log, when one is kept.

use std::process::ExitCode;
use std::time::Instant;

use serde_json::json;

use crate::app::App;
use crate::audit::{CallRecord, Outcome};
use crate::config::Config;
use crate::guard::caller::CallerPane;
use crate::guard::owner::{OwnedMark, OWNED_VALUE};
use crate::runtime::error::{ToolError, ToolErrorKind};
use crate::tmux::{Command, PaneId, Tmux};

/// The pane paneward reads back after a change, for the message.
const PLACE_FORMAT: &str = "#{pane_id} #{session_name}:#{window_index}.#{pane_index}";

/// Exit status 0 with one line on stdout saying what changed; 1 with the reason.
pub fn run(config: &Config, pane: Option<&str>, revoke: bool) -> ExitCode {
    let verb = if revoke { "revoke" } else { "grant" };
    // With several targets the pane names its target (`NAME/%3`): the grant is made
    // on that target's server alone, as if paneward drove only it.
    if !config.targets.is_empty() {
        let Some((name, id)) = pane.and_then(|pane| pane.split_once('/')) else {
            return fail(verb, "with several targets, give the pane with its target: NAME/%3");
        };
        let Some(target) = config.targets.iter().find(|target| target.name == name) else {
            let names: Vec<&str> = config.targets.iter().map(|t| t.name.as_str()).collect();
            return fail(
                verb,
                &format!("no target `{name}`; the targets are {}", names.join(", ")),
            );
        };
        return run(&config.for_target(target), Some(id), revoke);
    }
    let started = Instant::now();
    let runtime = match tokio::runtime::Builder::new_current_thread().enable_all().build() {
        Ok(runtime) => runtime,
        Err(error) => return fail(verb, &format!("cannot start the async runtime: {error}")),
    };
    let outcome = runtime.block_on(change(config, pane, revoke));
    let audited_pane = match &outcome {
        Ok((pane, _)) => Some(pane.to_string()),
        Err((pane, _)) => pane.map(|p| p.to_string()),
    };
    if let Err(message) = audit(config, verb, audited_pane, &outcome, started) {
        return fail(verb, &message);
    }
    match outcome {
        Ok((_, line)) => {
            println!("{line}");
            ExitCode::SUCCESS
        }
        Err((_, message)) => fail(verb, &message),
    }
}

fn fail(verb: &str, message: &str) -> ExitCode {
    eprintln!("paneward {verb}: {message}");
    ExitCode::FAILURE
}

/// The pane and what was done, or the pane (if known) and why nothing was.
type Change = Result<(PaneId, String), (Option<PaneId>, String)>;

async fn change(config: &Config, pane: Option<&str>, revoke: bool) -> Change {
    let launcher = crate::app::launcher_for(config).map_err(|e| (None, e))?;
    let tmux = Tmux::launched(launcher, config.address.clone(), crate::tmux::Options::processes_only());
    let pane = chosen_pane(&tmux, config, pane).await.map_err(|e| (None, e))?;
    let mark = OwnedMark::Pane;
    let set = mark.set_command(&pane.to_string(), revoke);
    let place = Command::new("display-message")
        .arg("-p")
        .arg("-t")
        .arg(pane.to_string())
        .arg(PLACE_FORMAT);
    let commands = [Command::from(mark.read_own(&pane.to_string())), set, place];
    let outputs = tmux
        .run_all(&commands)
        .await
        .map_err(|e| (Some(pane), ToolError::from(e).message().to_string()))?;
    let text = |index: usize| {
        String::from_utf8_lossy(outputs.get(index).map_or(&[][..], Vec::as_slice))
            .trim()
            .to_string()
    };
    let was_marked = text(0) == OWNED_VALUE;
    let place = text(2);
    let place = place.split_once(' ').map_or(place.as_str(), |(_, at)| at);
    let line = match (revoke, was_marked) {
        (false, false) => format!("granted: pane {pane} ({place}) is the agent's; --scope owned now covers it"),
        (false, true) => format!("pane {pane} ({place}) was the agent's already; nothing changed"),
        (true, true) => format!("revoked: pane {pane} ({place}) is no longer the agent's under --scope owned"),
        (true, false) => format!("pane {pane} ({place}) was not the agent's; nothing changed"),
    };
    Ok((pane, line))
}

/// The pane named, else the shell's own pane when it is on the server paneward drives.
async fn chosen_pane(tmux: &Tmux, config: &Config, pane: Option<&str>) -> Result<PaneId, String> {
    if let Some(text) = pane {
        return text
            .parse::<PaneId>()
            .map_err(|_| format!("PANE must be a pane id such as %3 (list_panes shows them), not {text:?}"));
    }
    let own = match config.ssh {
        None => CallerPane::from_env(
            std::env::var("TMUX").ok().as_deref(),
            std::env::var("TMUX_PANE").ok().as_deref(),
        ),
        Some(_) => None,
    };
    let Some(own) = own else {
        return Err("give the pane (%N): outside tmux (or with --ssh) there is no pane of this shell to grant".into());
    };
    let server = Command::new("display-message").arg("-p").arg("#{socket_path} #{pid}");
    let output = tmux
        .run(server)
        .await
        .map_err(|e| ToolError::from(e).message().to_string())?;
    let output = String::from_utf8_lossy(&output);
    let on_this_server = output
        .trim()
        .rsplit_once(' ')
        .and_then(|(socket, pid)| Some((socket, pid.parse::<i64>().ok()?)))
        .is_some_and(|(socket, pid)| own.is_on_server(socket, pid));
    if !on_this_server {
        return Err(format!(
            "this shell's pane {} is on another tmux server than {}; give the pane id, or the -L/-S/--private of its server",
            own.pane,
            config.address.label()
        ));
    }
    Ok(own.pane)
}

/// One audit line, as a call of a tool named `grant` or `revoke` from the shell.
fn audit(config: &Config, verb: &str, pane: Option<String>, outcome: &Change, started: Instant) -> Result<(), String> {
    if config.audit_log.is_none() {
        return Ok(());
    }
    // The app opens the log with the contract's key names, as the server does.
    let app = App::from_env(Config {
        control_mode: false,
        ..config.clone()
    })?;
    let Some(log) = &app.audit else {
        return Ok(());
    };
    let result = match outcome {
        Ok(_) => Ok(serde_json::Value::Null),
        Err((_, message)) => Err(ToolError::new(ToolErrorKind::Refused, message.clone())),
    };
    log.write(&CallRecord {
        request_id: None,
        tool: verb,
        batch_row: false,
        outcome: Outcome::of(&result),
        duration: started.elapsed(),
        arguments: &json!({ "pane_id": pane }),
        target: None,
    });
    Ok(())
}
