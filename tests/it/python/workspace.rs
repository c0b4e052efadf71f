//! `--profile python`: the workspace tools.
