//! Every limit paneward applies, in one place: each name carries its unit, each has the
//! reason for its value. Nothing else in `src/` writes a bare numeric limit.

use std::time::Duration;

// Replies.

/// The longest JSON-RPC response line of a batch, its text included: the upstream
/// batch contract promises at most 1,000,000 bytes.
pub const REPLY_LINE_MAX_BYTES: usize = 1_000_000;
/// Pane text in one reply: the same million bytes, so one capture fits a batch line.
pub const TEXT_MAX_BYTES: usize = 1_000_000;
/// Lines of pane text returned when the caller does not say: a screenful and its
/// recent past, without flooding a model's context.
pub const TEXT_DEFAULT_LINES: i64 = 500;
/// The most lines of pane text a caller may ask for in one reply.
pub const TEXT_MAX_LINES: i64 = 5_000;
/// Items in a list reply: a pane is about 450 bytes of JSON, so a full list stays under
/// half a megabyte.
pub const LISTED_MAX_ITEMS: usize = 1_000;

// Messages: errors never echo input at length (it may be huge, or a secret).

/// The longest tool error message.
pub const ERROR_MESSAGE_MAX_BYTES: usize = 1_000;
/// The longest piece of a caller's text an error message repeats.
pub const ECHO_MAX_CHARS: usize = 80;
/// A field name quoted in an argument error.
pub const ERROR_FIELD_NAME_MAX_CHARS: usize = 60;
/// An expected value (a `const`) quoted in an argument error.
pub const ERROR_VALUE_MAX_CHARS: usize = 100;
/// The allowed values of an enum listed in an argument error.
pub const ERROR_ENUM_MAX_CHARS: usize = 300;
/// Any other schema rule's own wording in an argument error.
pub const ERROR_RULE_MAX_CHARS: usize = 200;
/// The longest method name a JSON-RPC error repeats.
pub const METHOD_ECHO_MAX_CHARS: usize = 100;
/// Unknown names listed in one error before "and N more".
pub const NAMES_IN_ERRORS_MAX: usize = 10;
/// The longest command summary in logs and errors.
pub const COMMAND_SUMMARY_MAX_CHARS: usize = 160;
/// The longest line of tmux's stderr quoted in an error.
pub const TMUX_STDERR_MAX_CHARS: usize = 300;

// Arguments.

/// Characters of `keys` in one row: 4,000 characters of up to 4 bytes, quoted, still
/// fit the 16 KiB command a tmux client may send.
pub const KEYS_MAX_CHARS: usize = 4_000;
/// An option or hook name: tmux's own are far shorter; user options rarely pass 40.
pub const OPTION_NAME_MAX_CHARS: usize = 100;
/// Variables one `get_tmux_variables` call may name (tmux 3.3a has about 200).
pub const VARIABLE_NAMES_MAX: usize = 256;
/// A tmux format variable name (the longest of tmux 3.3a's is 27).
pub const VARIABLE_NAME_MAX_CHARS: usize = 64;
/// Operations in one batch of the Python profile, as the Go contract's batch allows.
pub const BATCH_MAX_OPERATIONS: usize = 16;

// Buffers and copy mode.

/// Text one `paste_text` or `load_buffer` call stages: 1 MiB, a large file or log.
pub const STAGED_TEXT_MAX_BYTES: usize = 1 << 20;
/// Text in one `set-buffer` command; larger text is appended in slices, so no command
/// line paneward writes to tmux grows without bound.
pub const SET_BUFFER_SLICE_BYTES: usize = 64 * 1024;
/// Text `show_buffer` returns: all paneward stages, with a final newline.
pub const BUFFER_SHOWN_MAX_BYTES: usize = STAGED_TEXT_MAX_BYTES + 1;
/// A buffer label: readable, and well within tmux's name handling.
pub const BUFFER_LABEL_MAX_CHARS: usize = 64;
/// Lines `enter_copy_mode` scrolls up: more than any `history-limit` in use.
pub const COPY_MODE_SCROLL_MAX_LINES: u32 = 100_000;
/// The most scrollback a create tool gives a new pane (`history_limit`): a long build
/// log, within what `enter_copy_mode` can scroll; a full line of a wide pane costs tmux
/// a few kilobytes, so this bounds one pane's memory to some hundreds of megabytes.
pub const HISTORY_LIMIT_MAX_LINES: u32 = COPY_MODE_SCROLL_MAX_LINES;

