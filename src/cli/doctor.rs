//! `paneward doctor`: what paneward would do with this command line and environment,
//! and whether it can serve. Each check prints one line; the last says yes, or why not.
//! It reads tmux with one process per query (and tries the native client once) and
//! never attaches a control client.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use crate::app::App;
use crate::config::Scope;
use crate::config::{AuditTarget, Config, ServerStart};
use crate::guard::caller::CallerPane;
use crate::tmux::command::Command;
use crate::tmux::control::policy;
use crate::tmux::{Launcher, Tmux};

/// What the server said about itself.
struct ServerFacts {
    pid: i64,
    socket_path: String,
    sessions: usize,
    windows: usize,
    panes: usize,
}

/// Exit status 0 when paneward can serve, 1 with the reason when not.
pub fn run(config: &Config) -> ExitCode {
    let mut report = Diagnosis::default();
    let verdict = diagnose(config, &mut report);
    let mut text: String = report
        .lines
        .iter()
        .map(|(label, text)| format!("{label:<14} {text}\n"))
        .collect();
    let status = match &verdict {
        Ok(()) => {
            text.push_str("\nok: paneward can serve\n");
            ExitCode::SUCCESS
        }
        Err(reason) => {
            text.push_str(&format!("\nNOT OK: {reason}\n"));
            ExitCode::FAILURE
        }
    };
    super::out::print(&text);
    if let Err(reason) = verdict {
        eprintln!("paneward doctor: {reason}");
    }
    status
}

