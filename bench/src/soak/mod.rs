//! `paneward-bench soak`: an hour (by default) of mixed input and lifecycle calls to
//! one release paneward, with its private tmux server killed every minute.
//!
//! Every input call (`send_keys`, `paste_text`, `run_command`) types a shell line that
//! appends a token of its own to one log file; the soak waits for each delivered token
//! before its next call, and at the end compares the log with what each call reported
//! ([`ledger`]): no token reported delivered may be missing, none may appear twice, and
//! none reported failed may have run. A token whose call (or the wait for it) spans a
//! server kill is counted apart: tmux may have written it to a shell's terminal just
//! before the kill took the shell, so it may be missing, but never doubled. paneward's
//! RSS is read once a second. The exit status is non-zero on any loss, double, run
//! failure, an RSS above the limit, or paneward dying.
//!
//! It touches only its own `tmux -L pwsoak-<pid>` server and a folder under the
//! temporary directory (kept when the soak fails), and stops by itself: a watchdog kills
//! paneward if a call hangs, so a blocked read ends.

mod ledger;
mod mix;
mod rss;
mod server;

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::Command;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::mcp::{Launch, Server};
use ledger::{Ledger, Tally};
use mix::{append_line, next_call, Rng};
use rss::RssSampler;
use server::{Pane, SoakServer};

/// paneward's resident memory may not exceed 20 MB (issue 30).
const RSS_LIMIT_BYTES: u64 = 20_000_000;
/// After a kill, calls go to the dead server this long before it is started again.
const DEAD_PERIOD: Duration = Duration::from_secs(3);
/// How long a delivered token may take to reach the log, with no server kill between,
/// before the soak moves on. Longer than the kill interval, so that the wait normally
/// ends at the arrival or at a kill (which counts the token apart): a later call of the
/// mix (a `kill_pane`, say) must not end a slow shell before it ran the line and have
/// that counted as paneward losing it.
const ARRIVAL_WAIT: Duration = Duration::from_secs(150);
/// A call that takes longer than this means paneward hangs: the watchdog kills it.
const STUCK_AFTER: Duration = Duration::from_secs(120);
/// Quiet time at the end for the last lines to reach the log.
const FINAL_SETTLE: Duration = Duration::from_secs(2);

pub const USAGE: &str = "usage: paneward-bench soak [--paneward PATH] [--minutes N (60)] \
[--kill-every SECONDS (60)] [--seed N]";

pub struct SoakOptions {
    paneward: PathBuf,
    minutes: f64,
    kill_every: Duration,
    seed: u64,
}

impl SoakOptions {
    /// Reads the arguments after `soak`.
    ///
    /// # Errors
    /// An unknown flag or a bad value; the usage.
    pub fn parse(mut args: impl Iterator<Item = String>) -> Result<Self, String> {
        let mut options = Self {
            paneward: PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../target/release/paneward"),
            minutes: 60.0,
            kill_every: Duration::from_secs(60),
            seed: std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(1, |since| since.as_secs()),
        };
        while let Some(flag) = args.next() {
            let value = args.next().ok_or_else(|| format!("{flag} needs a value\n{USAGE}"))?;
            let bad = || format!("{flag} takes a positive number\n{USAGE}");
            match flag.as_str() {
                "--paneward" => options.paneward = value.into(),
                "--minutes" => options.minutes = value.parse().ok().filter(|m: &f64| *m > 0.0).ok_or_else(bad)?,
                "--kill-every" => {
                    let seconds: f64 = value.parse().ok().filter(|s: &f64| *s >= 5.0).ok_or_else(bad)?;
                    options.kill_every = Duration::from_secs_f64(seconds);
                }
                "--seed" => options.seed = value.parse().map_err(|_| bad())?,
                other => return Err(format!("unknown argument {other:?}\n{USAGE}")),
            }
        }
        Ok(options)
    }
}

/// How many kills began, and how many of them have ended (the server no longer answers).
#[derive(Default)]
struct KillCounts {
    started: AtomicU64,
    settled: AtomicU64,
}

impl KillCounts {
    /// The kills begun so far.
    fn started(&self) -> u64 {
        self.started.load(Ordering::SeqCst)
    }

    /// The kills ended so far.
    fn settled(&self) -> u64 {
        self.settled.load(Ordering::SeqCst)
    }
}

