//! The measured calls, what each server names them, and the tmux commands paneward's
//! tool sends for each (the floor: the same commands, without paneward's framing).

use paneward::tmux::format::{FIELD_SEP, RECORD_END};
use paneward::tmux::script::command_line;
use paneward::tmux::{Command, PaneId};
use paneward::tools::observe::capture::TEXT_FIELDS;
use paneward::tools::observe::objects::{fields, PANE_FIELDS, PANE_ROW_FIELDS, SESSION_FIELDS, WINDOW_FIELDS};
use paneward::tools::observe::pane_state::{capture, capture_newest, SNAPSHOT_FIELDS};
use paneward::tools::observe::tree::PANE_DETAIL;
use serde_json::{json, Value};

use crate::fixture::Fixture;

/// Lines a history capture asks for.
pub const HISTORY_CAPTURE: usize = 2_000;
/// Operations in the batch call.
pub const BATCH_OPERATIONS: usize = 16;
/// Lines a capture of the long history asks for (the most a capture returns).
pub const LONG_CAPTURE: usize = 5_000;

/// One measured call.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Case {
    ListSessions,
    ListWindows,
    ListPanes,
    /// `list_pane_activity`: the same one listing, and the kernel's answer per pane
    /// (a few `/proc` files each) on whether it waits for input (paneward only).
    ListPaneActivity,
    SnapshotPane,
    CaptureHistory,
    Batch,
    LongHistory,
    LongBatch,
    /// `run_command "true"` in a pane running a shell: typing, the shell's run of the
    /// wrapper and its status report, and the wait that notices it.
    RunTrue,
    /// `create_window` in the fixture session, then `kill_window` of the window it
    /// made (its id read from the reply): one sample is both calls.
    CreateKill,
    /// `send_keys` of `true` and Enter into the shell pane (paneward only: the peers
    /// name and shape the tool differently, and have no confirmation to compare).
    SendKeys,
    /// The same with `confirm_submit`: the difference is the confirmation's cost.
    SendKeysConfirm,
    /// `search_panes` for a word every pane shows.
    SearchPanes,
    /// The batch's 16 operations as 16 calls, one after another: one sample is all 16.
    Sequence,
    /// The whole job an agent does ([`crate::job`]): one sample is the whole job.
    AgentJob,
}

impl Case {
    pub const ALL: [Self; 16] = [
        Self::ListSessions,
        Self::ListWindows,
        Self::ListPanes,
        Self::ListPaneActivity,
        Self::SnapshotPane,
        Self::CaptureHistory,
        Self::Batch,
        Self::LongHistory,
        Self::LongBatch,
        Self::RunTrue,
        Self::CreateKill,
        Self::SendKeys,
        Self::SendKeysConfirm,
        Self::SearchPanes,
        Self::Sequence,
        Self::AgentJob,
    ];

