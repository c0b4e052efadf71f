//! Tests of `--profile python` (`src/tools/python`): libtmux-mcp's tools answered by
//! paneward, against a real tmux on a private socket. The differential suite beside
//! them drives the real libtmux-mcp too.

mod config;
mod differential;
mod input;
mod observe;
mod workspace;
