//! The hand-written tool handlers, one module per tool group. Each tool's file names
//! its module (`"handler"`); the generated dispatch calls `<module>::<tool>` directly,
//! handing it the gate of the tool's tier. Nothing here lists or forwards tools.

pub mod args;
pub mod arrange;
pub mod batch;
pub mod batch_python;
pub mod buffers;
pub mod capture;
pub mod channel;
pub mod copy_mode;
pub mod create;
pub mod cursor;
pub mod environment;
pub mod hierarchy;
pub mod hooks;
pub mod keys;
pub mod layout;
pub mod lifecycle;
pub mod moves;
pub mod objects;
pub mod options;
pub mod pane;
pub mod pipe;
pub mod readback;
pub mod rename;
pub mod run;
pub mod search;
pub mod send_keys;
pub mod server_info;
pub mod servers;
pub mod settings;
pub mod since;
pub mod snapshot;
pub mod tail;
pub mod text;
pub mod wait;
pub mod waiting;
pub mod watch;
pub mod write_batch;
