//! Tests of `guard`: the safety rules, seen through the binary.

mod asking;
mod cohort;
mod gates;
mod scope;