// search_panes.

/// Matching panes returned when the caller does not say.
pub const SEARCH_DEFAULT_PANES: i64 = 50;
/// Matching lines per pane returned when the caller does not say.
pub const SEARCH_DEFAULT_MATCHES_PER_PANE: i64 = 20;
/// The most panes, or lines per pane, a caller may ask for.
pub const SEARCH_MAX_PER_REQUEST: i64 = 200;
/// Panes whose screens one search reads: bounds the round trip's size.
pub const SEARCH_MAX_PANES: usize = 1_000;
/// A compiled regex (the `regex` crate's size limit): linear-time matching is only
/// cheap while the program is small.
pub const REGEX_MAX_COMPILED_BYTES: usize = 1 << 20;
/// The lazy DFA's cache for one regex.
pub const REGEX_MAX_DFA_BYTES: usize = 2 << 20;
/// Nesting depth of a regex, so parsing cannot recurse without bound.
pub const REGEX_MAX_NESTING: u32 = 64;
/// Tries to read every pane when panes come and go during the read.
pub const SEARCH_READ_ATTEMPTS: usize = 3;

// run_command and get_job.

/// How long `run_command` waits when the caller does not say: most commands an agent
/// runs end well within it, and a longer one becomes a job.
pub const RUN_DEFAULT_TIMEOUT: Duration = Duration::from_secs(30);
/// The ceiling on any wait unless `--max-wait` says otherwise.
pub const MAX_WAIT_DEFAULT: Duration = Duration::from_secs(300);
/// The highest `--max-wait` accepted: a day.
pub const MAX_WAIT_CEILING_SECONDS: u64 = 86_400;
/// Characters of one command: 16,000 characters of up to 4 bytes, each quote written as
/// four, still stage in one `set-buffer` slice or two.
pub const RUN_COMMAND_MAX_CHARS: usize = 16_000;
/// The first wait between two readings of a job's status; it grows by a quarter each
/// reading up to [`RUN_POLL_MAX`], so a quick command is seen at once and a long one
/// costs a reading or five a second (each a few hundred microseconds over control mode).
pub const RUN_POLL_FIRST: Duration = Duration::from_millis(5);
/// The longest wait between two readings of a job's status.
pub const RUN_POLL_MAX: Duration = Duration::from_millis(200);
/// How long `run_command` waits for a client that takes a task (the Tasks extension)
/// before it answers with the task: a quick command still answers at once.
pub const RUN_TASK_DIRECT_WAIT: Duration = Duration::from_secs(1);
/// The polling interval a task suggests (`pollIntervalMs`): a command that outlived
/// [`RUN_TASK_DIRECT_WAIT`] rarely ends within a second more.
pub const TASK_POLL_INTERVAL: Duration = Duration::from_secs(1);
/// The longest wait a batch row may ask for (a batch holds the per-connection turn).
pub const RUN_BATCH_MAX_WAIT: Duration = Duration::from_secs(5);
/// How long after a job's status is set paneward looks for its end marker: the shell
/// prints it before it reports the status, but tmux may read the pane's output later.
pub const RUN_END_MARKER_GRACE: Duration = Duration::from_secs(2);
/// How long `run_command` waits for a shell to draw its prompt (just after the last
/// job, or as the pane starts) before it refuses a pane whose cursor shows none.
pub const RUN_PROMPT_GRACE: Duration = Duration::from_secs(3);
/// How long a create tool with `wait_ready` waits for its new pane's first prompt: a
/// shell whose startup files load pyenv, conda or nvm takes seconds; longer is a
/// startup that waits for something, which the reply then names.
pub const READY_MAX_WAIT: Duration = Duration::from_secs(10);
/// The same wait in a batch row, no longer than any other wait a row may hold.
pub const READY_BATCH_MAX_WAIT: Duration = RUN_BATCH_MAX_WAIT;

