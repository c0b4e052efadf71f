//! Tests of `tools::workspace`: creating, arranging, moving and ending; and of the
//! workspace documents (`load_workspace`, `freeze_workspace`, in `tools::batch`).

mod arrange;
mod create;
mod document;
mod end;
mod layout;
mod moves;
mod scrollback;
