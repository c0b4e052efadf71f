//! The request path's part of `--profile python`: arguments taken and refused as
//! libtmux-mcp's Pydantic takes and refuses them ([`arguments`]), replies written with
//! every field Pydantic writes ([`reply`]), and results written as its FastMCP server
//! writes them ([`fastmcp`]), and what `initialize` tells its clients ([`instructions`]). The handlers are `crate::tools::python`.

pub mod arguments;
pub mod fastmcp;
pub mod instructions;
pub mod reply;
