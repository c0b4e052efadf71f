//! `search_panes`: which panes show a text or a regular expression, and on which rows.
//!
//! The pattern never reaches tmux: tmux formats run `#(...)` as a shell command, and its
//! own search modifiers would put caller text in one. paneward lists the panes, reads
//! every screen, and matches in Rust. The screens are read with no separator between
//! the captures, cut by the pane heights (see `counted_captures`); the last search's
//! listing saves the listing's own round trip while the panes stay as they were.

use crate::limits::{
    REGEX_MAX_COMPILED_BYTES, REGEX_MAX_DFA_BYTES, REGEX_MAX_NESTING, SEARCH_DEFAULT_MATCHES_PER_PANE,
    SEARCH_DEFAULT_PANES, SEARCH_MAX_PANES, SEARCH_MAX_PER_REQUEST, SEARCH_READ_ATTEMPTS, TEXT_MAX_BYTES,
};
use std::borrow::Cow;

use regex::{Regex, RegexBuilder};

use crate::generated::types::{
    SearchPanesInput, SearchPanesInputDetail, SearchPanesOutput, SearchPanesOutputPanesItem,
    SearchPanesOutputPanesItemMatchesItem,
};
use crate::guard::ReadGate;
use crate::runtime::error::ToolError;
use crate::tmux::format::{parse_records, record_format, Record};
use crate::tmux::{PaneId, ReadCommand, ReadVerb, TmuxError};
use crate::tools::args;
use crate::tools::observe::pane_state::capture;
use crate::tools::observe::rows::Detail;
use crate::tools::observe::text::capture_rows;

/// Where a pane sits, for the reply, and how many rows its capture prints.
const FIELDS: [&str; 8] = [
    "pane_id",
    "pane_height",
    "pane_index",
    "window_id",
    "window_index",
    "session_id",
    "session_name",
    "window_name",
];

/// A pattern matched against one row at a time, literally or as a bounded regex.
pub(crate) enum Matcher {
    /// A literal, its searcher built once for every row it meets.
    Literal(Box<memchr::memmem::Finder<'static>>),
    Regex(Regex),
}

impl Matcher {
    /// Compiles `pattern`; `field` names it in errors.
    ///
    /// # Errors
    /// An empty pattern, or a regex that does not parse or is too large.
    pub(crate) fn new(field: &str, pattern: &str, regex: bool) -> Result<Self, ToolError> {
        Self::with_case(field, pattern, regex, true)
    }

    /// [`Matcher::new`], ignoring case (Unicode's simple folding) unless `match_case`:
    /// a literal pattern is then matched as an escaped regex.
    ///
    /// # Errors
    /// As [`Matcher::new`].
    pub(crate) fn with_case(field: &str, pattern: &str, regex: bool, match_case: bool) -> Result<Self, ToolError> {
        if pattern.is_empty() {
            return Err(ToolError::invalid_argument(field, "must not be empty"));
        }
        if !regex && match_case {
            let finder = memchr::memmem::Finder::new(pattern.as_bytes()).into_owned();
            return Ok(Self::Literal(Box::new(finder)));
        }
        let source = if regex {
            pattern.to_string()
        } else {
            regex::escape(pattern)
        };
        RegexBuilder::new(&source)
            .case_insensitive(!match_case)
            .size_limit(REGEX_MAX_COMPILED_BYTES)
            .dfa_size_limit(REGEX_MAX_DFA_BYTES)
            .nest_limit(REGEX_MAX_NESTING)
            .build()
            .map(Self::Regex)
            .map_err(|e| ToolError::invalid_argument(field, regex_problem(&e)))
    }

