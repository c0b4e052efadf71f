//! The gates: the only way a handler reaches tmux. The generated dispatch hands each
//! handler the gate of its tool's tier, so what a handler can send is decided by its
//! type, not by a check it must remember:
//!
//! - [`ReadGate`] (readonly tools) sends only [`ReadCommand`]s, the read-only allowlist.
//! - [`ChangeGate`] (mutating tools) also sends [`ChangeCommand`]s, and reaches a pane's
//!   input only through the cohort check ([`ChangeGate::deliver`]).
//! - [`EndGate`] (destructive tools) also ends things, only through the checks of
//!   `guard::end`, which refuse the caller's pane, window, session and server.
//!
//! A tool whose file declares argument escalations (`respawn_pane` with `kill: true`
//! needs `destructive`) gets the gate of the highest tier it can reach; the request path
//! (`call::checked`) has already refused an escalated call on a server below that tier,
//! so such a handler may rely on its gate only for calls that met the escalation, and
//! must keep the other calls within the tool's own tier (it does so by what it sends).
//!
//! The tmux handle itself sits in [`Backend`](super::Backend), whose handle only the guard can read.
//!
//! What each gate refuses is a compile error. A readonly handler cannot change tmux,
//! nor send a command outside the read allowlist:
//! ```compile_fail,E0599
//! async fn handler(gate: &paneward::guard::ReadGate<'_>) {
//!     let _ = gate.change_all(&[]).await;
//! }
//! ```
//! ```compile_fail,E0308
//! async fn handler(gate: &paneward::guard::ReadGate<'_>) {
//!     let _ = gate.run(paneward::tmux::Command::new("kill-server")).await;
//! }
//! ```
//! A mutating handler has no input verb to send around the cohort check, and cannot end
//! anything:
//! ```compile_fail,E0599
//! let _ = paneward::guard::ChangeVerb::SendKeys;
//! ```
//! Nor move a pane or window around the check of `guard::moves`:
//! ```compile_fail,E0599
//! let _ = paneward::guard::ChangeVerb::JoinPane;
//! ```
//! ```compile_fail,E0599
//! async fn handler(gate: &paneward::guard::ChangeGate<'_>) {
//!     let _ = gate.end(&paneward::guard::end::Ending::KillServer).await;
//! }
//! ```
//! A destructive handler can do all of it (this one compiles):
//! ```no_run
//! async fn handler(gate: &paneward::guard::EndGate<'_>) {
//!     let _ = gate.end(&paneward::guard::end::Ending::KillServer).await;
//!     let _ = gate.change_all(&[]).await;
//!     let _ = gate.run(paneward::tmux::ReadCommand::new(paneward::tmux::ReadVerb::ListPanes)).await;
//! }
//! ```

use crate::limits::TMUX_COMMAND_TIMEOUT;
use std::ops::Deref;
use std::time::Duration;

use crate::guard::channel::ChannelName;
use crate::guard::key_input::KeyInput;
use crate::guard::state::GuardState;
use crate::runtime::error::ToolError;
use crate::runtime::reentry::{Boxed, Ids, NoRequestPath, Refusal, RequestPath};
use crate::runtime::{CallContext, Tier};
use crate::tmux::script::command_line;
use crate::tmux::{Command, PaneId, ReadCommand, TmuxError, WindowId};
use rmcp::model::JsonObject;
use serde_json::Value;

/// What a readonly handler can do: read tmux, read the settings handlers see.
pub struct ReadGate<'a> {
    state: &'a GuardState,
    context: &'a CallContext,
    /// The request path this call came by, lent to batches only through [`Rows`].
    requests: &'a dyn RequestPath,
}

impl<'a> ReadGate<'a> {
    /// A gate for work outside a tool call (resources, prompts, clean-up): no request
    /// path to re-enter.
    pub fn new(state: &'a GuardState, context: &'a CallContext) -> Self {
        Self::for_call(state, &NoRequestPath, context)
    }

    /// The gate of a tool call that came by `requests` (the generated dispatch makes it).
    pub fn for_call(state: &'a GuardState, requests: &'a dyn RequestPath, context: &'a CallContext) -> Self {
        Self {
            state,
            context,
            requests,
        }
    }