// capture_since.

/// Rows a cursor may be behind before the reply says `tooFarBehind`: reading further
/// back would cost as much as a full history capture.
pub const SINCE_SCAN_MAX_ROWS: u64 = 20_000;

// Waiting (wait_for_text, wait_for_channel).

/// A wait whose caller gives no timeout.
pub const WAIT_DEFAULT_TIMEOUT: Duration = Duration::from_secs(30);
/// How often a text wait reads its panes: detection within about this, at one small
/// capture per pane per tick.
pub const WAIT_POLL_INTERVAL: Duration = Duration::from_millis(50);
/// The longest a watched pane goes unread in full: a row rewritten in place (a
/// progress line ending in `\r`) changes none of the state probed every tick.
pub const WAIT_FULL_READ_INTERVAL: Duration = Duration::from_millis(500);
/// Progress notifications of a wait are at least this far apart.
pub const WAIT_PROGRESS_INTERVAL: Duration = Duration::from_millis(1500);
/// Panes one `wait_for_text` call watches (all read in one round trip per tick).
pub const WAIT_MAX_PANES: usize = 16;
/// Rows a wait reply returns: the matching rows or the newest new ones.
pub const WAIT_REPLY_MAX_ROWS: usize = 20;
/// Characters of one row in a wait reply (a very wide pane's row is cut).
pub const WAIT_ROW_MAX_CHARS: usize = 2_000;
/// How long `wait_for_idle` waits for quiet when the caller does not say: longer than
/// the pause between an agent's streamed chunks, short enough to answer promptly.
pub const IDLE_DEFAULT_QUIET: Duration = Duration::from_secs(2);
/// How long `hand_to_person` waits, after the person's answer, for the pane to take
/// their input and wait again, when the caller does not say: a command run with a
/// password (`sudo apt upgrade`) may take minutes.
pub const HAND_OFF_DEFAULT_WAIT: Duration = Duration::from_secs(300);
/// Rows `hand_to_person` returns of what the pane printed after the question (the newest).
pub const HAND_OFF_MAX_LINES: usize = 200;
/// Entries `tmux://attention` lists at most (a server's panes, each with a few reasons).
pub const ATTENTION_MAX_ENTRIES: usize = 1_000;
/// How long `tmux://attention` must hold still before a subscriber is told: panes that
/// start waiting together (a fleet of agents asking at once) are one update, and a
/// prompt flashing between an agent's steps is none.
pub const ATTENTION_SETTLE: Duration = Duration::from_millis(500);
/// Commands `command_history` returns when the caller does not say.
pub const HISTORY_DEFAULT_COMMANDS: usize = 5;
/// Output lines per command `command_history` keeps when the caller does not say.
pub const HISTORY_DEFAULT_LINES: usize = 50;
/// The newest bytes of a pane's recording `command_history` reads: a few hundred
/// commands of ordinary output, read in a few milliseconds.
pub const HISTORY_READ_MAX_BYTES: u64 = 4 << 20;
/// A tmux `wait-for` channel name (Python's rule).
pub const CHANNEL_NAME_MAX_CHARS: usize = 128;

// pipe_pane.

/// An output path: Linux's PATH_MAX (4096) less the NUL it counts; a longer one cannot be opened.
pub const PIPE_PATH_MAX_BYTES: usize = 4095;
/// One component of an output path: Linux's NAME_MAX.
pub const PIPE_NAME_MAX_BYTES: usize = 255;

// A fleet of targets (several tmux servers behind one paneward).

/// A target's name, as written in ids (`NAME/%3`): short enough to cost little in every id.
pub const TARGET_NAME_MAX_CHARS: usize = 32;
/// Targets connected at once unless configured: a tmux connection (and, over ssh, a
/// shared ssh connection) each; beyond it the least recently used idle one is closed.
pub const CONNECTED_TARGETS_DEFAULT_MAX: usize = 16;
/// How long a fan-out read waits for one target's answer: a target that is down or
/// wedged is reported as unreachable while the others answer.
pub const FLEET_TARGET_ANSWER_MAX: Duration = Duration::from_secs(3);
/// A `--targets-file`: a list of names and sockets, never large.
pub const TARGETS_FILE_MAX_BYTES: u64 = 64 * 1024;

