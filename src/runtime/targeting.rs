//! The targeting arguments a profile's input may carry, under libtmux's names
//! (`socket_name`, `session_name`, `session_id`, `window_id`, `window_index`,
//! `pane_id`), borrowed from the input. The build implements [`Targeted`] for every
//! profile input whose schema has any of them (`paneward-codegen`'s `targeting`), so an
//! adapter reads any input's targeting the same way, and a field renamed in a schema
//! breaks the build rather than a call.

/// The targeting arguments of one call; a field the input lacks, or left out, is `None`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Targeting<'a> {
    pub socket_name: Option<&'a str>,
    pub session_name: Option<&'a str>,
    pub session_id: Option<&'a str>,
    pub window_id: Option<&'a str>,
    /// A window index, as Python takes it: a string (`"1"`).
    pub window_index: Option<&'a str>,
    pub pane_id: Option<&'a str>,
}

/// An input that names its target with some of [`Targeting`]'s fields (generated).
pub trait Targeted {
    /// The input's targeting arguments, borrowed.
    fn targeting(&self) -> Targeting<'_>;
}

/// A targeting field as the generated type holds it: required (`String`) or optional
/// (`Option<String>`); the generated impls read both alike.
pub trait TargetField {
    fn target(&self) -> Option<&str>;
}

impl TargetField for String {
    fn target(&self) -> Option<&str> {
        Some(self)
    }
}

impl TargetField for Option<String> {
    fn target(&self) -> Option<&str> {
        self.as_deref()
    }
}