    /// The request path, for the rows of a readonly batch: held to readonly.
    pub fn rows(&self) -> Rows<'a> {
        Rows {
            path: self.requests,
            tier: Tier::Readonly,
        }
    }

    /// What the gate holds: the caller pane, the settings handlers read, the staged
    /// buffers (its backend is readable only by the gates themselves).
    pub fn state(&self) -> &'a GuardState {
        self.state
    }

    pub fn context(&self) -> &'a CallContext {
        self.context
    }

    /// Runs one read and returns its standard output.
    ///
    /// # Errors
    /// See [`TmuxError`].
    pub async fn run(&self, command: ReadCommand) -> Result<Vec<u8>, TmuxError> {
        self.state.backend.tmux().run(command.into()).await
    }

    /// Runs `commands` in one round trip; one output per command.
    ///
    /// # Errors
    /// The first command's failure.
    pub async fn run_all(&self, commands: &[ReadCommand]) -> Result<Vec<Vec<u8>>, TmuxError> {
        self.run_all_within(commands, TMUX_COMMAND_TIMEOUT).await
    }

    /// [`ReadGate::run_all`] with a timeout of its own.
    ///
    /// # Errors
    /// As [`ReadGate::run_all`].
    pub async fn run_all_within(&self, commands: &[ReadCommand], timeout: Duration) -> Result<Vec<Vec<u8>>, TmuxError> {
        let commands: Vec<Command> = commands.iter().cloned().map(Command::from).collect();
        self.state.backend.tmux().run_all_within(&commands, timeout).await
    }

    /// [`ReadGate::run_all`] with nothing between the commands, command `i` printing
    /// exactly `lines[i]` lines; see [`crate::tmux::Tmux::run_counted`].
    ///
    /// # Errors
    /// As [`ReadGate::run_all`]; a protocol error when the lines do not fit the counts.
    pub async fn run_counted(&self, commands: &[ReadCommand], lines: Vec<usize>) -> Result<Vec<Vec<u8>>, TmuxError> {
        let commands: Vec<Command> = commands.iter().cloned().map(Command::from).collect();
        self.state.backend.tmux().run_counted(&commands, lines).await
    }

    /// Blocks until `channel` is signalled or `timeout` passes, in a `tmux wait-for`
    /// process of its own (killed on timeout and when this future is dropped). Waiting
    /// changes nothing but can consume a signal sent while nobody waited, which is what
    /// a waiter is for; hence it is a read.
    ///
    /// # Errors
    /// tmux could not be started or failed.
    pub async fn wait_for_channel(
        &self,
        channel: &ChannelName,
        timeout: Duration,
    ) -> Result<crate::tmux::channel::WaitEnd, TmuxError> {
        self.state
            .backend
            .tmux()
            .wait_for_channel(channel.as_str(), timeout)
            .await
    }

    /// [`ReadGate::run_all`] for a fixed number of commands, their outputs by position.
    ///
    /// # Errors
    /// As [`ReadGate::run_all`]; also a reply with another number of outputs.
    pub async fn run_each<const N: usize>(&self, commands: [ReadCommand; N]) -> Result<[Vec<u8>; N], TmuxError> {
        self.state.backend.tmux().run_each(commands.map(Command::from)).await
    }
}

/// Printed by [`ChangeGate::change_if_pane_at`] when the pane had moved; paneward's own
/// constant, never caller text.
const PANE_MOVED: &str = "paneward-pane-moved";

/// A command that changes tmux but neither types into a pane nor ends anything: those
/// go through [`ChangeGate::deliver`] and `EndGate` only. Built from a [`ChangeVerb`].
#[derive(Clone, PartialEq, Eq)]
pub struct ChangeCommand(Command);

/// The tmux commands a mutating tool may send directly. Moves (`join-pane`,
/// `break-pane`, `move-window`) are not among them: they can close what holds the caller
/// pane, so only `guard::moves` sends them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChangeVerb {
    NewSession,
    NewWindow,
    SplitWindow,
    RenameSession,
    RenameWindow,
    SelectWindow,
    SelectPane,
    SelectLayout,
    ResizePane,
    ResizeWindow,
    SwapPane,
    ClearHistory,
    SetOption,
    SetEnvironment,
    SetBuffer,
    LoadBuffer,
    DeleteBuffer,
    CopyMode,
    PipePane,
    WaitFor,
}

