//! A private tmux server with a given number of panes, one of them holding a long
//! history, removed again on drop.

use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};

/// Panes per window in the default layout.
const PANES_PER_WINDOW: usize = 4;

/// How the panes are laid out and what else is on the server.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shape {
    pub panes: usize,
    /// Every pane in one window (on a screen big enough for 64) instead of four a window.
    pub one_window: bool,
    /// Detached sessions on the server, `bench` included: with two or more, paneward
    /// may not attach a control client (it would change which session `tmux attach`
    /// picks), so it answers through its native client.
    pub sessions: usize,
}

impl Shape {
    /// How the tables name this shape.
    pub fn label(&self) -> String {
        let mut label = self.panes.to_string();
        if self.one_window {
            label.push_str(", one window");
        }
        if self.sessions > 1 {
            label.push_str(&format!(", {} detached sessions", self.sessions));
        }
        label
    }
}
/// Lines the target pane prints, so a 2,000-line history capture is full.
pub const HISTORY_LINES: usize = 3_000;
/// Lines the long-history pane prints: 191,079 rows of history on a 50-row screen, as
/// on the pane where whole-scrollback captures were found to cost up to 0.8 s.
pub const LONG_LINES: usize = 191_128;

pub struct Fixture {
    /// The `-L` socket name.
    pub socket: String,
    /// Every pane id, the target (with the history) first.
    pub panes: Vec<String>,
    pub session_id: String,
    /// The tmux server's process id.
    pub tmux_pid: u32,
    /// The pane with [`LONG_LINES`] of history, alone in session `long`, when asked for.
    pub long: Option<String>,
    /// A pane running `/bin/sh`, in a window of its own in session `bench`, when asked
    /// for; it is not among [`Fixture::panes`].
    pub shell: Option<String>,
    socket_path: Option<PathBuf>,
}