    /// The case's name as `--cases` takes it: the tool's, or `long_*` for the calls on
    /// the pane with the long history.
    pub fn tool(self) -> &'static str {
        match self {
            Self::ListSessions => "list_sessions",
            Self::ListWindows => "list_windows",
            Self::ListPanes => "list_panes",
            Self::ListPaneActivity => "list_pane_activity",
            Self::SnapshotPane => "snapshot_pane",
            Self::CaptureHistory => "capture_pane",
            Self::Batch => "call_read_tools_batch",
            Self::LongHistory => "long_history",
            Self::LongBatch => "long_batch",
            Self::RunTrue => "run_command",
            Self::CreateKill => "create_window+kill_window",
            Self::SendKeys => "send_keys",
            Self::SendKeysConfirm => "send_keys+confirm",
            Self::SearchPanes => "search_panes",
            Self::Sequence => "sequence",
            Self::AgentJob => "agent_job",
        }
    }

    /// Whether the case reads the pane with [`crate::fixture::LONG_LINES`] of history.
    pub fn long_history(self) -> bool {
        matches!(self, Self::LongHistory | Self::LongBatch)
    }

    /// Whether the case types into the pane running a shell.
    pub fn shell(self) -> bool {
        matches!(self, Self::RunTrue | Self::SendKeys | Self::SendKeysConfirm)
    }

    /// Whether the case has a tmux-only equivalent to compare with.
    pub fn has_floor(self) -> bool {
        !matches!(
            self,
            Self::RunTrue | Self::CreateKill | Self::SendKeys | Self::SendKeysConfirm | Self::AgentJob
        )
    }

    /// Whether the case changes tmux: servers must be started offering such tools
    /// (paneward `--safety destructive`, the peers every toolset).
    pub fn changes(self) -> bool {
        matches!(
            self,
            Self::RunTrue | Self::CreateKill | Self::SendKeys | Self::SendKeysConfirm | Self::AgentJob
        )
    }

    pub fn label(self) -> &'static str {
        match self {
            Self::ListSessions => "list_sessions",
            Self::ListWindows => "list_windows",
            Self::ListPanes => "list_panes",
            Self::ListPaneActivity => "list_pane_activity (with the kernel's input state)",
            Self::SnapshotPane => "snapshot_pane",
            Self::CaptureHistory => "capture_pane (history, 2,000 lines)",
            Self::Batch => "call_read_tools_batch (16 operations)",
            Self::LongHistory => "capture_pane (history, 5,000 of 191,079 lines)",
            Self::LongBatch => "call_read_tools_batch (16 such captures)",
            Self::RunTrue => "run_command \"true\" (round trip)",
            Self::CreateKill => "create_window + kill_window of it",
            Self::SendKeys => "send_keys \"true\" + Enter",
            Self::SendKeysConfirm => "send_keys \"true\" + Enter, confirm_submit",
            Self::SearchPanes => "search_panes (every pane)",
            Self::Sequence => "16 calls in sequence (the batch's operations)",
            Self::AgentJob => "the agent's job (window, 300-line command, output, kill)",
        }
    }

    /// The cheapest tmux commands that return the call's facts, as control-mode lines
    /// sent one after another, each with the number of blocks tmux answers with. Lists
    /// print their fields plainly (no framing safeguards); a history capture reads the
    /// newest rows it asks for and the history size, which counts the rows it leaves out.
    pub fn floor(self, fixture: &Fixture) -> Vec<(String, usize)> {
        let pane = |text: &str| text.parse::<PaneId>().ok();
        let Some(target) = pane(fixture.target()) else {
            return Vec::new();
        };
        let line = |commands: Vec<Command>| (command_line(&commands), commands.len());
        let list = |verb: &'static str, names: &[&str]| {
            let mut command = Command::new(verb);
            if verb != "list-sessions" {
                command = command.arg("-a");
            }
            vec![command.arg("-F").arg(plain_format(names))]
        };
        let commands = match self {
            Self::ListSessions => list("list-sessions", &SESSION_FIELDS),
            Self::ListWindows => list("list-windows", &WINDOW_FIELDS),
            Self::ListPanes => list("list-panes", &PANE_ROW_FIELDS),
            // The listing alone: the difference is the /proc reads.
            Self::ListPaneActivity => list("list-panes", &ACTIVITY_FIELDS),
            Self::SnapshotPane => vec![capture(target, false).into(), describe(target, &SNAPSHOT_FIELDS)],
            Self::CaptureHistory => newest(target, HISTORY_CAPTURE),
            Self::LongHistory => fixture
                .long
                .as_deref()
                .and_then(pane)
                .map_or_else(Vec::new, |long| newest(long, LONG_CAPTURE)),
            Self::LongBatch => fixture.long.as_deref().and_then(pane).map_or_else(Vec::new, |long| {
                (0..BATCH_OPERATIONS).flat_map(|_| newest(long, LONG_CAPTURE)).collect()
            }),
            // A command's round trip has no tmux-only equivalent to compare with.
            Self::RunTrue | Self::CreateKill | Self::SendKeys | Self::SendKeysConfirm | Self::AgentJob => Vec::new(),
            Self::Batch => batch_commands(fixture),
            // One round trip per call.
            Self::Sequence => return batch_commands(fixture).into_iter().map(|c| line(vec![c])).collect(),
            // List the panes, then read every screen, with nothing between the captures.
            Self::SearchPanes => {
                let captures = fixture
                    .panes
                    .iter()
                    .filter_map(|text| pane(text))
                    .map(|pane| capture(pane, false).into())
                    .collect();
                return vec![line(list("list-panes", &SEARCH_FIELDS)), line(captures)];
            }
        };
        if commands.is_empty() {
            return Vec::new();
        }
        vec![line(commands)]
    }
}

/// What `list_pane_activity` lists (`tools::observe::activity`).
const ACTIVITY_FIELDS: [&str; 8] = [
    "pane_id",
    "pane_pid",
    "pane_tty",
    "pane_current_command",
    "pane_dead",
    "pane_in_mode",
    "alternate_on",
    "window_activity",
];

/// What search_panes needs of each pane to place its matches.
const SEARCH_FIELDS: [&str; 7] = [
    "pane_id",
    "pane_index",
    "window_id",
    "window_index",
    "window_name",
    "session_id",
    "session_name",
];