// tmux.

/// One round trip to tmux; a server busier than this is reported, not waited on.
pub const TMUX_COMMAND_TIMEOUT: Duration = Duration::from_secs(10);
/// Output of one round trip over a tmux process or the native client: a 50 MB buffer
/// still fits; more fails at once rather than filling memory.
pub const SUBPROCESS_OUTPUT_MAX_BYTES: u64 = 64 * 1024 * 1024;
/// tmux processes and native-client connections open at once, unless configured: enough
/// for a burst of parallel calls, too few to flood the server.
pub const TMUX_CLIENTS_DEFAULT_MAX: usize = 8;
/// One line from the control-mode client: longer lines are skipped, not buffered.
pub const CONTROL_LINE_MAX_BYTES: usize = 1 << 20;
/// One reply over the control-mode client, as for a tmux process.
pub const CONTROL_REPLY_MAX_BYTES: usize = 64 << 20;
/// Round trips queued on the control connection before callers wait.
pub const CONTROL_QUEUE_DEPTH: usize = 64;
/// Round trips written to the control client in one write.
pub const CONTROL_WRITE_COALESCE: usize = 32;
/// How long an idle control connection waits on a timer (it has nothing to time out).
pub const CONTROL_IDLE_TIMER: Duration = Duration::from_secs(3600);
/// Transcript bytes a control connection keeps allocated between replies.
pub const CONTROL_RETAINED_BYTES: usize = 256 * 1024;
/// How long after a failed attach paneward tries control mode again.
pub const CONTROL_ATTACH_RETRY: Duration = Duration::from_secs(1);
/// How long calls go through one-shot clients after the control connection stopped
/// answering: long enough that a connection that wedges again costs few timeouts.
pub const CONTROL_WEDGED_RETRY: Duration = Duration::from_secs(5);

/// How long an idle ssh master connection (`--ssh`) stays after its last use, in
/// seconds; it also ends a master left behind by a paneward that was killed.
pub const SSH_CONTROL_PERSIST_SECS: u64 = 60;
/// How long `ssh` may take to reach the far host before the round trip fails, in
/// seconds: within [`TMUX_COMMAND_TIMEOUT`], so the error says ssh, not tmux.
pub const SSH_CONNECT_TIMEOUT_SECS: u64 = 8;

/// One-shot tmux processes at once over ssh, whatever `--max-tmux-clients` says: they
/// share one SSH connection, and sshd's `MaxSessions` allows 10 sessions on one by
/// default; the control client and `paneward doctor`'s probe take the other two.
pub const SSH_ONE_SHOTS_MAX: usize = 8;

// MCP transport.

/// Messages queued between the stdio layer and rmcp in each direction: past that the
/// reader waits for rmcp, and rmcp's replies wait for the writer (a client that does
/// not read holds them back).
pub const MCP_HANDOVER_QUEUE_MESSAGES: usize = 64;
/// The longest message line accepted from a stdio client, its `\n` included: rmcp's
/// own stdio limit, counted as rmcp counts it. Anything longer is dropped while it
/// streams in, never buffered whole, and answered.
pub const MCP_LINE_MAX_BYTES: usize = rmcp::transport::async_rw::DEFAULT_MAX_LINE_LENGTH;
/// Requests one stdio client may have in flight (read, not yet answered); its next
/// request is read when one is answered. Each holds rmcp's task and its reply: 10,000
/// pipelined requests reached 160 MB unbounded (BENCHMARKS.md).
pub const MCP_REQUESTS_IN_FLIGHT_MAX: usize = 256;
/// The stdio writer encodes every message into one buffer it keeps; one grown past
/// this by an unusually large message is let go after it is written.
pub const MCP_WRITE_BUFFER_KEPT_BYTES: usize = 2 * 1024 * 1024;
/// What the pipes a long reply goes through are asked to hold (paneward's standard
/// output, and tmux's control-mode output and its relay): a capture's reply of a few
/// hundred kilobytes is written in one go, not in the kernel's default 64 KiB slices
/// that each wait for the reader to be scheduled. The most an unprivileged process may
/// ask for by default (`/proc/sys/fs/pipe-max-size`); the kernel fills the room only
/// as bytes wait in it.
pub const REPLY_PIPE_BYTES: usize = 1024 * 1024;
/// Answers made by the stdio layer that may wait for the writer; the reader pauses
/// beyond that.
pub const MCP_ANSWER_QUEUE_MESSAGES: usize = 64;