impl ChangeVerb {
    pub fn name(self) -> &'static str {
        match self {
            Self::NewSession => "new-session",
            Self::NewWindow => "new-window",
            Self::SplitWindow => "split-window",
            Self::RenameSession => "rename-session",
            Self::RenameWindow => "rename-window",
            Self::SelectWindow => "select-window",
            Self::SelectPane => "select-pane",
            Self::SelectLayout => "select-layout",
            Self::ResizePane => "resize-pane",
            Self::ResizeWindow => "resize-window",
            Self::SwapPane => "swap-pane",
            Self::ClearHistory => "clear-history",
            Self::SetOption => "set-option",
            Self::SetEnvironment => "set-environment",
            Self::SetBuffer => "set-buffer",
            Self::LoadBuffer => "load-buffer",
            Self::DeleteBuffer => "delete-buffer",
            Self::CopyMode => "copy-mode",
            Self::PipePane => "pipe-pane",
            Self::WaitFor => "wait-for",
        }
    }
}

impl ChangeCommand {
    pub fn new(verb: ChangeVerb) -> Self {
        Self(Command::new(verb.name()))
    }

    #[must_use]
    pub fn arg(self, text: impl Into<String>) -> Self {
        Self(self.0.arg(text))
    }

    /// A command a guard of this module's siblings built and checks itself.
    pub(super) fn guarded(command: Command) -> Self {
        Self(command)
    }

    /// An argument that never appears in logs or errors.
    #[must_use]
    pub fn sensitive_arg(self, text: impl Into<String>) -> Self {
        Self(self.0.sensitive_arg(text))
    }
}

/// A read may stand in a list of changes (to read back what a change did, in the same
/// round trip).
impl ChangeCommand {
    /// The command as logs show it (sensitive arguments left out).
    pub fn summary(&self) -> String {
        self.0.summary()
    }
}

impl From<ReadCommand> for ChangeCommand {
    fn from(read: ReadCommand) -> Self {
        Self(read.into())
    }
}

/// What a mutating handler can do: everything a readonly one can, change tmux, and type
/// into panes through the cohort check.
pub struct ChangeGate<'a> {
    read: ReadGate<'a>,
}

impl<'a> ChangeGate<'a> {
    pub fn new(state: &'a GuardState, context: &'a CallContext) -> Self {
        Self {
            read: ReadGate::new(state, context),
        }
    }

    /// As [`ReadGate::for_call`].
    pub fn for_call(state: &'a GuardState, requests: &'a dyn RequestPath, context: &'a CallContext) -> Self {
        Self {
            read: ReadGate::for_call(state, requests, context),
        }
    }

