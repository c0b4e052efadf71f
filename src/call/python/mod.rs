//! The request path's part of `--profile python`: arguments taken and refused as
//! libtmux-mcp's Pydantic takes and refuses them ([`arguments`]), and replies written
//! with every field Pydantic writes ([`reply`]). The handlers are `crate::tools::python`.

pub mod arguments;
pub mod reply;
