//! Reading tmux without changing it: the session → window → pane tree, the server,
//! a pane's text (whole, since a cursor, searched), and the objects replies share.

pub mod activity;
pub mod capture;
pub mod cursor;
pub mod filter;
pub mod history;
pub mod marks;
pub mod objects;
pub mod own;
pub mod pane_state;
pub mod rows;
pub mod search;
pub mod server;
pub mod servers;
pub mod since;
pub mod snapshot;
pub mod tail;
pub mod text;
pub mod tree;
