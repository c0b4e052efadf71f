//! paneward's tool contracts, shared by the code generator (`paneward-codegen`, run by
//! `build.rs`) and by paneward itself (`paneward conform`, the runtime's tiers).
//!
//! [`load`] reads and checks the tool files of `schemas/tools` (every problem named by
//! file and JSON pointer, [`ContractError`]), [`shape`] refuses the JSON Schema the
//! generator cannot turn into Rust, [`reply`] keeps a reply's schema a description,
//! [`Tier`] is the safety tier a tool file declares (raised for some argument values by
//! [`escalation`]),
//! [`facts`] are what the guards and batches know of a tool beyond its contract (what
//! it reaches, pane text, batches, dry runs; [`template`] the dry run's text),
//! [`pointer`](mod@pointer) escapes JSON pointer tokens (and cuts quoted text), and [`client`] lists the tools a running MCP
//! server advertises. Deliberately small: no code generation here, so that paneward does
//! not compile typify or syn to use it.

pub mod client;
pub mod error;
pub mod escalation;
pub mod facts;
pub mod load;
pub mod names;
pub mod pointer;
pub mod reply;
pub mod shape;
pub mod surface;
pub mod template;
pub mod tier;
pub mod toolset;

pub use error::ContractError;
pub use escalation::Escalation;
pub use facts::{BatchRefusal, CloseBy, FleetRoute, Reach};
pub use load::ToolFile;
pub use pointer::{excerpt, pointer_token};
pub use tier::{Tier, UnknownTier};
pub use toolset::{AccessClass, Toolset};