    pub(crate) fn is_match(&self, row: &str) -> bool {
        match self {
            Self::Literal(text) => text.find(row.as_bytes()).is_some(),
            Self::Regex(regex) => regex.is_match(row),
        }
    }
}

/// A short reason for a rejected regex, without echoing the (possibly long) pattern.
fn regex_problem(error: &regex::Error) -> String {
    match error {
        regex::Error::CompiledTooBig(limit) => {
            format!("is too complex a regular expression (its compiled form exceeds {limit} bytes); simplify it")
        }
        other => {
            let text = other.to_string();
            let reason = text
                .lines()
                .find_map(|line| line.trim().strip_prefix("error: "))
                .unwrap_or("cannot be parsed");
            format!("is not a valid regular expression: {reason}")
        }
    }
}

/// A listed pane and its screen as tmux printed it.
struct Screen {
    place: SearchPanesOutputPanesItem,
    capture: Vec<u8>,
}

/// The rows a pane's screen capture prints.
fn height(record: &Record<'_>) -> Result<usize, TmuxError> {
    record
        .count("pane_height")
        .map(|rows| usize::try_from(rows).unwrap_or(usize::MAX))
}

fn place(record: &Record<'_>) -> Result<SearchPanesOutputPanesItem, TmuxError> {
    let index = |name: &str| record.int(name).map(|n| u64::try_from(n).unwrap_or(0));
    Ok(SearchPanesOutputPanesItem {
        pane_id: record.text("pane_id")?.to_string(),
        pane_index: Some(index("pane_index")?),
        window_id: Some(record.text("window_id")?.to_string()),
        window_index: Some(index("window_index")?),
        window_name: Some(record.text("window_name")?.to_string()),
        session_id: Some(record.text("session_id")?.to_string()),
        session_name: Some(record.text("session_name")?.to_string()),
        match_count: None,
        matches: Vec::new(),
        truncated: None,
        truncated_lines: None,
    })
}

/// The listing of every pane a search reads: where each sits, and its height.
fn listing() -> ReadCommand {
    ReadCommand::new(ReadVerb::ListPanes)
        .arg("-a")
        .arg("-F")
        .arg(record_format(&FIELDS))
}

/// A listing of every pane, parsed: what to capture, and where each capture belongs.
struct Plan {
    /// Every pane's id and height, in tmux's order: what the captures are cut by.
    every_pane: Vec<(String, usize)>,
    /// The lines the listing printed.
    listed_lines: usize,
    /// The first [`SEARCH_MAX_PANES`] panes: their places and captures.
    places: Vec<SearchPanesOutputPanesItem>,
    captures: Vec<ReadCommand>,
    /// The panes past [`SEARCH_MAX_PANES`], left unread.
    left_out: usize,
}

impl Plan {
    fn of(listing: &str) -> Result<Self, TmuxError> {
        let records = parse_records("list-panes", &FIELDS, listing)?;
        let every_pane = records
            .iter()
            .map(|record| Ok((record.text("pane_id")?.to_string(), height(record)?)))
            .collect::<Result<Vec<_>, TmuxError>>()?;
        let mut plan = Self {
            listed_lines: listing.bytes().filter(|&b| b == b'\n').count(),
            places: Vec::with_capacity(every_pane.len().min(SEARCH_MAX_PANES)),
            captures: Vec::with_capacity(every_pane.len().min(SEARCH_MAX_PANES)),
            left_out: every_pane.len().saturating_sub(SEARCH_MAX_PANES),
            every_pane,
        };
        for record in records.iter().take(SEARCH_MAX_PANES) {
            let item = place(record)?;
            let id: PaneId = item.pane_id.parse().map_err(|e| TmuxError::Protocol {
                command: "list-panes".into(),
                detail: format!("pane_id {e}"),
            })?;
            plan.captures.push(capture(id, false));
            plan.places.push(item);
        }
        Ok(plan)
    }