impl Fixture {
    /// Starts `tmux -L <unique>` with `shape.panes` panes in session `bench`, and with
    /// `long_history` a session `long` whose one pane has [`LONG_LINES`] of history.
    ///
    /// # Errors
    /// tmux failed, or a history pane did not print its history in time.
    pub fn start(shape: Shape, long_history: bool) -> Result<Self, String> {
        let panes = shape.panes;
        let per_window = if shape.one_window { usize::MAX } else { PANES_PER_WINDOW };
        let (width, height) = if shape.one_window {
            ("400", "120")
        } else {
            ("200", "50")
        };
        // A count too: one run may hold several servers of one shape (the fleet's three).
        static STARTED: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let socket = format!(
            "pwbench-{}-{panes}-{}-{}-{}",
            std::process::id(),
            shape.sessions,
            u8::from(shape.one_window),
            STARTED.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
        );
        let mut fixture = Self {
            socket,
            panes: Vec::new(),
            session_id: String::new(),
            tmux_pid: 0,
            long: None,
            shell: None,
            socket_path: None,
        };
        let history = format!(
            "seq -f 'history line %g of the benchmark, padded to a typical terminal width' 1 {HISTORY_LINES}; exec sleep 1000000"
        );
        fixture.tmux(&[
            "-f",
            "/dev/null",
            "new-session",
            "-d",
            "-s",
            "bench",
            "-x",
            width,
            "-y",
            height,
            &history,
        ])?;
        fixture.socket_path = Some(PathBuf::from(
            fixture.tmux(&["display-message", "-p", "#{socket_path}"])?.trim(),
        ));
        fixture.tmux_pid = fixture
            .tmux(&["display-message", "-p", "#{pid}"])?
            .trim()
            .parse()
            .map_err(|_| "tmux did not print its pid")?;
        fixture.tmux(&["set-option", "-g", "history-limit", "10000"])?;
        fixture.tmux(&["set-option", "-g", "default-shell", "/bin/sh"])?;
        let filler = "printf 'a pane of the benchmark\\n'; exec sleep 1000000";
        for index in 1..panes {
            if index % per_window == 0 {
                fixture.tmux(&["new-window", "-d", "-t", "bench:", filler])?;
            } else {
                let window = format!("bench:{}", index / per_window);
                fixture.tmux(&["split-window", "-d", "-t", &window, filler])?;
                fixture.tmux(&["select-layout", "-t", &window, "tiled"])?;
            }
        }
        for extra in 1..shape.sessions {
            let name = format!("other{extra}");
            fixture.tmux(&[
                "new-session",
                "-d",
                "-s",
                &name,
                "-x",
                "80",
                "-y",
                "24",
                "exec sleep 1000000",
            ])?;
        }
        fixture.panes = fixture
            .tmux(&["list-panes", "-s", "-t", "bench", "-F", "#{pane_id}"])?
            .lines()
            .map(str::to_string)
            .collect();
        fixture.session_id = fixture
            .tmux(&["display-message", "-p", "-t", "bench", "#{session_id}"])?
            .trim()
            .to_string();
        if fixture.panes.len() != panes {
            return Err(format!("asked for {panes} panes, tmux made {}", fixture.panes.len()));
        }
        let target = fixture.panes[0].clone();
        let last = format!("history line {HISTORY_LINES} of");
        let started = Instant::now();
        while !fixture.tmux(&["capture-pane", "-p", "-t", &target])?.contains(&last) {
            if started.elapsed() > Duration::from_secs(30) {
                return Err("the history pane did not finish printing".into());
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        if long_history {
            fixture.long = Some(fixture.long_history_pane()?);
        }
        Ok(fixture)
    }

    /// Opens a window running `/bin/sh` in session `bench` and returns its pane id once
    /// the shell is in the foreground.
    ///
    /// # Errors
    /// tmux failed, or the shell did not start in time.
    pub fn shell_pane(&self) -> Result<String, String> {
        let pane = self
            .tmux(&["new-window", "-d", "-P", "-F", "#{pane_id}", "-t", "bench:", "/bin/sh"])?
            .trim()
            .to_string();
        let started = Instant::now();
        while self
            .tmux(&["display-message", "-p", "-t", &pane, "#{pane_current_command}"])?
            .trim()
            != "sh"
        {
            if started.elapsed() > Duration::from_secs(10) {
                return Err("the shell pane did not start".into());
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        Ok(pane)
    }

    /// Opens session `long` with one pane printing [`LONG_LINES`] lines, and waits
    /// until they are all in its history.
    fn long_history_pane(&self) -> Result<String, String> {
        self.tmux(&["set-option", "-g", "history-limit", "200000"])?;
        let command = format!("seq 1 {LONG_LINES}; exec sleep 1000000");
        let pane = self
            .tmux(&[
                "new-session",
                "-d",
                "-P",
                "-F",
                "#{pane_id}",
                "-s",
                "long",
                "-x",
                "200",
                "-y",
                "50",
                &command,
            ])?
            .trim()
            .to_string();
        self.tmux(&["set-option", "-g", "history-limit", "10000"])?;
        let want = (LONG_LINES + 1 - 50).to_string();
        let started = Instant::now();
        while self
            .tmux(&["display-message", "-p", "-t", &pane, "#{history_size}"])?
            .trim()
            != want
        {
            if started.elapsed() > Duration::from_secs(120) {
                return Err("the long-history pane did not finish printing".into());
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        Ok(pane)
    }

    /// The pane with the long history.
    pub fn target(&self) -> &str {
        &self.panes[0]
    }

    /// Runs tmux on this server.
    ///
    /// # Errors
    /// tmux failed; its message.
    pub fn tmux(&self, args: &[&str]) -> Result<String, String> {
        run_tmux(&self.socket, args).map_err(|message| format!("tmux {args:?}: {message}"))
    }
}

impl Drop for Fixture {
    fn drop(&mut self) {
        let _ = self.tmux(&["kill-server"]);
        // tmux 3.3a leaves its socket file behind.
        if let Some(path) = &self.socket_path {
            let _ = std::fs::remove_file(path);
        }
    }
}

/// Runs tmux on the server of socket name `socket`, outside any tmux client's
/// environment; its output, or its message.
///
/// # Errors
/// tmux failed or could not be run.
pub fn run_tmux(socket: &str, args: &[&str]) -> Result<String, String> {
    let output = Command::new("tmux")
        .arg("-L")
        .arg(socket)
        .args(args)
        .env_remove("TMUX")
        .env_remove("TMUX_PANE")
        .output()
        .map_err(|e| format!("cannot run tmux: {e}"))?;
    if !output.status.success() {
        return Err(String::from_utf8_lossy(&output.stderr).trim().to_string());
    }
    Ok(String::from_utf8_lossy(&output.stdout).into_owned())
}
