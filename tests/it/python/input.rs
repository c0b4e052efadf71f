//! `--profile python`: the input tools.
