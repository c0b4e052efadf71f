//! What `select_layout` may send to tmux, decided before anything is sent.
//!
//! tmux 3.3a dies on some layout words: `select-layout` looks the word up as a preset
//! by prefix (`layout_set_lookup`), and a word that is no unique prefix goes to the
//! layout-string parser (`layout_parse`), which returns failure without setting its
//! error message when the word does not start with a hex digit; the caller then prints
//! and frees that unset pointer and the server crashes (fixed in 3.4, tmux commit
//! f10854cf). So `main`, `tiledd` or `main-vertical-mirrored` end every session of the
//! user. Only two kinds of word pass here:
//!
//! - a preset by its exact name, among those the running tmux has (the `-mirrored`
//!   ones arrived in 3.5);
//! - a layout string whose checksum holds and whose cells are exactly the window: the
//!   root is the window's size, every split adds up as tmux's `layout_check` wants, and
//!   the leaves name the window's panes in the window's pane order (tmux hands panes to
//!   cells in that order, ignoring the numbers, so a string naming them otherwise would
//!   place panes where it does not say). A root of another size would resize the
//!   window, so it is refused too.

use crate::limits::{LAYOUT_MAX_BYTES, LAYOUT_MAX_DEPTH};

/// The presets, each with the first tmux version (major, minor) that has it.
const PRESETS: [(&str, (u32, u32)); 7] = [
    ("even-horizontal", (0, 0)),
    ("even-vertical", (0, 0)),
    ("main-horizontal", (0, 0)),
    ("main-vertical", (0, 0)),
    ("tiled", (0, 0)),
    ("main-horizontal-mirrored", (3, 5)),
    ("main-vertical-mirrored", (3, 5)),
];

/// A tmux version as `#{version}` prints it (`3.3a`, `next-3.6`), major and minor.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Version(pub u32, pub u32);

impl Version {
    /// `None` for a version without a leading `major.minor` (`master`, `openbsd-7.4`).
    pub fn parse(text: &str) -> Option<Self> {
        let text = text.trim().strip_prefix("next-").unwrap_or(text.trim());
        let (major, rest) = text.split_once('.')?;
        let minor: String = rest.chars().take_while(char::is_ascii_digit).collect();
        Some(Self(major.parse().ok()?, minor.parse().ok()?))
    }
}

/// The window a layout string must describe.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WindowShape {
    pub width: u32,
    pub height: u32,
    /// The window's pane ids (the number after `%`), in the window's pane order.
    pub panes: Vec<u32>,
}

/// A layout that is safe to send.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Layout {
    Preset(&'static str),
    /// A checked layout string, as given.
    Custom(String),
}

impl Layout {
    pub fn as_str(&self) -> &str {
        match self {
            Self::Preset(name) => name,
            Self::Custom(text) => text,
        }
    }
}

/// The preset names `version` has, for messages.
fn presets_of(version: Option<Version>) -> Vec<&'static str> {
    PRESETS
        .iter()
        .filter(|(_, since)| version.is_some_and(|v| v >= Version(since.0, since.1)) || *since == (0, 0))
        .map(|(name, _)| *name)
        .collect()
}

/// Decides what `text` is, for a window shaped `window` on a tmux of `version`
/// (`version_text` as tmux printed it, for messages). The error is the rule broken.
///
/// # Errors
/// Anything but an exact preset of this tmux or a layout string of this window.
pub fn check(text: &str, version_text: &str, window: &WindowShape) -> Result<Layout, String> {
    let version = Version::parse(version_text);
    if let Some((name, since)) = PRESETS.iter().find(|(name, _)| *name == text) {
        let present = *since == (0, 0) || version.is_some_and(|v| v >= Version(since.0, since.1));
        return if present {
            Ok(Layout::Preset(name))
        } else {
            Err(format!(
                "preset {name} needs tmux {}.{} or later; this server runs tmux {version_text} (on 3.3a an unknown layout name crashes the server, so none is sent)",
                since.0, since.1
            ))
        };
    }
    if looks_like_layout_string(text) {
        return check_layout_string(text, window).map(|()| Layout::Custom(text.to_string()));
    }
    Err(format!(
        "must be an exact preset name of tmux {version_text} ({}) or a layout string such as get_window_info returns; prefixes and other words are refused (on tmux 3.3a they can crash the server)",
        presets_of(version).join(", ")
    ))
}

