//! Tests of `guard`: the safety rules, seen through the binary.

mod asking;
mod asking_current;
mod cohort;
mod gates;
mod granting;
mod scope;
