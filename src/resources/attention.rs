//! `tmux://attention`: the panes that need the person now, for every subscriber of the
//! server alike (over HTTP, a dashboard's one stream).
//!
//! One look is one `list-panes -a` (ids, pids, terminals, dead status and time, the
//! window's bell flag) and the kernel's answer per live pane (`tmux::input_wait`: a
//! few `/proc` files, no capture). What needs someone:
//! - `input`: a program waits for input other than a shell's prompt (a password, a
//!   question);
//! - `idleAfterWork`: a shell back at its prompt after a program ran in its
//!   foreground that paneward saw (the looks of subscriptions and reads are what it
//!   sees: "after work" is work seen, never guessed from the screen);
//! - `bell`: tmux's bell flag, which it keeps per window (on the window's active pane
//!   here) until someone selects the window;
//! - `dead`: a pane kept after its program ended (`remain-on-exit`).
//!
//! A known agent's pane (`tools::agents`, with a busy marker or an input box) is
//! also read from its screen, one capture for all of them: its busy marker is work
//! (never input, whatever the kernel says between two tool calls), and its input box
//! drawn empty with no marker is `input` where the kernel cannot tell (an event loop).
//!
//! "Since" is when paneward first saw it (tmux's own time for a dead pane); what
//! paneward remembers between looks (which panes worked, since when) is one table for
//! the process, so every subscriber and every read sees the same list with the same
//! times.
//!
//! With several targets (`--target`) the list covers every target, looked at together:
//! ids are written `NAME/%3` as the tools write them, and a target that cannot answer
//! is listed in `unreachable` while the others' entries stand.

use std::collections::HashMap;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::sync::{Mutex, PoisonError};
use std::time::{SystemTime, UNIX_EPOCH};

use serde_json::{json, Value};

use crate::guard::terminal::{cannot_ask_kernel, input_waits, listed_process};
use crate::guard::ReadGate;
use crate::limits::ATTENTION_MAX_ENTRIES;
use crate::runtime::error::ToolError;
use crate::runtime::CallContext;
use crate::tmux::format::{parse_records, record_format};
use crate::tmux::input_wait::{InputWait, ReadsAs};
use crate::tmux::{ReadCommand, ReadVerb};
use crate::tools::agents::{agent_for, Agent};

const FIELDS: [&str; 11] = [
    "pane_id",
    "window_id",
    "window_index",
    "pane_active",
    "window_bell_flag",
    "pane_pid",
    "pane_tty",
    "pane_dead",
    "pane_dead_status",
    "pane_dead_time",
    "pane_current_command",
];

/// Why a pane needs someone.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Why {
    Input(ReadsAs),
    IdleAfterWork,
    Bell,
    Dead,
}

impl Why {
    fn name(self) -> &'static str {
        match self {
            Self::Input(_) => "input",
            Self::IdleAfterWork => "idleAfterWork",
            Self::Bell => "bell",
            Self::Dead => "dead",
        }
    }
}

/// One pane needing someone.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct Entry {
    pane: String,
    window: String,
    why: Why,
    what: String,
    since: u64,
    program: String,
}

/// What paneward remembers of one pane between looks.
#[derive(Debug, Default)]
struct Memory {
    /// A program ran in the foreground since the shell last waited at its prompt.
    worked: Option<String>,
    /// When each reason was first seen, while it holds.
    since: HashMap<Why, u64>,
}

/// The process's memory, by pane id; panes gone are dropped at each look.
static MEMORY: Mutex<Option<HashMap<String, Memory>>> = Mutex::new(None);

fn now_s() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |since| since.as_secs())
}

/// One pane as the listing and the kernel show it.
struct Seen<'a> {
    window: &'a str,
    window_index: &'a str,
    active: bool,
    bell: bool,
    dead: Option<(&'a str, u64)>,
    program: &'a str,
    /// The pane's first process: its shell, whose own brief wake-ups are no work.
    pane_pid: u32,
    wait: &'a InputWait,
    /// A known agent and its screen's rows.
    agent: Option<(&'static Agent, &'a [String])>,
}