/// Four hex digits and a comma: what tmux reads as a checksum.
fn looks_like_layout_string(text: &str) -> bool {
    let bytes = text.as_bytes();
    bytes.len() > 5 && bytes[..4].iter().all(u8::is_ascii_hexdigit) && bytes[4] == b','
}

/// tmux's checksum of a layout body (layout-custom.c `layout_checksum`): a 16-bit
/// rotate right by one, then add the byte.
pub fn checksum(body: &str) -> u16 {
    body.bytes()
        .fold(0u16, |sum, byte| sum.rotate_right(1).wrapping_add(u16::from(byte)))
}

/// How a cell splits its space.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Split {
    /// `{...}`: children side by side.
    LeftRight,
    /// `[...]`: children stacked.
    TopBottom,
}

#[derive(Debug)]
struct Cell {
    width: u32,
    height: u32,
    x: u32,
    y: u32,
    kind: CellKind,
}

#[derive(Debug)]
enum CellKind {
    Pane(u32),
    Split(Split, Vec<Cell>),
}

/// Checks what a layout string says on its own, with no window to hold it to: its
/// checksum, its cells, and that every split adds up. Returns how many panes it lays
/// out.
///
/// # Errors
/// Not a layout string, or the first of these rules it breaks.
pub fn check_alone(text: &str) -> Result<usize, String> {
    if !looks_like_layout_string(text) {
        return Err("a layout string starts with a 4-hex-digit checksum and a comma".into());
    }
    let root = parsed(text)?;
    fits(&root)?;
    let mut panes = Vec::new();
    leaves(&root, &mut panes);
    Ok(panes.len())
}

/// The root cell of a layout string whose checksum holds.
fn parsed(text: &str) -> Result<Cell, String> {
    if text.len() > LAYOUT_MAX_BYTES {
        return Err(format!("a layout string is at most {LAYOUT_MAX_BYTES} bytes"));
    }
    let (sum, body) = text.split_at(4);
    let body = &body[1..];
    let given = u16::from_str_radix(sum, 16).map_err(|_| "the checksum must be 4 hex digits".to_string())?;
    let expected = checksum(body);
    if given != expected {
        return Err(format!(
            "the layout string's checksum is {sum} but its body sums to {expected:04x}; copy the string whole from get_window_info"
        ));
    }
    let mut parser = Parser { rest: body.as_bytes() };
    let root = parser.cell(0)?;
    if !parser.rest.is_empty() {
        return Err("the layout string has text after its last cell".into());
    }
    Ok(root)
}

fn check_layout_string(text: &str, window: &WindowShape) -> Result<(), String> {
    let root = parsed(text)?;
    if (root.width, root.height, root.x, root.y) != (window.width, window.height, 0, 0) {
        return Err(format!(
            "the layout's root cell is {}x{} at {},{} but the window is {}x{} at 0,0 (a layout of another size would resize the window)",
            root.width, root.height, root.x, root.y, window.width, window.height
        ));
    }
    fits(&root)?;
    let mut panes = Vec::new();
    leaves(&root, &mut panes);
    if panes != window.panes {
        let list = |ids: &[u32]| ids.iter().map(|id| format!("%{id}")).collect::<Vec<_>>().join(",");
        return Err(format!(
            "the layout's cells name panes {} but the window has {} {} (in this order, as tmux fills cells)",
            list(&panes),
            window.panes.len(),
            if window.panes.is_empty() {
                String::new()
            } else {
                list(&window.panes)
            },
        ));
    }
    Ok(())
}

/// The size (width, height) of pane `pane`'s cell in `layout`, a layout string tmux
/// printed; for a zoomed window `#{window_layout}` is the layout under the zoom.
pub fn pane_cell_size(layout: &str, pane: u32) -> Option<(u32, u32)> {
    fn find(cell: &Cell, pane: u32) -> Option<(u32, u32)> {
        match &cell.kind {
            CellKind::Pane(id) => (*id == pane).then_some((cell.width, cell.height)),
            CellKind::Split(_, children) => children.iter().find_map(|child| find(child, pane)),
        }
    }
    let body = layout.get(5..)?;
    let mut parser = Parser { rest: body.as_bytes() };
    find(&parser.cell(0).ok()?, pane)
}