    /// The request path, for the rows of a mutating batch: held to mutating.
    pub fn rows(&self) -> Rows<'a> {
        Rows {
            path: self.read.requests,
            tier: Tier::Mutating,
        }
    }

    /// Runs `commands` (changes, and reads among them) in one round trip, in order.
    ///
    /// # Errors
    /// The first command's failure.
    pub async fn change_all(&self, commands: &[ChangeCommand]) -> Result<Vec<Vec<u8>>, TmuxError> {
        let commands: Vec<Command> = commands.iter().map(|c| c.0.clone()).collect();
        self.read.state.backend.tmux().run_all(&commands).await
    }

    /// Whether this server may start tmux when none runs (`config::ServerStart`).
    pub fn may_start_server(&self) -> bool {
        self.read.state.settings.server_start.config_flags().is_some()
    }

    /// [`ChangeGate::change_all`] as one tmux process that starts the server first if
    /// none runs, as `--private` or `--start-server` allow; refused otherwise.
    ///
    /// # Errors
    /// Starting is not allowed, or the first command's failure.
    pub async fn change_all_starting_server(&self, commands: &[ChangeCommand]) -> Result<Vec<Vec<u8>>, TmuxError> {
        let settings = &self.read.state.settings;
        let Some(flags) = settings.server_start.config_flags() else {
            return Err(TmuxError::ServerGone {
                socket: settings.address.label(),
                message: "paneward may not start a server there (--private or --start-server allow it)".into(),
            });
        };
        let commands: Vec<Command> = commands.iter().map(|c| c.0.clone()).collect();
        self.read
            .state
            .backend
            .tmux()
            .run_all_starting_server(&flags, &commands)
            .await
    }

    /// Types `keys` (then Enter if `enter`) into `target` in one tmux step with the
    /// cohort check (`guard::cohort`); returns the panes that received it.
    ///
    /// # Errors
    /// The check refused (the message names the pane and the rule), or tmux failed.
    pub async fn deliver(
        &self,
        target: PaneId,
        force: bool,
        keys: &KeyInput,
        enter: bool,
    ) -> Result<Vec<PaneId>, ToolError> {
        super::deliver::deliver(self.read.state, self.read.context, target, force, keys, enter).await
    }

    /// [`ChangeGate::deliver`], typing only if `target`'s cursor and history are still
    /// where `at` says, in the same tmux step (`guard::screen::ScreenAt`).
    ///
    /// # Errors
    /// As [`ChangeGate::deliver`], and a refusal when the screen moved.
    pub async fn deliver_at(
        &self,
        target: PaneId,
        force: bool,
        keys: &KeyInput,
        enter: bool,
        at: super::screen::ScreenAt,
    ) -> Result<Vec<PaneId>, ToolError> {
        super::deliver::deliver_at(
            self.read.state,
            self.read.context,
            target,
            force,
            (keys, enter),
            Some(at),
            &[],
        )
        .await
    }

    /// [`ChangeGate::deliver_at`] with `record` run in the same tmux step, just before
    /// the keys and only if they are typed (`run_command` marks its job typed so: a
    /// paneward that stops at any moment leaves a record that says truly whether its
    /// line went in).
    ///
    /// # Errors
    /// As [`ChangeGate::deliver_at`]; also `record` failing (then nothing was typed).
    pub async fn deliver_at_recording(
        &self,
        target: PaneId,
        force: bool,
        (keys, enter): (&KeyInput, bool),
        at: super::screen::ScreenAt,
        record: &ChangeCommand,
    ) -> Result<Vec<PaneId>, ToolError> {
        let record = [record.0.clone()];
        super::deliver::deliver_at(
            self.read.state,
            self.read.context,
            target,
            force,
            (keys, enter),
            Some(at),
            &record,
        )
        .await
    }

    /// [`ChangeGate::deliver`] (without `force`) with `record`, if any, run in the same
    /// tmux step, just before the keys and only if they are typed (`tasks/cancel` marks
    /// its job interrupted so: the mark never stands without the Ctrl-C, nor it without
    /// the mark).
    ///
    /// # Errors
    /// As [`ChangeGate::deliver`]; also `record` failing (then nothing was typed).
    pub async fn deliver_recording(
        &self,
        target: PaneId,
        (keys, enter): (&KeyInput, bool),
        record: Option<&ChangeCommand>,
    ) -> Result<Vec<PaneId>, ToolError> {
        let record: Vec<Command> = record.map(|record| record.0.clone()).into_iter().collect();
        super::deliver::deliver_at(
            self.read.state,
            self.read.context,
            target,
            false,
            (keys, enter),
            None,
            &record,
        )
        .await
    }

    /// Pastes tmux buffer `buffer`, which holds `text`, into `target` (bracketed if
    /// `bracket`, deleting the buffer if `delete`, then Enter if `enter`) in one tmux
    /// step with the check of `guard::deliver::paste`; `text` is remembered as typed.
    ///
    /// # Errors
    /// As [`ChangeGate::deliver`].
    pub async fn paste(
        &self,
        target: PaneId,
        force: bool,
        (buffer, text): (&str, &str),
        (bracket, delete): (bool, bool),
        enter: bool,
    ) -> Result<super::deliver::Pasted, ToolError> {
        super::deliver::paste(
            self.read.state,
            self.read.context,
            target,
            force,
            (buffer, text),
            (bracket, delete),
            enter,
        )
        .await
    }

    /// Respawns a *dead* pane: `respawn-pane` without `-k`, which tmux refuses for a
    /// live pane ("still active"), so no program is ended. Ending a live one is
    /// `EndGate::end` with `Ending::RespawnLivePane`.
    pub fn respawn_dead(respawn: &super::respawn::Respawn) -> ChangeCommand {
        ChangeCommand(respawn.command(false))
    }

    /// Resets `pane`'s screen inside tmux (`send-keys -R` with no keys): the visible
    /// screen is cleared and its modes reset; nothing reaches the pane's program.
    pub fn reset_screen(pane: PaneId) -> ChangeCommand {
        ChangeCommand(super::input::reset_screen_command(pane))
    }

    /// Runs `commands` in one tmux step only if, at that moment, `pane` is still the
    /// pane at `index` in `window` and the window is still zoomed or not as `zoomed`
    /// says (as paneward read them). Returns their output, or `None` when something had
    /// changed and nothing ran. Lets a command list name a pane by
    /// its position (a new pane has no id before it exists) without marking another pane
    /// if someone moved panes between the reading and the list. The condition holds ids
    /// and numbers only; the commands travel as one sensitive argument.
    ///
    /// # Errors
    /// tmux failed, or one of `commands` failed (the rest did not run).
    pub async fn change_if_pane_at(
        &self,
        pane: PaneId,
        (window, index, zoomed): (WindowId, u32, bool),
        commands: &[ChangeCommand],
    ) -> Result<Option<Vec<u8>>, TmuxError> {
        let zoomed = u8::from(zoomed);
        let condition = format!(
            "#{{&&:#{{==:#{{window_id}},{window}}},#{{&&:#{{==:#{{pane_index}},{index}}},#{{==:#{{window_zoomed_flag}},{zoomed}}}}}}}"
        );
        let inner: Vec<Command> = commands.iter().map(|c| c.0.clone()).collect();
        let guarded = Command::new("if-shell")
            .arg("-F")
            .arg("-t")
            .arg(pane.to_string())
            .arg(condition)
            .sensitive_arg(command_line(&inner))
            .arg(format!("display-message -p {PANE_MOVED}"));
        let output = self.read.state.backend.tmux().run(guarded).await?;
        if String::from_utf8_lossy(&output).trim() == PANE_MOVED {
            return Ok(None);
        }
        Ok(Some(output))
    }

    /// The command that scrolls `pane`'s copy mode up `lines` lines (a copy-mode
    /// command: it fails for a pane in no mode and never reaches the pane's program).
    pub fn scroll_copy_mode_up(pane: PaneId, lines: u32) -> ChangeCommand {
        ChangeCommand(super::input::scroll_up_command(pane, lines))
    }
}

