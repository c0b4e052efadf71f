//! libtmux-mcp's contract (`--profile python`, `schemas/profiles/python`, imported from
//! the server itself): one module per capability, like paneward's own handlers. Each
//! handler takes the profile's generated input, resolves Python's targeting arguments to
//! ids ([`target`]), calls paneward's own handler or gate, so every safety rule holds,
//! and builds the profile's generated output. The request path's own part (Pydantic's
//! arguments, Pydantic's full replies) is `crate::call::python`.

pub mod batch;
pub mod capture;
pub mod display;
pub mod filters;
pub mod input;
pub mod models;
pub mod observe;
pub mod run;
pub mod search;
pub mod served;
pub mod settings;
pub mod since;
pub mod spawn;
pub mod target;
pub mod wait;
pub mod workspace;
