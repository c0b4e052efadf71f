//! The generated Rust for a fixture contract is locked by a golden snapshot, so a
//! change in typify's output or in our emitter shows up as a reviewable diff.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // helpers outside #[test] fns

use std::path::Path;

#[test]
fn the_fixture_contract_generates_the_locked_source() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/tools");
    let source = paneward_codegen::generate_from_dir(&dir).unwrap();
    insta::with_settings!({snapshot_path => "../snapshots", prepend_module_to_snapshot => false}, {
        insta::assert_snapshot!("output__fixture_tools_rs", source);
    });
}