/// The reasons `seen` holds now, updating `memory` (what worked).
fn reasons(seen: &Seen<'_>, memory: &mut Memory) -> Vec<(Why, String)> {
    let mut found = Vec::new();
    if let Some((status, _)) = seen.dead {
        // tmux's own line for a kept pane: "Pane is dead (status N, time)".
        found.push((Why::Dead, format!("Pane is dead (status {status})")));
        return found;
    }
    if seen.bell && seen.active {
        found.push((Why::Bell, format!("Bell in window {}", seen.window_index)));
    }
    if let Some((agent, rows)) = seen.agent {
        if agent.busy(rows) {
            memory.worked = Some(agent.name.clone());
            return found;
        }
        let contradicted = matches!(seen.wait, InputWait::NotWaiting { .. });
        if agent.ready(rows) && !contradicted {
            let what = match &memory.worked {
                Some(_) => format!("{} is done and waits at its empty input box", agent.name),
                None => format!("{} waits at its empty input box", agent.name),
            };
            let why = if memory.worked.is_some() {
                Why::IdleAfterWork
            } else {
                Why::Input(ReadsAs::ProgramInput)
            };
            found.push((why, what));
            return found;
        }
    }
    match seen.wait {
        InputWait::Waiting {
            reads_as: ReadsAs::ShellPrompt,
            ..
        } => {
            if let Some(program) = &memory.worked {
                found.push((Why::IdleAfterWork, format!("back at its prompt after {program} ran")));
            }
        }
        InputWait::Waiting {
            reads_as, command, pid, ..
        } => {
            if *pid != seen.pane_pid {
                memory.worked = Some(command.clone());
            }
            let how = match reads_as {
                ReadsAs::Password => "input with echo off, such as a password",
                _ => "input",
            };
            found.push((Why::Input(*reads_as), format!("{command} waits for {how}")));
        }
        InputWait::NotWaiting { command, pid, .. } if *pid != seen.pane_pid => {
            memory.worked = Some(command.clone());
        }
        InputWait::NotWaiting { .. } => {}
        InputWait::Unknown(_) => {}
    }
    found
}

/// Looks at every pane and returns the attention list as the resource reads, and its
/// fingerprint (which changes exactly when the list does).
///
/// # Errors
/// tmux cannot answer the listing.
pub async fn look(servers: &super::Servers) -> Result<(Value, u64), ToolError> {
    let context = CallContext::default();
    if servers.named.is_empty() {
        let (entries, kernel) = look_on(&ReadGate::new(&servers.first, &context), "").await?;
        return Ok(listed(entries, kernel, Vec::new()));
    }
    let looks = servers
        .named
        .iter()
        .map(|(name, guard)| {
            let context = &context;
            async move { look_on(&ReadGate::new(guard, context), &format!("{name}/")).await }
        })
        .collect();
    let mut entries = Vec::new();
    let mut kernel = true;
    let mut unreachable = Vec::new();
    for ((name, _), look) in servers.named.iter().zip(crate::runtime::join::all(looks).await) {
        match look {
            Ok((found, read_kernel)) => {
                entries.extend(found);
                kernel &= read_kernel;
            }
            Err(error) => unreachable.push(json!({"target": name, "reason": error.message()})),
        }
    }
    Ok(listed(entries, kernel, unreachable))
}

/// The list as the resource reads it, and its fingerprint (which changes exactly when
/// the list does).
fn listed(mut entries: Vec<Entry>, kernel: bool, unreachable: Vec<Value>) -> (Value, u64) {
    let mut hasher = DefaultHasher::new();
    entries.hash(&mut hasher);
    unreachable
        .iter()
        .for_each(|target| target.to_string().hash(&mut hasher));
    let total = entries.len();
    let truncated = total > ATTENTION_MAX_ENTRIES;
    entries.truncate(ATTENTION_MAX_ENTRIES);
    let panes: Vec<Value> = entries.iter().map(entry_json).collect();
    let mut value = json!({
        "panes": panes,
        "total": total,
        "truncated": truncated,
        "kernel": kernel,
    });
    if !unreachable.is_empty() {
        value["unreachable"] = Value::Array(unreachable);
    }
    (value, hasher.finish().max(1))
}