/// `names` as one record with plain fields: what tmux prints cheapest.
fn plain_format(names: &[&str]) -> String {
    let fields: Vec<String> = names.iter().map(|name| format!("#{{{name}}}")).collect();
    format!("{}{RECORD_END}", fields.join(&FIELD_SEP.to_string()))
}

/// The batch's operations as the commands paneward sends: a capture and a
/// `get_pane_info` describe in turn.
fn batch_commands(fixture: &Fixture) -> Vec<Command> {
    batch_panes(fixture)
        .iter()
        .filter_map(|text| text.parse::<PaneId>().ok())
        .enumerate()
        .map(|(index, pane)| {
            if index % 2 == 0 {
                capture(pane, false).into()
            } else {
                pane_info(pane)
            }
        })
        .collect()
}

/// What a history capture of `lines` rows sends (when blank rows do not hide its text).
fn newest(pane: PaneId, lines: usize) -> Vec<Command> {
    vec![capture_newest(pane, lines as u64).into(), describe(pane, &TEXT_FIELDS)]
}

/// `display-message` of `names` for `pane`, plainly.
fn describe(pane: PaneId, names: &[&str]) -> Command {
    Command::new("display-message")
        .arg("-p")
        .arg("-t")
        .arg(pane.to_string())
        .arg(plain_format(names))
}

/// What `get_pane_info` sends.
fn pane_info(pane: PaneId) -> Command {
    describe(pane, &fields(&[&PANE_FIELDS, &PANE_DETAIL]))
}

/// The batch's operation `index`: a capture and a `get_pane_info` in turn.
fn batch_tool(index: usize) -> &'static str {
    if index.is_multiple_of(2) {
        "capture_pane"
    } else {
        "get_pane_info"
    }
}

/// The panes the batch reads: every pane in turn, 16 operations in all.
fn batch_panes(fixture: &Fixture) -> Vec<String> {
    (0..BATCH_OPERATIONS)
        .map(|index| fixture.panes[(index / 2) % fixture.panes.len()].clone())
        .collect()
}

/// The servers measured.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flavour {
    Paneward,
    TmuxMcp,
    LibtmuxMcp,
    /// paneward over Streamable HTTP on loopback (`serve --http`).
    PanewardHttp,
    /// paneward over stdio, driving tmux through ssh (`--ssh`).
    PanewardSsh,
    /// paneward with control mode off (`--no-control-mode`): one native client per round
    /// trip, the fallback where no control client can be had.
    PanewardOneShot,
    /// paneward serving libtmux-mcp's contract (`--profile python`): called exactly as
    /// libtmux-mcp is.
    PanewardPython,
}

