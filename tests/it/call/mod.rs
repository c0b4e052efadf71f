//! Tests of `call`: the request path (tiers, errors, the audit log).

mod audit;
mod errors;
mod surface;
mod tiers;