/// The entries of one server, ids written after `prefix` (`NAME/` in a fleet), and
/// whether its kernel was asked.
async fn look_on(gate: &ReadGate<'_>, prefix: &str) -> Result<(Vec<Entry>, bool), ToolError> {
    let listing = ReadCommand::new(ReadVerb::ListPanes)
        .arg("-a")
        .arg("-F")
        .arg(record_format(&FIELDS));
    let output = gate.run(listing).await?;
    let text = String::from_utf8_lossy(&output);
    let records = parse_records("list-panes", &FIELDS, &text)?;
    let processes = records.iter().map(listed_process).collect::<Result<Vec<_>, _>>()?;
    let waits = input_waits(gate, &processes);
    let screens = agent_screens(gate, &records).await;
    let now = now_s();
    let mut entries = Vec::new();
    let mut memory = MEMORY.lock().unwrap_or_else(PoisonError::into_inner);
    let memory = memory.get_or_insert_with(HashMap::new);
    let mut listed = Vec::with_capacity(records.len());
    for (record, wait) in records.iter().zip(&waits) {
        let pane = record.text("pane_id")?;
        let written = format!("{prefix}{pane}");
        let dead = if record.flag("pane_dead")? {
            let time = record.text("pane_dead_time")?.parse().unwrap_or(now);
            Some((record.text("pane_dead_status")?, time))
        } else {
            None
        };
        let seen = Seen {
            window: record.text("window_id")?,
            window_index: record.text("window_index")?,
            active: record.flag("pane_active")?,
            bell: record.flag("window_bell_flag")?,
            dead,
            program: record.text("pane_current_command")?,
            pane_pid: u32::try_from(record.count("pane_pid")?).unwrap_or(0),
            wait,
            agent: screens
                .get(pane)
                .and_then(|rows| Some((agent_for(record.text("pane_current_command").ok()?)?, rows.as_slice()))),
        };
        let remembered = memory.entry(written.clone()).or_default();
        let found = reasons(&seen, remembered);
        remembered
            .since
            .retain(|why, _| found.iter().any(|(held, _)| held == why));
        for (why, what) in found {
            let first_seen = *remembered.since.entry(why).or_insert(now);
            let since = match (why, seen.dead) {
                (Why::Dead, Some((_, time))) => time,
                _ => first_seen,
            };
            entries.push(Entry {
                pane: written.clone(),
                window: format!("{prefix}{}", seen.window),
                why,
                what,
                since,
                program: seen.program.to_string(),
            });
        }
        listed.push(written);
    }
    // Only this server's panes are forgotten here: the others' are kept by their own look.
    memory.retain(|pane, _| !pane.starts_with(prefix) || listed.contains(pane));
    Ok((entries, cannot_ask_kernel(gate).is_none()))
}

/// The screens of the live panes whose program is a known agent with a marker or a
/// box, in one round trip; none where it fails (a pane gone meanwhile).
async fn agent_screens(
    gate: &ReadGate<'_>,
    records: &[crate::tmux::format::Record<'_>],
) -> HashMap<String, Vec<String>> {
    let panes: Vec<&str> = records
        .iter()
        .filter(|r| !r.flag("pane_dead").unwrap_or(true))
        .filter(|r| {
            r.text("pane_current_command")
                .ok()
                .and_then(agent_for)
                .is_some_and(|agent| !agent.busy.is_empty() || agent.prompt_mark.is_some())
        })
        .filter_map(|r| r.text("pane_id").ok())
        .collect();
    if panes.is_empty() {
        return HashMap::new();
    }
    let captures: Vec<ReadCommand> = panes
        .iter()
        .map(|pane| ReadCommand::new(ReadVerb::CapturePane).arg("-p").arg("-t").arg(*pane))
        .collect();
    match gate.run_all(&captures).await {
        Ok(outputs) if outputs.len() == panes.len() => panes
            .iter()
            .zip(outputs)
            .map(|(pane, text)| {
                let rows = String::from_utf8_lossy(&text).lines().map(str::to_string).collect();
                ((*pane).to_string(), rows)
            })
            .collect(),
        Ok(_) | Err(_) => HashMap::new(),
    }
}

fn entry_json(entry: &Entry) -> Value {
    let mut value = json!({
        "paneId": entry.pane,
        "windowId": entry.window,
        "why": entry.why.name(),
        "what": entry.what,
        "since": entry.since,
        "program": entry.program,
    });
    if let Why::Input(reads_as) = entry.why {
        value["readsAs"] = json!(match reads_as {
            ReadsAs::ShellPrompt => "shellPrompt",
            ReadsAs::Password => "password",
            ReadsAs::ProgramInput => "programInput",
        });
    }
    value
}