impl<'a> Deref for ChangeGate<'a> {
    type Target = ReadGate<'a>;
    fn deref(&self) -> &ReadGate<'a> {
        &self.read
    }
}

/// What a destructive handler can do: everything a mutating one can, and end things
/// through the checks of `guard::end`.
pub struct EndGate<'a> {
    change: ChangeGate<'a>,
}

impl<'a> EndGate<'a> {
    pub fn new(state: &'a GuardState, context: &'a CallContext) -> Self {
        Self {
            change: ChangeGate::new(state, context),
        }
    }

    /// As [`ReadGate::for_call`].
    pub fn for_call(state: &'a GuardState, requests: &'a dyn RequestPath, context: &'a CallContext) -> Self {
        Self {
            change: ChangeGate::for_call(state, requests, context),
        }
    }

    /// The request path, for the rows of a destructive batch.
    pub fn rows(&self) -> Rows<'a> {
        Rows {
            path: self.change.read.requests,
            tier: Tier::Destructive,
        }
    }
}

impl<'a> Deref for EndGate<'a> {
    type Target = ChangeGate<'a>;
    fn deref(&self) -> &ChangeGate<'a> {
        &self.change
    }
}

/// The request path as a batch re-enters it for its rows, held to the tier of the gate
/// that lent it: a readonly handler cannot reach a mutating tool through it.
pub struct Rows<'a> {
    path: &'a dyn RequestPath,
    tier: Tier,
}

impl<'a> Rows<'a> {
    /// The tier every row runs at.
    pub fn tier(&self) -> Tier {
        self.tier
    }

    /// Runs `tool` as a direct call at this tier would run.
    pub fn call<'b>(
        &'b self,
        tool: &'b str,
        arguments: Option<JsonObject>,
        context: &'b CallContext,
    ) -> Boxed<'b, Result<Value, crate::runtime::ToolError>> {
        self.path.call(self.tier, tool, arguments, context)
    }

    /// Checks `tool` with `arguments` as a direct call at this tier would be checked.
    pub fn admit<'b>(&'b self, tool: &'b str, arguments: &'b Value, ids: Ids) -> Boxed<'b, Result<(), Refusal>> {
        self.path.admit(self.tier, tool, arguments, ids)
    }
}
