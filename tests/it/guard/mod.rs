//! Tests of `guard`: the safety rules, seen through the binary.

mod asking;
mod asking_current;
mod attended;
mod cohort;
mod gates;
mod granting;
mod scope;