impl Flavour {
    pub fn name(self) -> &'static str {
        match self {
            Self::Paneward => "paneward",
            Self::TmuxMcp => "tmux-mcp 0.1.2",
            Self::LibtmuxMcp => "libtmux-mcp 0.1.0a22",
            Self::PanewardHttp => "paneward over HTTP",
            Self::PanewardSsh => "paneward over SSH",
            Self::PanewardOneShot => "paneward, one-shot clients",
            Self::PanewardPython => "paneward --profile python",
        }
    }

    /// The server whose contract this one is called by: `--profile python` is called
    /// as libtmux-mcp is, every other flavour as itself.
    pub fn contract(self) -> Self {
        match self {
            Self::PanewardPython => Self::LibtmuxMcp,
            other => other,
        }
    }

    /// The tool and arguments that do `case` on this server, read from its tools/list:
    /// tmux-mcp names a pane `pane`, the others `pane_id`; for a history capture
    /// paneward takes `history` + `max_lines`, the peers a negative `start` line.
    pub fn call(self, case: Case, fixture: &Fixture) -> (&'static str, Value) {
        let this = self.contract();
        let pane_key = if this == Self::TmuxMcp { "pane" } else { "pane_id" };
        let target = fixture.target();
        match case {
            Case::ListSessions => ("list_sessions", json!({})),
            Case::ListWindows => ("list_windows", json!({})),
            Case::ListPanes => ("list_panes", json!({})),
            // A name no peer advertises: their rows read "n/a".
            Case::ListPaneActivity => match this {
                Self::TmuxMcp | Self::LibtmuxMcp => ("list_pane_activity (paneward's)", json!({})),
                _ => ("list_pane_activity", json!({})),
            },
            Case::SnapshotPane => ("snapshot_pane", json!({pane_key: target})),
            Case::CaptureHistory => {
                let arguments = match this {
                    Self::Paneward
                    | Self::PanewardHttp
                    | Self::PanewardSsh
                    | Self::PanewardOneShot
                    | Self::PanewardPython => {
                        json!({"pane_id": target, "history": true, "max_lines": HISTORY_CAPTURE})
                    }
                    Self::TmuxMcp => json!({"pane": target, "start": -(HISTORY_CAPTURE as i64)}),
                    Self::LibtmuxMcp => {
                        json!({"pane_id": target, "start": -(HISTORY_CAPTURE as i64), "max_lines": HISTORY_CAPTURE})
                    }
                };
                ("capture_pane", arguments)
            }
            Case::Batch => {
                let operations: Vec<Value> = batch_panes(fixture)
                    .iter()
                    .enumerate()
                    .map(|(index, pane)| json!({"tool": batch_tool(index), "arguments": {pane_key: pane}}))
                    .collect();
                ("call_read_tools_batch", json!({"operations": operations}))
            }
            Case::LongHistory => ("capture_pane", self.long_capture(fixture)),
            Case::RunTrue => (
                if this == Self::TmuxMcp {
                    "run_shell_command"
                } else {
                    "run_command"
                },
                json!({pane_key: fixture.shell.clone().unwrap_or_default(), "command": "true"}),
            ),
            Case::SendKeys | Case::SendKeysConfirm => {
                let shell = fixture.shell.clone().unwrap_or_default();
                let mut arguments = json!({"pane_id": shell, "keys": "true", "literal": true});
                if case == Case::SendKeysConfirm {
                    arguments["confirm_submit"] = json!(true);
                }
                // A name no peer advertises: their rows read "n/a".
                let tool = match this {
                    Self::Paneward
                    | Self::PanewardHttp
                    | Self::PanewardSsh
                    | Self::PanewardOneShot
                    | Self::PanewardPython => "send_keys",
                    Self::TmuxMcp | Self::LibtmuxMcp => "send_keys (paneward's)",
                };
                (tool, arguments)
            }
            Case::CreateKill => {
                let session = fixture.session_id.clone();
                let arguments = match this {
                    Self::TmuxMcp => json!({"session": session}),
                    _ => json!({"session_id": session}),
                };
                ("create_window", arguments)
            }
            Case::SearchPanes => ("search_panes", json!({"pattern": "benchmark"})),
            // Named by the first call; [`Flavour::sequence`] gives all 16.
            Case::Sequence => {
                let calls = self.sequence(fixture);
                calls.into_iter().next().unwrap_or(("capture_pane", json!({})))
            }
            // Named by its first call; [`crate::job`] makes the calls.
            Case::AgentJob => ("create_window", json!({})),
            Case::LongBatch => {
                let operation = json!({"tool": "capture_pane", "arguments": self.long_capture(fixture)});
                (
                    "call_read_tools_batch",
                    json!({"operations": vec![operation; BATCH_OPERATIONS]}),
                )
            }
        }
    }

    /// The 16 calls of [`Case::Sequence`]: the batch's operations, one call each.
    pub fn sequence(self, fixture: &Fixture) -> Vec<(&'static str, Value)> {
        let pane_key = if self.contract() == Self::TmuxMcp {
            "pane"
        } else {
            "pane_id"
        };
        batch_panes(fixture)
            .iter()
            .enumerate()
            .map(|(index, pane)| (batch_tool(index), json!({pane_key: pane})))
            .collect()
    }

    /// The call that kills the window a `create_window` call made, from its reply:
    /// paneward names it `windowId`, tmux-mcp `id`, libtmux-mcp `window_id`.
    pub fn kill_call(self, reply: &Value) -> Result<(&'static str, Value), String> {
        let made = &reply["result"]["structuredContent"];
        let (field, key) = match self.contract() {
            Self::TmuxMcp => ("id", "window"),
            Self::LibtmuxMcp => ("window_id", "window_id"),
            _ => ("windowId", "window_id"),
        };
        let window = made[field]
            .as_str()
            .ok_or_else(|| format!("create_window's reply has no {field}: {made}"))?;
        Ok(("kill_window", json!({key: window})))
    }

    /// The arguments of a [`LONG_CAPTURE`]-line history capture of the long pane.
    fn long_capture(self, fixture: &Fixture) -> Value {
        let pane = fixture.long.clone().unwrap_or_default();
        let start = -(LONG_CAPTURE as i64);
        match self.contract() {
            Self::Paneward | Self::PanewardHttp | Self::PanewardSsh | Self::PanewardOneShot | Self::PanewardPython => {
                json!({"pane_id": pane, "history": true, "max_lines": LONG_CAPTURE})
            }
            Self::TmuxMcp => json!({"pane": pane, "start": start}),
            Self::LibtmuxMcp => json!({"pane_id": pane, "start": start, "max_lines": LONG_CAPTURE}),
        }
    }
}