/// Kills the server every `every` until stopped; counts the kills.
struct Killer {
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<(usize, usize)>>,
}

impl Killer {
    /// Each kill first moves `kills.started` on, and moves `kills.settled` on once the
    /// server no longer answers, so a kill is a window, not an instant: a call that
    /// starts inside it (the server still serving while `kill-server` is on its way)
    /// overlaps the kill as much as one that the kill interrupts. Kills alternate
    /// `kill-server` and SIGKILL.
    fn start(server: Arc<SoakServer>, kills: Arc<KillCounts>, every: Duration) -> Self {
        let stop = Arc::new(AtomicBool::new(false));
        let thread = {
            let stop = Arc::clone(&stop);
            std::thread::spawn(move || {
                let (mut polite, mut hard) = (0_usize, 0_usize);
                let mut next = Instant::now() + every;
                while !stop.load(Ordering::Relaxed) {
                    if Instant::now() < next {
                        std::thread::sleep(Duration::from_millis(50));
                        continue;
                    }
                    next += every;
                    let sigkill = !(polite + hard).is_multiple_of(2);
                    kills.started.fetch_add(1, Ordering::SeqCst);
                    if server.kill(sigkill) {
                        if sigkill {
                            hard += 1;
                        } else {
                            polite += 1;
                        }
                    }
                    server.wait_gone();
                    kills.settled.fetch_add(1, Ordering::SeqCst);
                }
                (polite, hard)
            })
        };
        Self {
            stop,
            thread: Some(thread),
        }
    }

    /// Stops; the kills made (`kill-server`, SIGKILL).
    fn stop(mut self) -> (usize, usize) {
        self.stop.store(true, Ordering::Relaxed);
        self.thread
            .take()
            .and_then(|thread| thread.join().ok())
            .unwrap_or((0, 0))
    }
}