/// The largest request body `serve --http` reads, as stdio's longest line: more gets
/// 413 before any of it is parsed.
pub const HTTP_REQUEST_MAX_BYTES: usize = MCP_LINE_MAX_BYTES;
/// How long a client has to send a request's headers; a connection still sending them
/// after this is closed, so a half-sent header holds no descriptor for long.
pub const HTTP_HEADER_READ_TIMEOUT: Duration = Duration::from_secs(10);
/// Connections open at once that have not yet sent a request with the token: at the
/// bound, the oldest is closed for the newest, so idle strangers cannot take every
/// descriptor (the default limit is 1,024) and shut out a client that has the token.
pub const HTTP_UNAUTHENTICATED_CONNECTIONS_MAX: usize = 256;
/// The longest pause of the accept loop when the descriptor table is full; the pause
/// doubles from [`HTTP_ACCEPT_BACKOFF_MIN`] while accepting keeps failing.
pub const HTTP_ACCEPT_BACKOFF_MAX: Duration = Duration::from_secs(1);
/// The first pause after an accept failed for want of descriptors.
pub const HTTP_ACCEPT_BACKOFF_MIN: Duration = Duration::from_millis(10);
/// At most one log line per this interval about failed accepts, with the count since
/// the last: a full descriptor table once wrote 448 MB of log in 20 s.
pub const HTTP_ACCEPT_LOG_INTERVAL: Duration = Duration::from_secs(10);
/// The longest bearer token read from `--token-file` or `PANEWARD_TOKEN`.
pub const HTTP_TOKEN_MAX_BYTES: usize = 4096;
/// The shortest bearer token accepted: 32 bytes, as `openssl rand -hex 16` prints.
pub const HTTP_TOKEN_MIN_BYTES: usize = 32;
/// Keep-alive pings on an idle server-sent-event stream, so proxies keep it open.
pub const HTTP_SSE_KEEP_ALIVE: Duration = Duration::from_secs(15);

// paneward conform.

/// How long `paneward conform` waits for the server under test.
pub const CONFORM_DEFAULT_TIMEOUT: Duration = Duration::from_secs(30);
/// The longest schema value a conform report line quotes.
pub const CONFORM_VALUE_MAX_CHARS: usize = 120;

// Arranging panes and windows.

/// A layout string `select_layout` accepts: tmux dumps layouts into an 8 KiB buffer
/// (layout-custom.c `layout_dump`), so no layout tmux wrote is longer.
pub const LAYOUT_MAX_BYTES: usize = 8_192;
/// Nesting of cells in a layout string, so checking it cannot recurse without bound;
/// each level splits a window at least once more, and a real window fits far fewer.
pub const LAYOUT_MAX_DEPTH: usize = 64;
/// A pane or window size in cells (width or height), and the most a size may change by
/// at once: far beyond any terminal, well inside tmux's own limit.
pub const ARRANGE_MAX_CELLS: i64 = 10_000;
/// The split share `move_pane` accepts, in percent of the target pane.
pub const JOIN_MAX_PERCENT: i64 = 99;
// Creating sessions, windows and panes.

/// What a new pane is started with, all together: its command words or shell line and
/// its environment. Generous for a command, small enough that no creation grows a
/// command paneward writes to tmux without bound.
pub const SPAWN_TEXT_MAX_BYTES: usize = 64 * 1024;
/// Attempts at a creation whose place paneward chose (a free window index, a pane's
/// position) when another client took it between paneward's reading and the creation.
pub const CREATE_ATTEMPTS: usize = 3;
// Resources: completions and subscriptions (src/resources/).