    /// The screens read by this plan's captures, one output each.
    fn screens(self, outputs: Vec<Vec<u8>>) -> (Vec<Screen>, usize) {
        let screens = self
            .places
            .into_iter()
            .zip(outputs)
            .map(|(place, capture)| Screen { place, capture })
            .collect();
        (screens, self.left_out)
    }
}

/// The captures of `plan` as bare commands, led by the listing again: one
/// `capture-pane` per pane for tmux to run, half the commands of a separated chain, cut
/// by the heights `plan` holds. tmux runs the chain without a pause, so the listing
/// gives the heights the captures had. Returns that listing and the captures; the
/// caller keeps them only if it lists the panes and heights the plan did. `None`: the
/// output did not cut by the plan's counts (the panes changed).
async fn counted_captures(gate: &ReadGate<'_>, plan: &Plan) -> Result<Option<(String, Vec<Vec<u8>>)>, TmuxError> {
    let mut commands = vec![listing()];
    commands.extend_from_slice(&plan.captures);
    let mut lines = vec![plan.listed_lines];
    lines.extend(
        plan.every_pane
            .iter()
            .take(plan.captures.len())
            .map(|(_, height)| *height),
    );
    match gate.run_counted(&commands, lines).await {
        Ok(mut outputs) if !outputs.is_empty() => {
            let listed = String::from_utf8_lossy(&outputs.remove(0)).into_owned();
            Ok(Some((listed, outputs)))
        }
        Ok(_) | Err(TmuxError::Protocol { .. }) => Ok(None),
        Err(error) => Err(error),
    }
}

/// Lists the panes and reads their screens. The listing the last search read is the
/// guess: when tmux still lists those panes at those heights, this is one round trip
/// (a listing and every capture); otherwise it lists first, two round trips however
/// many panes there are. Returns the screens and how many panes were left unread.
async fn read_screens(gate: &ReadGate<'_>) -> Result<(Vec<Screen>, usize), ToolError> {
    let kept = &gate.state().last_listing;
    let mut guess = kept.take();
    // A guess that no longer holds costs a round of its own.
    let rounds = SEARCH_READ_ATTEMPTS + usize::from(guess.is_some());
    for round in 1..=rounds {
        let last = round == rounds;
        let guessed = guess.is_some();
        let listed = match guess.take() {
            Some(listed) => listed,
            None => String::from_utf8_lossy(&gate.run(listing()).await?).into_owned(),
        };
        let plan = Plan::of(&listed)?;
        if plan.captures.is_empty() {
            kept.keep(listed);
            return Ok(plan.screens(Vec::new()));
        }
        match counted_captures(gate, &plan).await {
            // The panes as planned, listed as they were: nothing to parse again.
            Ok(Some((now, outputs))) if now == listed => {
                kept.keep(now);
                return Ok(plan.screens(outputs));
            }
            // Only names changed: the captures hold, and the places are tmux's new ones.
            Ok(Some((now, outputs))) => {
                if let Some(fresh) = Plan::of(&now).ok().filter(|fresh| fresh.every_pane == plan.every_pane) {
                    kept.keep(now);
                    return Ok(fresh.screens(outputs));
                }
            }
            Ok(None) => {}
            // tmux stops a chain at the first failure: a pane that closed since the
            // listing fails them all, so list again.
            Err(error) if error.is_object_gone() && !last => continue,
            Err(error) => return Err(error.into()),
        }
        // Panes came, went or resized since the listing. A guess is dropped for a
        // fresh listing; a fresh one is read with separators, which need no heights.
        if guessed {
            continue;
        }
        match gate.run_all(&plan.captures).await {
            Ok(outputs) => return Ok(plan.screens(outputs)),
            Err(error) if error.is_object_gone() && !last => {}
            Err(error) => return Err(error.into()),
        }
    }
    Err(ToolError::internal("search_panes ran out of rounds without a reply"))
}

/// `search_panes`: see the tool's description in `schemas/tools/search_panes.json`.
///
/// # Errors
/// An empty or invalid pattern, a limit out of range, or tmux failing.
pub async fn search_panes(gate: &ReadGate<'_>, input: SearchPanesInput) -> Result<SearchPanesOutput, ToolError> {
    let SearchPanesInput {
        detail,
        max_lines,
        max_matches_per_pane,
        pattern,
        regex,
    } = input;
    let max_panes = args::count("/max_lines", max_lines, SEARCH_DEFAULT_PANES, SEARCH_MAX_PER_REQUEST)?;
    let max_matches = args::count(
        "/max_matches_per_pane",
        max_matches_per_pane,
        SEARCH_DEFAULT_MATCHES_PER_PANE,
        SEARCH_MAX_PER_REQUEST,
    )?;
    let matcher = Matcher::new("/pattern", &pattern, regex.unwrap_or(false))?;
    let (screens, panes_not_searched) = read_screens(gate).await?;
    let found = collect(&matcher, screens, panes_not_searched, max_panes, max_matches);
    Ok(found.reply(Detail::from_full(matches!(detail, Some(SearchPanesInputDetail::Full)))))
}

/// What a search found, every count kept, before the reply's detail is chosen.
struct Found {
    panes: Vec<SearchPanesOutputPanesItem>,
    panes_searched: u64,
    panes_not_searched: u64,
    matching_panes: u64,
    truncated_panes: u64,
    truncated_lines: u64,
    truncated_bytes: u64,
}

impl Found {
    /// The reply: brief rows keep the pane's id and rows, and leave out where it sits
    /// (list_panes says) and the zero counts.
    fn reply(self, detail: Detail) -> SearchPanesOutput {
        let panes = self
            .panes
            .into_iter()
            .map(|pane| match detail {
                Detail::Full => pane,
                Detail::Brief => SearchPanesOutputPanesItem {
                    pane_index: None,
                    window_id: None,
                    window_index: None,
                    window_name: None,
                    session_id: None,
                    session_name: None,
                    match_count: None,
                    truncated: None,
                    truncated_lines: pane.truncated_lines.and_then(|n| detail.count(n)),
                    ..pane
                },
            })
            .collect();
        SearchPanesOutput {
            panes,
            panes_searched: self.panes_searched,
            matching_panes: self.matching_panes,
            panes_not_searched: detail.count(self.panes_not_searched),
            truncated: detail.flag(self.truncated_panes > 0 || self.truncated_lines > 0),
            truncated_panes: detail.count(self.truncated_panes),
            truncated_lines: detail.count(self.truncated_lines),
            truncated_bytes: detail.count(self.truncated_bytes),
        }
    }
}

/// Matches every screen and keeps what fits: `max_panes` panes in tmux's order,
/// `max_matches` rows each (the lowest), [`TEXT_MAX_BYTES`] of rows in all.
fn collect(
    matcher: &Matcher,
    screens: Vec<Screen>,
    panes_not_searched: usize,
    max_panes: usize,
    max_matches: usize,
) -> Found {
    let panes_searched = screens.len();
    let mut out = Found {
        panes: Vec::new(),
        panes_searched: panes_searched as u64,
        panes_not_searched: panes_not_searched as u64,
        matching_panes: 0,
        truncated_panes: 0,
        truncated_lines: 0,
        truncated_bytes: 0,
    };
    let mut budget = TEXT_MAX_BYTES;
    for Screen { mut place, capture } in screens {
        let text = String::from_utf8_lossy(&capture);
        let matching: Vec<(usize, Cow<'_, str>)> = capture_rows(&text)
            .into_iter()
            .enumerate()
            .filter(|(_, row)| matcher.is_match(row))
            .collect();
        if matching.is_empty() {
            continue;
        }
        out.matching_panes += 1;
        if out.panes.len() == max_panes {
            out.truncated_panes += 1;
            continue;
        }
        // Keep the lowest rows (the newest output) that fit both limits.
        let mut keep = 0;
        let mut kept_bytes = 0;
        for (_, row) in matching.iter().rev() {
            if keep == max_matches || kept_bytes + row.len() + 1 > budget {
                break;
            }
            kept_bytes += row.len() + 1;
            keep += 1;
        }
        if keep == 0 {
            out.truncated_panes += 1;
            continue;
        }
        budget -= kept_bytes;
        let cut = matching.len() - keep;
        let cut_bytes: usize = matching[..cut].iter().map(|(_, row)| row.len() + 1).sum();
        place.match_count = Some(matching.len() as u64);
        place.truncated = Some(cut > 0);
        place.truncated_lines = Some(cut as u64);
        place.matches = matching
            .into_iter()
            .skip(cut)
            .map(|(row, line)| SearchPanesOutputPanesItemMatchesItem {
                row: row as u64,
                line: line.into_owned(),
            })
            .collect();
        out.truncated_lines += cut as u64;
        out.truncated_bytes += cut_bytes as u64;
        out.panes.push(place);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pattern_ignores_case_only_when_asked_and_a_literal_stays_literal() {
        let literal = Matcher::with_case("/p", "a.B", false, false).unwrap();
        assert!(literal.is_match("xA.bx") && !literal.is_match("axb"));
        let cased = Matcher::with_case("/p", "a.B", false, true).unwrap();
        assert!(cased.is_match("a.B") && !cased.is_match("A.b"));
        let regex = Matcher::with_case("/p", "^t+ick$", true, false).unwrap();
        assert!(regex.is_match("TTICK") && !regex.is_match("a tick"));
    }

    fn screen(id: u32, rows: &[&str]) -> Screen {
        Screen {
            place: SearchPanesOutputPanesItem {
                pane_id: format!("%{id}"),
                pane_index: Some(0),
                window_id: Some("@1".into()),
                window_index: Some(0),
                window_name: Some("w".into()),
                session_id: Some("$0".into()),
                session_name: Some("s".into()),
                match_count: None,
                matches: Vec::new(),
                truncated: None,
                truncated_lines: None,
            },
            capture: rows
                .iter()
                .map(|row| format!("{row}\n"))
                .collect::<String>()
                .into_bytes(),
        }
    }

    #[test]
    fn the_lowest_rows_are_kept_and_the_cut_is_counted() {
        let matcher = Matcher::new("/pattern", "x", false).unwrap();
        let screens = vec![
            screen(1, &["x1", "no", "x2", "x3"]),
            screen(2, &["nothing"]),
            screen(3, &["x"]),
            screen(4, &["x"]),
        ];
        let out = collect(&matcher, screens, 0, 2, 2).reply(Detail::Full);
        assert_eq!(out.panes.len(), 2);
        let first = &out.panes[0];
        assert_eq!((first.match_count, first.truncated_lines), (Some(3), Some(1)));
        let rows: Vec<(u64, &str)> = first.matches.iter().map(|m| (m.row, m.line.as_str())).collect();
        assert_eq!(rows, [(2, "x2"), (3, "x3")]);
        assert_eq!(out.matching_panes, 3);
        assert_eq!(out.truncated_panes, Some(1));
        assert_eq!((out.truncated_lines, out.truncated_bytes), (Some(1), Some(3)));
        assert_eq!(out.truncated, Some(true));
        assert_eq!(out.panes[1].truncated_lines, Some(0));
    }

    #[test]
    fn a_brief_reply_keeps_ids_rows_and_cuts_but_no_zeros_or_names() {
        let matcher = Matcher::new("/pattern", "x", false).unwrap();
        let screens = vec![screen(1, &["x1", "x2", "x3"]), screen(3, &["x"])];
        let out = collect(&matcher, screens, 0, 5, 2).reply(Detail::Brief);
        let [cut, whole] = &out.panes[..] else {
            panic!("two panes expected: {out:?}");
        };
        assert_eq!((cut.pane_id.as_str(), &cut.window_id), ("%1", &None));
        assert_eq!((cut.truncated_lines, whole.truncated_lines), (Some(1), None));
        assert_eq!(whole.matches.len(), 1);
        assert!(whole.window_name.is_none() && whole.session_id.is_none() && whole.match_count.is_none());
        assert_eq!(
            (out.truncated, out.truncated_panes, out.panes_not_searched),
            (Some(true), None, None)
        );
    }

    #[test]
    fn a_bad_regex_names_the_pattern_and_the_problem() {
        let Err(error) = Matcher::new("/pattern", "(unclosed", true) else {
            panic!("accepted");
        };
        let text = error.to_string();
        assert!(
            text.starts_with("invalid arguments: /pattern: is not a valid regular expression"),
            "{text}"
        );
        assert!(text.contains("unclosed group") && !text.contains("^"), "{text}");
        let Err(error) = Matcher::new("/pattern", "(?:a{1000}){1000}", true) else {
            panic!("accepted");
        };
        assert!(error.to_string().contains("too complex"), "{error}");
        assert!(Matcher::new("/pattern", "", false).is_err());
    }

    #[test]
    fn a_literal_pattern_is_not_a_regex() {
        let matcher = Matcher::new("/pattern", "a.c", false).unwrap();
        assert!(matcher.is_match("xa.cx") && !matcher.is_match("abc"));
    }
}
