//! `--profile python`: the observe tools.