/// Values in one `completion/complete` answer: the MCP specification's ceiling.
pub const COMPLETION_MAX_VALUES: usize = 100;
/// How often a connection with subscriptions probes tmux (one round trip for every
/// watched URI): often enough that a pane's write is told within 300 ms, rarely enough
/// that sixteen idle watched panes cost well under 2% of a core (BENCHMARKS.md).
pub const WATCH_PROBE_INTERVAL: Duration = Duration::from_millis(100);
/// The least time between two `notifications/resources/updated` for one URI; a change
/// seen sooner is held, not dropped, and told when this has passed, so a burst of
/// output gives a few notifications and its last write is always told.
pub const WATCH_COALESCE_INTERVAL: Duration = Duration::from_millis(250);
/// How long after its window last wrote (tmux's `window_activity`, in whole seconds) a
/// watched pane's screen is still captured on each probe: two seconds covers the
/// rounding of the second the write fell in.
pub const SCREEN_RECENT_ACTIVITY_SECONDS: u64 = 2;
/// URIs one connection may watch at once: each costs a capture per probe at most.
pub const WATCH_MAX_SUBSCRIPTIONS: usize = 256;
// Prompts, completion, asking the person, servers.

/// The most bytes the whole `tools/list` result may take at the default tier (compact
/// JSON, every tool of `mutating`): clients keep it in a model's context on every turn
/// and some cap what they load, so growth must be a decision. It grew with the tools
/// from 115,538 bytes (destructive tier, budget 120,000) to 145,990 (budget 150,000);
/// then descriptions that repeated their schema, hints that said MCP's defaults or
/// nothing (a read's `destructiveHint`), annotations that gave the title twice, shared
/// shapes' field descriptions that repeated a name or an id's pattern, and output
/// schemas that policed replies rather than described them went (issue 50), taking the
/// default tier from 135,047 bytes to 99,765. About 19,500 bytes are not paneward's to
/// shorten: the three seeded tools and the inspect tools' inputs (those of the seeded
/// batch's rows).
pub const TOOLS_LIST_MAX_BYTES: usize = 100_000;

/// The same at the destructive tier (every tool of the default profile): 107,465 bytes.
pub const TOOLS_LIST_DESTRUCTIVE_MAX_BYTES: usize = 108_000;

/// The longest `instructions` of `initialize`: what a client shows or keeps in a
/// model's context on every conversation should be short.
pub const INSTRUCTIONS_MAX_BYTES: usize = 2_048;

/// The longest free-text prompt argument (a command line, a task): as long as the
/// `keys` of one `send_keys` row.
pub const PROMPT_TEXT_MAX_CHARS: usize = 4_000;
/// The longest session name a prompt takes.
pub const PROMPT_NAME_MAX_CHARS: usize = 64;
/// The range of a prompt's `timeout_seconds`: a second to an hour.
pub const PROMPT_SECONDS_MAX: u64 = 3_600;
/// Values in one `completion/complete` answer: the most MCP allows.
/// How long paneward waits for the person to answer a question (`elicitation/create`)
/// before it counts as no: long enough to read and decide, short enough that a call
/// nobody answers does not hold the tool queue for ever.
pub const ELICITATION_TIMEOUT: Duration = Duration::from_secs(120);
/// How long a 2026-07-28 client has to send a call again with the person's answer (the
/// `requestState` of its `InputRequiredResult` expires then): the legacy question's
/// timeout, and the client's own round trips on top.
pub const REQUEST_STATE_TTL: Duration = Duration::from_secs(300);
/// How many answered request states paneward remembers at once (each until it would
/// have expired, so that none opens twice); past it, an answer is refused for a while.
pub const REQUEST_STATE_SPENT_MAX: usize = 10_000;
/// How long `list_servers` waits for one socket to accept a connection: a live server
/// accepts at once, a stale socket refuses at once; this bounds a wedged one.
pub const SERVER_PROBE_TIMEOUT: Duration = Duration::from_millis(100);
/// Directory entries `list_servers` looks at: a folder with thousands of stale sockets
/// must not make one call probe them all.
pub const SERVER_SCAN_MAX_ENTRIES: usize = 1_000;
/// Messages queued for the client's log (`notifications/message`) before more are
/// dropped: the why of an event is worth less than keeping the server responsive.
pub const CLIENT_LOG_QUEUE_MESSAGES: usize = 256;
/// The NAME of `--private NAME`: short, so `paneward-NAME` in tmux's socket folder stays
/// well within a socket address (108 bytes).
pub const PRIVATE_NAME_MAX_CHARS: usize = 32;
/// Steps (tool calls) one workspace document may expand to: a few sessions' worth of
/// windows and panes, while a mistaken document cannot flood tmux with hundreds of panes.
pub const WORKSPACE_MAX_STEPS: usize = 64;
/// Bytes of a workspace document, as `load_workspace`'s schema bounds it too.
pub const WORKSPACE_DOCUMENT_MAX_BYTES: usize = 65_536;