/// Kills paneward when a call hangs for [`STUCK_AFTER`], so that the soak ends.
struct Watchdog {
    started: Instant,
    /// Milliseconds since `started` of the last finished call.
    progress: Arc<AtomicU64>,
    fired: Arc<AtomicBool>,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl Watchdog {
    fn start(paneward_pid: u32) -> Self {
        let started = Instant::now();
        let progress = Arc::new(AtomicU64::new(0));
        let fired = Arc::new(AtomicBool::new(false));
        let stop = Arc::new(AtomicBool::new(false));
        let thread = {
            let (progress, fired, stop) = (Arc::clone(&progress), Arc::clone(&fired), Arc::clone(&stop));
            std::thread::spawn(move || {
                while !stop.load(Ordering::Relaxed) {
                    std::thread::sleep(Duration::from_millis(500));
                    let last = Duration::from_millis(progress.load(Ordering::Relaxed));
                    if started.elapsed().saturating_sub(last) > STUCK_AFTER {
                        fired.store(true, Ordering::Relaxed);
                        let _ = Command::new("kill").args(["-KILL", &paneward_pid.to_string()]).status();
                        return;
                    }
                }
            })
        };
        Self {
            started,
            progress,
            fired,
            stop,
            thread: Some(thread),
        }
    }

    fn tick(&self) {
        let millis = u64::try_from(self.started.elapsed().as_millis()).unwrap_or(u64::MAX);
        self.progress.store(millis, Ordering::Relaxed);
    }

    fn stop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// Calls per tool and failures per kind.
#[derive(Default)]
struct Calls {
    /// Tool → (answered, failed).
    by_tool: BTreeMap<&'static str, (usize, usize)>,
    /// `tool: message with numbers as #` → count.
    failures: BTreeMap<String, usize>,
}

impl Calls {
    fn count(&mut self, tool: &'static str, result: &Result<(Duration, Value), String>) {
        let row = self.by_tool.entry(tool).or_default();
        row.0 += 1;
        if let Err(error) = result {
            row.1 += 1;
            *self.failures.entry(kind_of(error)).or_default() += 1;
        }
    }

    fn total(&self) -> (usize, usize) {
        self.by_tool
            .values()
            .fold((0, 0), |(n, f), (calls, failed)| (n + calls, f + failed))
    }
}

/// A failure's kind: its message's first line, numbers and ids as `#`, cut short.
fn kind_of(error: &str) -> String {
    let mut kind = String::new();
    let mut in_number = false;
    for c in error.lines().next().unwrap_or_default().chars().take(110) {
        if c.is_ascii_digit() || (in_number && c.is_ascii_hexdigit()) {
            if !in_number {
                kind.push('#');
            }
            in_number = true;
        } else {
            in_number = false;
            kind.push(c);
        }
    }
    kind
}

struct Soak {
    server: Arc<SoakServer>,
    paneward: Server,
    ledger: Ledger,
    calls: Calls,
    rng: Rng,
    kills: Arc<KillCounts>,
    log: String,
    dir: String,
    sessions_made: usize,
    /// Restarts by paneward's create_session, by the soak's own tmux, failed.
    restarts: (usize, usize, usize),
}

impl Soak {
    fn session_name(&mut self) -> String {
        self.sessions_made += 1;
        format!("soak-{}", self.sessions_made)
    }

    /// One call through paneward; a transport error (paneward gone) is fatal.
    fn call(&mut self, tool: &'static str, arguments: &Value) -> Result<Result<(Duration, Value), String>, String> {
        let result = self.paneward.call_reply(tool, arguments);
        self.calls.count(tool, &result);
        match &result {
            Err(error) if !error.starts_with(&format!("{tool}: ")) => Err(format!("paneward stopped serving: {error}")),
            _ => Ok(result),
        }
    }

    /// Starts the server again once the old one is gone: every other time through
    /// paneward's create_session, else (or when that fails) with tmux itself.
    fn restart(&mut self) -> Result<(), String> {
        if !self.server.panes().is_empty() {
            return Ok(());
        }
        if !self.server.wait_gone() {
            return Err("a killed tmux server still answers after 10 s".into());
        }
        let name = self.session_name();
        if (self.restarts.0 + self.restarts.1).is_multiple_of(2) {
            let arguments = json!({"name": name, "command": ["/bin/sh"], "start_directory": self.dir,
                                   "width": 160, "height": 48});
            if self.call("create_session", &arguments)?.is_ok() {
                self.restarts.0 += 1;
                return Ok(());
            }
        }
        match self.server.start(&name) {
            Ok(()) => self.restarts.1 += 1,
            Err(_) => self.restarts.2 += 1,
        }
        Ok(())
    }

    /// One call of the mix; for input, waits for its token.
    fn step(&mut self, panes: &[Pane], targets: &[Pane]) -> Result<(), String> {
        let (number, token) = self.ledger.next_token();
        let line = append_line(&token, &self.log);
        let name = format!("soak-{}", self.sessions_made + 1);
        let call = next_call(&mut self.rng, panes, targets, &line, &self.dir, &name);
        if call.tool == "create_session" {
            self.sessions_made += 1;
        }
        // A kill begun but not ended by now overlaps this call, as does one begun later.
        let settled_before = self.kills.settled();
        let started_before = self.kills.started();
        let result = self.call(call.tool, &call.arguments)?;
        if !call.input {
            return Ok(());
        }
        let delivered = result.is_ok();
        if delivered {
            let waiting = Instant::now();
            self.ledger.read_new()?;
            while self.ledger.arrivals(number) == 0
                && self.kills.started() == started_before
                && waiting.elapsed() < ARRIVAL_WAIT
            {
                std::thread::sleep(Duration::from_millis(2));
                self.ledger.read_new()?;
            }
        }
        let cut = self.kills.started() != settled_before;
        let error = result.err();
        self.ledger.record(number, call.tool, delivered, cut, error);
        Ok(())
    }
}

/// The verdict and the Markdown report.
pub struct Outcome {
    pub passed: bool,
    pub report: String,
}

/// Runs the soak.
///
/// # Errors
/// The soak could not start (tmux or paneward missing).
pub fn run(options: &SoakOptions) -> Result<Outcome, String> {
    if !options.paneward.exists() {
        return Err(format!(
            "{} does not exist: build it with `cargo build --release -p paneward`",
            options.paneward.display()
        ));
    }
    let pid = std::process::id();
    let socket = format!("pwsoak-{pid}");
    let dir = std::env::temp_dir().join(format!("paneward-soak-{pid}"));
    let server = Arc::new(SoakServer::new(socket.clone(), &dir)?);
    server.start("soak-0")?;
    let socket_path = server.socket_and_pid().map(|(path, _)| path);
    let launch = Launch {
        program: options.paneward.to_string_lossy().into_owned(),
        args: vec![
            "--socket-name".into(),
            socket.clone(),
            "--safety".into(),
            "destructive".into(),
        ],
        env: vec![("PANEWARD_LOG".into(), "warn".into())],
        http_token: None,
    };
    let paneward = Server::start(&launch)?.server;
    let paneward_pid = paneward.pid();
    let mut rss = RssSampler::start(paneward_pid);
    let mut watchdog = Watchdog::start(paneward_pid);
    let kills = Arc::new(KillCounts::default());
    let killer = Killer::start(Arc::clone(&server), Arc::clone(&kills), options.kill_every);
    let log = dir.join("tokens.log");
    let mut soak = Soak {
        server: Arc::clone(&server),
        paneward,
        ledger: Ledger::new(&format!("S{pid}"), log.clone()),
        calls: Calls::default(),
        rng: Rng::new(options.seed),
        kills: Arc::clone(&kills),
        log: log.to_string_lossy().into_owned(),
        dir: dir.to_string_lossy().into_owned(),
        sessions_made: 0,
        restarts: (0, 0, 0),
    };
    eprintln!(
        "soak: {} min, seed {}, tmux -L {socket}, folder {}, paneward pid {paneward_pid}",
        options.minutes,
        options.seed,
        dir.display()
    );

    let started = Instant::now();
    let deadline = started + Duration::from_secs_f64(options.minutes * 60.0);
    let mut next_progress = started + Duration::from_secs(60);
    let (mut served, mut killed_at) = (0, None::<Instant>);
    let mut targets: Vec<Pane> = Vec::new();
    let mut fatal = None;
    while Instant::now() < deadline {
        let now_generation = kills.started();
        let panes = soak.server.panes();
        let step = if now_generation != served {
            // Killed: calls meet the dead server for a while, then it starts again.
            let since = *killed_at.get_or_insert_with(Instant::now);
            if since.elapsed() >= DEAD_PERIOD {
                killed_at = None;
                served = now_generation;
                soak.restart()
            } else {
                soak.step(&panes, &targets)
            }
        } else if panes.is_empty() {
            // The mix closed the last pane, so the server exited.
            soak.restart()
        } else {
            targets.clone_from(&panes);
            soak.step(&panes, &targets)
        };
        watchdog.tick();
        if let Err(error) = step {
            fatal = Some(error);
            break;
        }
        if Instant::now() >= next_progress {
            next_progress += Duration::from_secs(60);
            let tally = soak.ledger.tally();
            let (calls, failed) = soak.calls.total();
            eprintln!(
                "soak: {:.0} min, {calls} calls ({failed} failed), tokens {} (lost {}, doubled {}), RSS {} KiB",
                started.elapsed().as_secs_f64() / 60.0,
                tally.sent,
                tally.lost,
                tally.doubled,
                rss.latest().unwrap_or(0)
            );
        }
    }
    let (polite, hard) = killer.stop();
    watchdog.stop();
    if watchdog.fired.load(Ordering::Relaxed) {
        fatal.get_or_insert_with(|| {
            format!(
                "a call hung for {} s: the watchdog killed paneward",
                STUCK_AFTER.as_secs()
            )
        });
    }
    std::thread::sleep(FINAL_SETTLE);
    let peak_kib = rss::status_kib(paneward_pid, "VmHWM:");
    rss.stop();
    server.kill(false);
    server.wait_gone();
    soak.ledger.read_new()?;
    let tally = soak.ledger.tally();
    let rss_sorted = rss.sorted();
    let figures = Figures {
        minutes: started.elapsed().as_secs_f64() / 60.0,
        seed: options.seed,
        kill_every: options.kill_every,
        tally,
        kills: (polite, hard),
        restarts: soak.restarts,
        rss_sorted,
        peak_kib,
        fatal,
    };
    let passed = figures.passed();
    let report = figures.report(&soak.calls);
    drop(soak);
    if let Some(path) = socket_path {
        let _ = std::fs::remove_file(path);
    }
    if passed {
        let _ = std::fs::remove_dir_all(&dir);
    } else {
        eprintln!("soak: failed; its token log and folder stay in {}", dir.display());
    }
    Ok(Outcome { passed, report })
}

struct Figures {
    minutes: f64,
    seed: u64,
    kill_every: Duration,
    tally: Tally,
    kills: (usize, usize),
    restarts: (usize, usize, usize),
    rss_sorted: Vec<u64>,
    peak_kib: Option<u64>,
    fatal: Option<String>,
}

impl Figures {
    fn rss_over_limit(&self) -> bool {
        let highest = self.rss_sorted.last().copied().max(self.peak_kib).unwrap_or(0);
        highest * 1024 > RSS_LIMIT_BYTES
    }

    fn passed(&self) -> bool {
        let t = &self.tally;
        self.fatal.is_none()
            && t.lost == 0
            && t.doubled == 0
            && t.ran_though_failed == 0
            && t.strangers == 0
            && !self.rss_over_limit()
            && !self.rss_sorted.is_empty()
    }

    fn report(&self, calls: &Calls) -> String {
        let t = &self.tally;
        let (total, failed) = calls.total();
        let rss = |q: f64| {
            let samples = &self.rss_sorted;
            let rank = ((q * samples.len() as f64).ceil() as usize).clamp(1, samples.len().max(1));
            samples
                .get(rank - 1)
                .map_or("n/a".to_string(), |kib| format!("{:.1} MiB", *kib as f64 / 1024.0))
        };
        let mut out = format!(
            "### Soak: {:.1} min, tmux server killed every {} s (seed {})\n\n\
             | figure | value |\n|---|---:|\n\
             | calls answered (failed) | {total} ({failed}) |\n\
             | input calls, one token each: delivered / failed | {} / {} |\n\
             | **lost** (delivered, never ran) | **{}** |\n\
             | **doubled** (ran twice) | **{}** |\n\
             | **ran though reported failed** | **{}** |\n\
             | log lines of no token sent | {} |\n\
             | spanning a kill: delivered and ran / delivered, shell died first / failed and ran / failed, never ran | {} / {} / {} / {} |\n\
             | server kills: kill-server / SIGKILL | {} / {} |\n\
             | server restarts: paneward create_session / tmux / failed | {} / {} / {} |\n\
             | paneward RSS, {} samples: min / median / max | {} / {} / {} |\n\
             | paneward peak RSS (VmHWM) | {} |\n\n",
            self.minutes,
            self.kill_every.as_secs(),
            self.seed,
            t.delivered,
            t.failed,
            t.lost,
            t.doubled,
            t.ran_though_failed,
            t.strangers,
            t.cut_delivered_arrived,
            t.cut_delivered_not_run,
            t.cut_failed_arrived,
            t.cut_failed_not_arrived,
            self.kills.0,
            self.kills.1,
            self.restarts.0,
            self.restarts.1,
            self.restarts.2,
            self.rss_sorted.len(),
            rss(0.0),
            rss(0.5),
            rss(1.0),
            self.peak_kib.map_or("n/a".to_string(), |kib| format!("{:.1} MiB", kib as f64 / 1024.0)),
        );
        out.push_str("| tool | calls | failed |\n|---|---:|---:|\n");
        for (tool, (n, f)) in &calls.by_tool {
            out.push_str(&format!("| {tool} | {n} | {f} |\n"));
        }
        out.push_str("\n| failure | count |\n|---|---:|\n");
        let mut failures: Vec<_> = calls.failures.iter().collect();
        failures.sort_by(|a, b| b.1.cmp(a.1));
        for (kind, count) in failures {
            out.push_str(&format!("| {} | {count} |\n", kind.replace('|', "\\|")));
        }
        if !t.suspects.is_empty() {
            out.push_str("\n| token counted against paneward | tool | reported |\n|---|---|---|\n");
            for suspect in &t.suspects {
                out.push_str(&format!(
                    "| {} {} | {} | {} |\n",
                    suspect.number,
                    suspect.verdict,
                    suspect.tool,
                    suspect.reported.replace('|', "\\|")
                ));
            }
        }
        let verdict = match (&self.fatal, self.passed()) {
            (Some(error), _) => format!("FAILED: {error}"),
            (None, true) => "passed: nothing lost, doubled or run after a failure; RSS under 20 MB".to_string(),
            (None, false) if self.rss_over_limit() => "FAILED: RSS above 20 MB".to_string(),
            (None, false) => "FAILED: see lost / doubled / ran though failed".to_string(),
        };
        out.push_str(&format!("\n{verdict}\n"));
        out
    }
}