/// Every split's children fill it exactly, at the right offsets (tmux's `layout_check`,
/// plus offsets, which tmux recomputes but a true copy of a layout has right).
fn fits(cell: &Cell) -> Result<(), String> {
    if cell.width == 0 || cell.height == 0 {
        return Err("a cell of the layout has no width or height".into());
    }
    let CellKind::Split(split, children) = &cell.kind else {
        return Ok(());
    };
    let mismatch = || {
        format!(
            "the cells inside the {}x{} cell at {},{} do not fill it exactly",
            cell.width, cell.height, cell.x, cell.y
        )
    };
    // (along the split, across it) for a cell: size and offset.
    let axes = |c: &Cell| match split {
        Split::LeftRight => ((c.width, c.x), (c.height, c.y)),
        Split::TopBottom => ((c.height, c.y), (c.width, c.x)),
    };
    let ((parent_along, parent_start), parent_across) = axes(cell);
    let mut next_start = u64::from(parent_start);
    for child in children {
        let ((along, start), across) = axes(child);
        if across != parent_across || u64::from(start) != next_start {
            return Err(mismatch());
        }
        // One cell of border between neighbours.
        next_start += u64::from(along) + 1;
        fits(child)?;
    }
    if next_start != u64::from(parent_start) + u64::from(parent_along) + 1 {
        return Err(mismatch());
    }
    Ok(())
}

fn leaves(cell: &Cell, out: &mut Vec<u32>) {
    match &cell.kind {
        CellKind::Pane(id) => out.push(*id),
        CellKind::Split(_, children) => children.iter().for_each(|child| leaves(child, out)),
    }
}

/// Reads cells: `WxH,X,Y` then `,ID` for a pane, or `{cells}` / `[cells]` for a split.
struct Parser<'a> {
    rest: &'a [u8],
}

