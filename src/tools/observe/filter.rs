//! The optional filters of `list_sessions`, `list_windows` and `list_panes`, applied
//! here, to the parsed objects. None of them reaches tmux: a name, command or path
//! typed by the caller in a `-f` condition would be read as format syntax, and the
//! fixed conditions (dead, active) are as cheap to test here as there.

use std::path::Path;

use crate::limits::LISTED_MAX_ITEMS;
use crate::runtime::error::ToolError;
use crate::tools::observe::objects::count;

/// A narrowed list as the replies report it.
pub struct Narrowed<T> {
    /// The items that passed, at most [`LISTED_MAX_ITEMS`].
    pub items: Vec<T>,
    /// Every item listed, before the filters.
    pub total: i64,
    /// Items the filters left out.
    pub filtered_out: i64,
    /// Some items that passed were left out by the cap.
    pub truncated: bool,
}

/// The items of `listed` that `keep` accepts, in order, capped.
pub fn narrowed<T>(listed: Vec<T>, keep: impl Fn(&T) -> bool) -> Narrowed<T> {
    let total = listed.len();
    let mut items: Vec<T> = listed.into_iter().filter(|item| keep(item)).collect();
    let filtered_out = total - items.len();
    let truncated = items.len() > LISTED_MAX_ITEMS;
    items.truncate(LISTED_MAX_ITEMS);
    Narrowed {
        items,
        total: count(total),
        filtered_out: count(filtered_out),
        truncated,
    }
}

/// Whether an optional filter on a value passes: no filter passes everything.
pub fn passes<T: PartialEq + ?Sized>(wanted: Option<&T>, value: &T) -> bool {
    wanted.is_none_or(|wanted| wanted == value)
}

/// A `path_under` filter: an absolute folder, compared by whole path components.
pub struct Folder(std::path::PathBuf);

impl Folder {
    /// Reads the argument at `pointer`.
    ///
    /// # Errors
    /// A path that is not absolute (relative to what would be a guess).
    pub fn parse(pointer: &str, text: &str) -> Result<Self, ToolError> {
        if !text.starts_with('/') {
            return Err(ToolError::invalid_argument(
                pointer,
                "must be an absolute folder, starting with /",
            ));
        }
        Ok(Self(Path::new(text).to_path_buf()))
    }

    /// Whether `path` is this folder or inside it: `/srv/app` holds `/srv/app/web`,
    /// not `/srv/application`.
    pub fn holds(&self, path: &str) -> bool {
        Path::new(path).starts_with(&self.0)
    }
}

/// A `path_under` filter that may be absent.
///
/// # Errors
/// As [`Folder::parse`].
pub fn folder(pointer: &str, text: Option<&str>) -> Result<Option<Folder>, ToolError> {
    text.map(|text| Folder::parse(pointer, text)).transpose()
}

/// Whether an optional `path_under` filter passes `path`.
pub fn under(folder: Option<&Folder>, path: &str) -> bool {
    folder.is_none_or(|folder| folder.holds(path))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_folder_holds_itself_and_what_is_below_it_by_whole_components() {
        let folder = Folder::parse("/path_under", "/srv/app").unwrap();
        assert!(folder.holds("/srv/app"));
        assert!(folder.holds("/srv/app/web"));
        assert!(!folder.holds("/srv/application"));
        assert!(!folder.holds("/srv"));
        let slashed = Folder::parse("/path_under", "/srv/app/").unwrap();
        assert!(slashed.holds("/srv/app/web"));
    }

    #[test]
    fn a_relative_folder_is_refused_naming_the_field() {
        let error = Folder::parse("/path_under", "srv").err().unwrap();
        assert!(error.message().contains("/path_under"), "{}", error.message());
    }

    #[test]
    fn narrowing_counts_what_it_left_out_and_caps_what_passed() {
        let narrowed = narrowed((0..LISTED_MAX_ITEMS + 10).collect(), |n| n % 2 == 0);
        assert_eq!(narrowed.total, count(LISTED_MAX_ITEMS + 10));
        assert_eq!(narrowed.filtered_out, count((LISTED_MAX_ITEMS + 10) / 2));
        assert!(!narrowed.truncated);
        let all = super::narrowed((0..LISTED_MAX_ITEMS + 1).collect(), |_| true);
        assert!(all.truncated);
        assert_eq!(all.items.len(), LISTED_MAX_ITEMS);
    }
}