// paneward's own typing, which waits discount (guard::typed).

/// How long a line paneward typed into a pane is remembered: longer than an agent's
/// turn between typing and waiting, short enough that a line typed long ago no longer
/// hides anything.
pub const OWN_INPUT_MEMORY: Duration = Duration::from_secs(30);
/// Lines remembered per pane (the newest).
pub const OWN_INPUT_MAX_LINES: usize = 16;
/// Bytes remembered per pane; a longer line is not remembered (its echo wraps over
/// rows, which are matched one by one, so it would match none).
pub const OWN_INPUT_MAX_BYTES: usize = 4096;
/// Panes remembered at once (the ones typed into most recently).
pub const OWN_INPUT_MAX_PANES: usize = 64;

// Submit confirmation (send_keys and paste_text `confirm_submit`).

/// How long `confirm_submit` waits by default for a sign that an Enter was taken: a
/// shell or a TUI shows one within tens of milliseconds; a program still starting may
/// take a second before it reads at all.
pub const CONFIRM_DEFAULT_WAIT: Duration = Duration::from_secs(2);
/// The longest `confirm_timeout_ms` accepted.
pub const CONFIRM_MAX_WAIT_MS: u64 = 10_000;
/// The first pause between two looks at the pane; it grows by half up to
/// [`CONFIRM_POLL_MAX`], so a quick program is seen at once.
pub const CONFIRM_POLL_FIRST: Duration = Duration::from_millis(5);
/// The longest pause between two looks.
pub const CONFIRM_POLL_MAX: Duration = Duration::from_millis(100);
/// Characters of the typed text's last line that must still show on the cursor's row
/// for an Enter to count as dropped: enough to be the text, few enough not to wrap.
pub const CONFIRM_TAIL_CHARS: usize = 24;

// The look for the echo of paneward's own typing (guard::echo_look).

/// How long after typing paneward looks for the terminal's echo of it at the cursor: a
/// terminal echoes at once and a TUI redraws its input row within tens of
/// milliseconds; a copy that shows later is the program's output. Only typing whose
/// echo does not show waits this long.
pub const ECHO_LOOK_WAIT: Duration = Duration::from_millis(250);
/// The first pause between two looks for the echo; it grows by half up to
/// [`ECHO_LOOK_POLL_MAX`].
pub const ECHO_LOOK_POLL_FIRST: Duration = Duration::from_millis(3);
/// The longest pause between two looks for the echo.
pub const ECHO_LOOK_POLL_MAX: Duration = Duration::from_millis(50);
/// History rows each look reads besides the screen, for output that scrolled the typed
/// row off the screen meanwhile.
pub const ECHO_LOOK_HISTORY_ROWS: u64 = 8;
/// How long a wait waits for the look at a line still being typed before it counts
/// that line's echo as not shown: the look's own bound, and room for its last round trip.
pub const ECHO_SETTLE_MAX: Duration = Duration::from_millis(2250);