impl Parser<'_> {
    fn number(&mut self) -> Result<u32, String> {
        let digits = self.rest.iter().take_while(|b| b.is_ascii_digit()).count();
        if digits == 0 || digits > 9 {
            return Err("the layout string has a malformed number where a size, offset or pane id belongs".into());
        }
        let (number, rest) = self.rest.split_at(digits);
        self.rest = rest;
        std::str::from_utf8(number)
            .ok()
            .and_then(|n| n.parse().ok())
            .ok_or_else(|| "the layout string has a malformed number".to_string())
    }

    fn expect(&mut self, byte: u8) -> Result<(), String> {
        match self.rest.split_first() {
            Some((first, rest)) if *first == byte => {
                self.rest = rest;
                Ok(())
            }
            _ => Err(format!(
                "the layout string is malformed: expected `{}` after {} bytes from the end",
                byte as char,
                self.rest.len()
            )),
        }
    }

    fn cell(&mut self, depth: usize) -> Result<Cell, String> {
        if depth > LAYOUT_MAX_DEPTH {
            return Err(format!("the layout nests cells deeper than {LAYOUT_MAX_DEPTH}"));
        }
        let width = self.number()?;
        self.expect(b'x')?;
        let height = self.number()?;
        self.expect(b',')?;
        let x = self.number()?;
        self.expect(b',')?;
        let y = self.number()?;
        let (split, close) = match self.rest.first() {
            Some(b',') => {
                self.rest = &self.rest[1..];
                let pane = self.number()?;
                return Ok(Cell {
                    width,
                    height,
                    x,
                    y,
                    kind: CellKind::Pane(pane),
                });
            }
            Some(b'{') => (Split::LeftRight, b'}'),
            Some(b'[') => (Split::TopBottom, b']'),
            _ => return Err("every cell of the layout string needs a pane id (`,N`) or cells in {} or []".into()),
        };
        self.rest = &self.rest[1..];
        let mut children = vec![self.cell(depth + 1)?];
        while self.rest.first() == Some(&b',') {
            self.rest = &self.rest[1..];
            children.push(self.cell(depth + 1)?);
        }
        self.expect(close)?;
        Ok(Cell {
            width,
            height,
            x,
            y,
            kind: CellKind::Split(split, children),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn window(width: u32, height: u32, panes: &[u32]) -> WindowShape {
        WindowShape {
            width,
            height,
            panes: panes.to_vec(),
        }
    }

    /// A body with its checksum, as tmux writes it.
    fn signed(body: &str) -> String {
        format!("{:04x},{body}", checksum(body))
    }

    #[test]
    fn the_checksum_is_tmuxs_own() {
        // Strings tmux 3.3a printed for #{window_layout}.
        assert_eq!(checksum("80x24,0,0,0"), 0xb25d);
        assert_eq!(checksum("80x24,0,0{40x24,0,0,0,39x24,41,0,1}"), 0x8205);
    }

    #[test]
    fn only_exact_presets_of_the_running_version_pass() {
        let w = window(80, 24, &[1, 2]);
        assert_eq!(check("tiled", "3.3a", &w), Ok(Layout::Preset("tiled")));
        for word in ["main", "tiledd", "tile", "main-verticalZ", "", "bogus", "even", "Tiled"] {
            assert!(check(word, "3.3a", &w).is_err(), "{word:?} passed");
        }
        let error = check("main-vertical-mirrored", "3.3a", &w).unwrap_err();
        assert!(error.contains("needs tmux 3.5"), "{error}");
        assert!(check("main-vertical-mirrored", "3.5a", &w).is_ok());
        assert!(check("main-vertical-mirrored", "next-3.6", &w).is_ok());
        assert!(check("main-vertical-mirrored", "master", &w).is_err());
        assert!(check("even-vertical", "master", &w).is_ok());
    }

    #[test]
    fn a_layout_string_passes_only_with_its_checksum_and_the_windows_panes() {
        let body = "80x24,0,0{40x24,0,0,1,39x24,41,0,2}";
        let w = window(80, 24, &[1, 2]);
        assert!(check(&signed(body), "3.3a", &w).is_ok());
        let error = check(&format!("0000,{body}"), "3.3a", &w).unwrap_err();
        assert!(error.contains("checksum"), "{error}");
        let error = check(&signed(body), "3.3a", &window(80, 24, &[1, 2, 3])).unwrap_err();
        assert!(error.contains("window has 3"), "{error}");
        let error = check(&signed(body), "3.3a", &window(80, 24, &[2, 1])).unwrap_err();
        assert!(error.contains("in this order"), "{error}");
        let error = check(&signed(body), "3.3a", &window(100, 24, &[1, 2])).unwrap_err();
        assert!(error.contains("resize the window"), "{error}");
    }

    #[test]
    fn cells_must_fill_their_split_exactly() {
        let w = window(80, 24, &[1, 2]);
        for body in [
            "80x24,0,0{40x24,0,0,1,40x24,41,0,2}",
            "80x24,0,0{40x24,0,0,1,39x23,41,0,2}",
            "80x24,0,0{40x24,0,0,1,39x24,40,0,2}",
            "80x24,0,0[40x24,0,0,1,39x24,41,0,2]",
            "80x24,0,0{40x24,0,0,1,39x24,41,0,2",
            "80x24,0,0{40x24,0,0,1,39x24,41,0,2}x",
            "80x24,0,0{40x24,0,0,1,39x24,41,0}",
        ] {
            assert!(check(&signed(body), "3.3a", &w).is_err(), "{body} passed");
        }
        let nested = "80x24,0,0[80x12,0,0{40x12,0,0,1,39x12,41,0,2},80x11,0,13,3]";
        assert!(check(&signed(nested), "3.3a", &window(80, 24, &[1, 2, 3])).is_ok());
    }

    #[test]
    fn deep_nesting_is_refused_without_recursing_far() {
        let body = "1x1,0,0{".repeat(200);
        let error = check(&signed(&body), "3.3a", &window(1, 1, &[1])).unwrap_err();
        assert!(error.contains("deeper"), "{error}");
    }

    #[test]
    fn a_panes_cell_size_is_found_in_a_layout() {
        let layout = signed("80x24,0,0[80x12,0,0{40x12,0,0,1,39x12,41,0,2},80x11,0,13,3]");
        assert_eq!(pane_cell_size(&layout, 2), Some((39, 12)));
        assert_eq!(pane_cell_size(&layout, 3), Some((80, 11)));
        assert_eq!(pane_cell_size(&layout, 4), None);
    }

    #[test]
    fn versions_read_as_tmux_prints_them() {
        assert_eq!(Version::parse("3.3a"), Some(Version(3, 3)));
        assert_eq!(Version::parse("next-3.6"), Some(Version(3, 6)));
        assert_eq!(Version::parse("3.10"), Some(Version(3, 10)));
        assert_eq!(Version::parse("master"), None);
    }
}