#[derive(Default)]
struct Diagnosis {
    lines: Vec<(&'static str, String)>,
}

impl Diagnosis {
    fn line(&mut self, label: &'static str, text: impl Into<String>) {
        self.lines.push((label, text.into()));
    }
}

fn diagnose(config: &Config, report: &mut Diagnosis) -> Result<(), String> {
    if !config.targets.is_empty() {
        return diagnose_fleet(config, report);
    }
    let launcher = crate::app::launcher_for(config)?;
    if let Some(target) = &config.ssh {
        report.line(
            "host",
            format!(
                "{} through ssh (one shared connection; ssh's own configuration, agent and known_hosts)",
                target.destination
            ),
        );
    }
    let binary = match config.ssh {
        None => resolve_binary(&config.tmux_binary),
        Some(_) => config.tmux_binary.clone(),
    };
    let version = tmux_version(&launcher);
    report.line(
        "tmux",
        format!(
            "{} ({})",
            binary.display(),
            version.as_deref().unwrap_or_else(|e| e.as_str())
        ),
    );
    report.line("socket", socket_line(config));
    report.line("server start", start_line(config));
    if config.private.is_some() {
        report.line("watch", format!("tmux {} attach", config.address.flags().join(" ")));
    }
    // The audit log is not opened here: doctor must not create the file.
    let app = App::from_env(Config {
        audit_log: None,
        ..config.clone()
    })?;
    // Serving compiles each validator at its tool's first call; a fault shows here.
    app.catalog.compile_all()?;
    report.line(
        "safety tier",
        format!(
            "{} ({} tools listed)",
            config.safety,
            app.catalog.listed(config.safety).count()
        ),
    );
    report.line(
        "scope",
        match config.scope {
            Scope::All => "all (--scope owned limits changes to what paneward created)".to_string(),
            Scope::Owned => "owned: tools above readonly touch only what paneward created".to_string(),
        },
    );
    report.line("profile", config.profile.to_string());
    report.line("surface", crate::resources::capabilities::summary(config));
    report.line(
        "connection",
        crate::resources::capabilities::connection(config).to_string(),
    );
    report.line(
        "max wait",
        format!(
            "{} s: the longest any tool waits (--max-wait)",
            config.max_wait.as_secs()
        ),
    );
    report.line(
        "audit log",
        match &config.audit_log {
            None => "off (--audit-log PATH|- to keep one)".to_string(),
            Some(AuditTarget::Stderr) => "standard error".to_string(),
            Some(AuditTarget::File(path)) => path.display().to_string(),
        },
    );
    version?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the async runtime: {e}"))?;
    let tmux = Tmux::launched(
        launcher.clone(),
        config.address.clone(),
        crate::tmux::Options::processes_only(),
    );
    let server = runtime.block_on(server_facts(&tmux));
    let server = match server {
        Ok(facts) => {
            report.line(
                "server",
                format!(
                    "answers: pid {}, socket {}, {} sessions, {} windows, {} panes",
                    facts.pid, facts.socket_path, facts.sessions, facts.windows, facts.panes
                ),
            );
            facts
        }
        Err(error) if config.server_start.config_flags().is_some() => {
            report.line(
                "server",
                format!("none runs yet ({error}); create_session will start it"),
            );
            return Ok(());
        }
        Err(error) => {
            report.line("server", format!("does not answer: {error}"));
            return Err(format!(
                "no tmux server answers on {}; start one (tmux {} new-session -d) or pick another socket",
                config.address.label(),
                config.address.flags().join(" ")
            ));
        }
    };
    let caller = match &config.ssh {
        Some(target) => format!(
            "none: tmux is on {} (--ssh), and paneward cannot run inside a server on another host",
            target.destination
        ),
        None => caller_line(app.guard.caller.as_ref(), &server),
    };
    report.line("caller pane", caller);
    report.line(
        "connection",
        runtime.block_on(connection_line(config, &tmux, &launcher)),
    );
    Ok(())
}

/// Several targets: one line for each, reachable (its tmux, pid, socket and sessions)
/// or not and why. paneward can serve while any target answers; the others are
/// reported per call as `unreachable`.
fn diagnose_fleet(config: &Config, report: &mut Diagnosis) -> Result<(), String> {
    let app = App::from_env(Config {
        audit_log: None,
        ..config.clone()
    })?;
    app.catalog.compile_all()?;
    report.line(
        "safety tier",
        format!(
            "{} ({} tools listed, ids written NAME/%3)",
            config.safety,
            app.catalog.listed(config.safety).count()
        ),
    );
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the async runtime: {e}"))?;
    let mut reachable = 0;
    for target in &config.targets {
        let narrowed = config.for_target(target);
        let state = crate::app::launcher_for(&narrowed).and_then(|launcher| {
            let version = tmux_version(&launcher)?;
            let tmux = Tmux::launched(
                launcher,
                narrowed.address.clone(),
                crate::tmux::Options::processes_only(),
            );
            let facts = runtime.block_on(server_facts(&tmux))?;
            Ok((version, facts))
        });
        let line = match state {
            Ok((version, facts)) => {
                reachable += 1;
                format!(
                    "{}: reachable: {version}, pid {}, socket {}, {} sessions ({})",
                    target.name, facts.pid, facts.socket_path, facts.sessions, target.spec
                )
            }
            Err(reason) => format!("{}: unreachable: {reason} ({})", target.name, target.spec),
        };
        report.line("target", line);
    }
    if reachable == 0 {
        return Err("no target answers".into());
    }
    Ok(())
}

/// Whether and how `create_session` may start the server.
fn start_line(config: &Config) -> String {
    match (&config.server_start, &config.private) {
        (ServerStart::ConfigFile(file), Some(name)) => format!(
            "paneward's own server {name:?}: create_session starts it when none runs, reading only {}",
            file.display()
        ),
        (ServerStart::ConfigFile(file), None) => format!(
            "create_session starts it when none runs, reading only {}",
            file.display()
        ),
        (ServerStart::TmuxConfig, _) => {
            "create_session starts it when none runs, with tmux's own configuration (--start-server)".into()
        }
        (ServerStart::Refused, _) => {
            "never: paneward drives a running server (--private or --start-server let create_session start one)".into()
        }
    }
}

/// Which socket, and what chose it. Without a flag or variable tmux chooses: inside
/// tmux that is the server `$TMUX` names, elsewhere its default socket.
fn socket_line(config: &Config) -> String {
    if config.address != crate::tmux::ServerAddress::Default {
        return format!("{}, chosen by {}", config.address.label(), config.address_origin);
    }
    let inside = std::env::var("TMUX")
        .ok()
        .filter(|value| !value.is_empty() && config.ssh.is_none());
    match inside {
        Some(value) => format!(
            "the server this tmux runs in ({}, from $TMUX): no -L, -S or variable chose one",
            value.split(',').next().unwrap_or(&value)
        ),
        None => "tmux's default socket: no -L, -S or variable chose one".into(),
    }
}

/// The binary as it will be run: a bare name is looked up on PATH.
fn resolve_binary(binary: &Path) -> PathBuf {
    if binary.components().count() > 1 {
        return binary.to_path_buf();
    }
    std::env::var_os("PATH")
        .iter()
        .flat_map(std::env::split_paths)
        .map(|dir| dir.join(binary))
        .find(|candidate| candidate.is_file())
        .unwrap_or_else(|| binary.to_path_buf())
}

fn tmux_version(launcher: &Launcher) -> Result<String, String> {
    let output = launcher
        .command(&["-V".to_string()])
        .stdin(std::process::Stdio::null())
        .output()
        .map_err(|e| match e.kind() {
            std::io::ErrorKind::NotFound => format!(
                "cannot run tmux: {} is not installed or not on PATH; install tmux (apt-get install tmux, brew install tmux) or name it with --tmux PATH",
                launcher.describe()
            ),
            _ => format!("cannot run tmux: {}: {e}", launcher.describe()),
        })?;
    if !output.status.success() {
        let said = String::from_utf8_lossy(&output.stderr);
        let said = said.lines().next().unwrap_or("").trim();
        return Err(format!("cannot run tmux: {} -V failed {said}", launcher.describe()));
    }
    Ok(String::from_utf8_lossy(&output.stdout).trim().to_string())
}

async fn server_facts(tmux: &Tmux) -> Result<ServerFacts, String> {
    let [identity, sessions, windows, panes] = tmux
        .run_each([
            Command::new("display-message").arg("-p").arg("#{pid} #{socket_path}"),
            Command::new("list-sessions").arg("-F").arg("#{session_id}"),
            Command::new("list-windows").arg("-a").arg("-F").arg("#{window_id}"),
            Command::new("list-panes").arg("-a").arg("-F").arg("#{pane_id}"),
        ])
        .await
        .map_err(|e| e.to_string())?;
    let identity = String::from_utf8_lossy(&identity).trim().to_string();
    let (pid, socket_path) = identity.split_once(' ').unwrap_or((identity.as_str(), ""));
    let count = |bytes: &[u8]| String::from_utf8_lossy(bytes).lines().filter(|l| !l.is_empty()).count();
    Ok(ServerFacts {
        pid: pid.parse().unwrap_or(0),
        socket_path: socket_path.to_string(),
        sessions: count(&sessions),
        windows: count(&windows),
        panes: count(&panes),
    })
}

fn caller_line(caller: Option<&CallerPane>, server: &ServerFacts) -> String {
    match caller {
        None if std::env::var_os("TMUX_PANE").is_none() => {
            "none: not run inside tmux (TMUX_PANE unset), so no pane of paneward's own to protect".into()
        }
        None => "none: TMUX or TMUX_PANE is malformed".into(),
        Some(caller) if caller.is_on_server(&server.socket_path, server.pid) => format!(
            "{}, from TMUX_PANE; TMUX names this server (socket and pid match)",
            caller.pane
        ),
        Some(caller) => format!(
            "none on this server: TMUX names {} (pid {}), another server",
            caller.socket_path, caller.server_pid
        ),
    }
}

/// Which connection calls would use, and why not control mode when not.
async fn connection_line(config: &Config, tmux: &Tmux, launcher: &Launcher) -> String {
    if !config.control_mode {
        let one_shot = one_shot_line(config, launcher).await;
        return format!("{one_shot}: control mode is off (--no-control-mode or PANEWARD_NO_CONTROL_MODE)");
    }
    if config.hidden_client {
        match tmux.probe_hidden_client().await {
            Ok(()) => {
                return "control mode, a hidden client (attached to no session: nothing a person sees changes)".into()
            }
            Err(reason) => tracing::debug!(%reason, "no hidden control client"),
        }
    }
    let facts = match tmux.run_all(&policy::facts_query()).await {
        Ok(outputs) => policy::parse_facts(&outputs),
        Err(error) => Err(error),
    };
    match facts.map(|facts| policy::choose(&facts)) {
        Ok(Ok(session)) => format!("control mode (tmux -C): would attach to session {session} at the first call"),
        Ok(Err(refusal)) => format!("{}: {refusal}", one_shot_line(config, launcher).await),
        Err(error) => format!(
            "{}: cannot read the sessions ({error})",
            one_shot_line(config, launcher).await
        ),
    }
}

/// How a call goes without control mode: tried once, so a protocol mismatch shows.
async fn one_shot_line(config: &Config, launcher: &Launcher) -> String {
    let options = crate::tmux::Options {
        control: false,
        native: config.native_client,
        hidden: false,
        max_clients: 1,
    };
    let probe = Tmux::launched(launcher.clone(), config.address.clone(), options);
    let _ = probe
        .run(crate::tmux::Command::new("display-message").arg("-p").arg("x"))
        .await;
    let report = probe.transport_report().await;
    match report.transport {
        crate::tmux::Transport::Native => "tmux's client protocol over its socket, no process per call".into(),
        _ => match report.why.split_once("; ") {
            Some((_, reason)) => format!("one tmux process per call ({reason})"),
            None => "one tmux process per call".into(),
        },
    }
}
