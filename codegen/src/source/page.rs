//! Documentation pages: the markdown rendering (fenced ```` ```json ```` blocks under
//! "Input schema", "Output schema" and "Tool annotations") and the plain-text rendering
//! (the same headings, each followed by bare JSON).
//!
//! The JSON blocks are the contract; the prose around them is only read for what the
//! blocks lack. Rules, in the order they are tried:
//! - name: the first `# name` heading, else the page's first line if it is one word;
//! - description: the `> …` quote, else the paragraph just before the
//!   "All … tools · JSON · Source" navigation line;
//! - title: the annotations' `title`;
//! - annotations: the "Tool annotations" block, else an "Annotations" heading followed by
//!   a list of `` `hintName` `` / `` `value` `` pairs;
//! - a schema rendered twice: the copy under a "Protocol data" heading.

use std::path::Path;

use serde_json::{Map, Value};

use super::{ContractTool, Origin};
use crate::error::CodegenError;

/// The headings that introduce the JSON blocks, as matched (case-insensitively).
const INPUT: &str = "Input schema";
const OUTPUT: &str = "Output schema";
const ANNOTATIONS: &str = "Tool annotations";
/// The heading of the section whose copy wins when a page renders a schema twice.
const PROTOCOL_DATA: &str = "protocol data";

/// One line of the page.
struct Line<'a> {
    /// 1-based, for messages.
    number: usize,
    /// Without the line ending.
    text: &'a str,
    /// Byte offset of the line's start in the page.
    offset: usize,
}

/// A JSON block found under a heading.
struct Block {
    value: Value,
    heading_line: usize,
    in_protocol_data: bool,
}

/// Reads the one tool a documentation page describes.
///
/// # Errors
/// The page lacks a name, a description, an input or output schema or annotations, a
/// block is not a JSON object, or a schema is rendered twice with different content and
/// none of the copies is marked "Protocol data". Each message names what is missing and
/// the line where it was looked for.
pub fn parse(path: &Path, text: &str) -> Result<ContractTool, CodegenError> {
    let lines = split_lines(text);
    let error = |message: String| CodegenError::new(path, "", message);
    let name = tool_name(&lines).ok_or_else(|| {
        error("no tool name: expected a `# name` heading, or the name alone on the page's first line".into())
    })?;
    let input = pick(path, INPUT, blocks(path, text, &lines, INPUT)?)?.ok_or_else(|| error(missing(INPUT, &lines)))?;
    let output =
        pick(path, OUTPUT, blocks(path, text, &lines, OUTPUT)?)?.ok_or_else(|| error(missing(OUTPUT, &lines)))?;
    let annotations = match pick(path, ANNOTATIONS, blocks(path, text, &lines, ANNOTATIONS)?)? {
        Some(value) => value,
        None => annotation_list(path, &lines)?.ok_or_else(|| {
            error(
                "no annotations: expected a \"Tool annotations\" heading followed by JSON, or an \"Annotations\" \
                 heading followed by a list of `hint` `value` pairs"
                    .into(),
            )
        })?,
    };
    let description = quoted_description(&lines)
        .or_else(|| description_before_navigation(&lines))
        .ok_or_else(|| {
            error(
                "no description: expected a `> …` quote, or a paragraph just before the \
             \"All … tools · JSON · Source\" line"
                    .into(),
            )
        })?;
    let title = annotations.get("title").and_then(Value::as_str).map(str::to_string);
    Ok(ContractTool {
        origin: Origin {
            file: path.to_path_buf(),
            pointer: String::new(),
        },
        name,
        title,
        description: Some(description),
        input_schema: input,
        output_schema: Some(output),
        annotations,
        source: source_line(&lines),
        tier: None,
        handler: None,
        toolset: None,
        class: None,
        escalations: None,
        facts: serde_json::Map::new(),
        meta: None,
        ignored: Vec::new(),
    })
}

fn split_lines(text: &str) -> Vec<Line<'_>> {
    let mut lines = Vec::new();
    let mut offset = 0;
    for (index, raw) in text.split_inclusive('\n').enumerate() {
        lines.push(Line {
            number: index + 1,
            text: raw.trim_end_matches(['\n', '\r']),
            offset,
        });
        offset += raw.len();
    }
    lines
}

/// The markdown heading level of a line (0 when it is not a `#` heading).
fn heading_level(line: &str) -> usize {
    let trimmed = line.trim_start();
    let level = trimmed.chars().take_while(|c| *c == '#').count();
    if level > 0 && trimmed[level..].starts_with(' ') {
        level
    } else {
        0
    }
}

/// The text of a line read as a heading: without `#`s, a trailing anchor link such as
/// `[#](…)`, or a trailing colon.
fn heading_text(line: &str) -> &str {
    let text = line.trim().trim_start_matches('#').trim();
    let text = match (text.rfind('['), text.ends_with(')')) {
        (Some(open), true) => {
            let link = &text[open..];
            let label = link.split(']').next().unwrap_or_default().trim_start_matches('[');
            if link.contains("](") && label.chars().count() <= 1 {
                text[..open].trim_end()
            } else {
                text
            }
        }
        _ => text,
    };
    text.trim_end_matches(':').trim()
}

fn is_heading(line: &str, label: &str) -> bool {
    heading_text(line).eq_ignore_ascii_case(label)
}

fn tool_name(lines: &[Line<'_>]) -> Option<String> {
    let heading = lines.iter().find(|line| heading_level(line.text) == 1);
    let candidate = match heading {
        Some(line) => heading_text(line.text),
        None => lines.iter().find(|line| !line.text.trim().is_empty())?.text.trim(),
    };
    let word = candidate.split_whitespace().next()?;
    (word == candidate).then(|| word.to_string())
}

fn source_line(lines: &[Line<'_>]) -> Option<String> {
    let rest = lines
        .iter()
        .find_map(|line| line.text.trim().strip_prefix("Source:"))?
        .trim();
    // `<url>` and `[text](url)` are the markdown spellings of a bare URL.
    let url = if let Some(inner) = rest.strip_prefix('<').and_then(|r| r.strip_suffix('>')) {
        inner
    } else if let Some((_, target)) = rest.strip_suffix(')').and_then(|r| r.split_once("](")) {
        target
    } else {
        rest
    };
    (!url.is_empty()).then(|| url.to_string())
}

/// Every JSON object that follows a `label` heading, fenced or bare.
fn blocks(path: &Path, text: &str, lines: &[Line<'_>], label: &str) -> Result<Vec<Block>, CodegenError> {
    let mut found = Vec::new();
    let mut in_protocol_data = false;
    for (index, line) in lines.iter().enumerate() {
        let names_a_block = [INPUT, OUTPUT, ANNOTATIONS].iter().any(|l| is_heading(line.text, l));
        if !names_a_block && (heading_level(line.text) > 0 || is_heading(line.text, PROTOCOL_DATA)) {
            in_protocol_data = heading_text(line.text).to_ascii_lowercase().contains(PROTOCOL_DATA);
        }
        if !is_heading(line.text, label) {
            continue;
        }
        if let Some(value) = block_after(path, text, lines, index, label)? {
            found.push(Block {
                value,
                heading_line: line.number,
                in_protocol_data,
            });
        }
    }
    Ok(found)
}

/// The JSON object after the heading at `lines[heading]`: a fenced block, or bare JSON
/// starting on the next non-blank line. `None` when prose follows instead.
fn block_after(
    path: &Path,
    text: &str,
    lines: &[Line<'_>],
    heading: usize,
    label: &str,
) -> Result<Option<Value>, CodegenError> {
    let error = |message: String| CodegenError::new(path, "", message);
    let heading_line = lines[heading].number;
    let Some(first) = lines[heading + 1..].iter().position(|l| !l.text.trim().is_empty()) else {
        return Ok(None);
    };
    let first = heading + 1 + first;
    let start = &lines[first];
    let trimmed = start.text.trim_start();
    let (body, body_line, fenced) = if trimmed.starts_with("```") {
        // The next fence line closes the block, unless it opens another one.
        let close = lines[first + 1..]
            .iter()
            .position(|l| l.text.trim().starts_with("```"))
            .filter(|&at| lines[first + 1 + at].text.trim().chars().all(|c| c == '`'))
            .ok_or_else(|| {
                error(format!(
                    "the code block under \"{label}\" (line {}) is never closed with ```",
                    start.number
                ))
            })?;
        let end = &lines[first + 1 + close];
        let body_start = lines.get(first + 1).map_or(end.offset, |l| l.offset);
        (&text[body_start..end.offset], start.number + 1, true)
    } else if trimmed.starts_with('{') {
        let begin = start.offset + (start.text.len() - trimmed.len());
        (&text[begin..], start.number, false)
    } else {
        return Ok(None);
    };
    // A fenced block holds exactly one value; bare JSON ends where its value ends.
    let parsed = if fenced {
        Some(serde_json::from_str::<Value>(body)).filter(|_| !body.trim().is_empty())
    } else {
        serde_json::Deserializer::from_str(body).into_iter::<Value>().next()
    };
    match parsed {
        Some(Ok(value)) if value.is_object() => Ok(Some(value)),
        Some(Ok(_)) => Err(error(format!(
            "the JSON under \"{label}\" (line {heading_line}) must be an object"
        ))),
        Some(Err(e)) => Err(error(format!(
            "the JSON under \"{label}\" (line {heading_line}) is not valid: {} at line {}, column {}",
            serde_message(&e),
            body_line + e.line().saturating_sub(1),
            e.column()
        ))),
        None => Err(error(format!(
            "the block under \"{label}\" (line {heading_line}) is empty"
        ))),
    }
}

/// serde_json's message without its " at line L column C" suffix (we count lines of the page).
fn serde_message(error: &serde_json::Error) -> String {
    let text = error.to_string();
    match text.rfind(" at line ") {
        Some(cut) => text[..cut].to_string(),
        None => text,
    }
}

/// The one block to use of those found under `label`.
fn pick(path: &Path, label: &str, mut found: Vec<Block>) -> Result<Option<Value>, CodegenError> {
    if found.iter().any(|block| block.in_protocol_data) {
        found.retain(|block| block.in_protocol_data);
    }
    let Some(first) = found.first() else {
        return Ok(None);
    };
    if let Some(other) = found.iter().find(|block| block.value != first.value) {
        return Err(CodegenError::new(
            path,
            "",
            format!(
                "\"{label}\" is rendered twice with different content (lines {} and {}) and neither copy is \
                 under a \"Protocol data\" heading: cannot tell which is the contract",
                first.heading_line, other.heading_line
            ),
        ));
    }
    Ok(found.into_iter().next().map(|block| block.value))
}

fn missing(label: &str, lines: &[Line<'_>]) -> String {
    let orphan = lines.iter().find(|line| is_heading(line.text, label));
    match orphan {
        Some(line) => format!(
            "no {}: the \"{label}\" heading at line {} is followed by neither a ```json block nor a JSON object",
            label.to_ascii_lowercase(),
            line.number
        ),
        None => format!(
            "no {}: expected an \"{label}\" heading followed by a ```json block or a JSON object",
            label.to_ascii_lowercase()
        ),
    }
}

/// Annotations written as a markdown list under an "Annotations" heading: each item
/// names a hint in backticks, and the next backticked text is its JSON value.
fn annotation_list(path: &Path, lines: &[Line<'_>]) -> Result<Option<Value>, CodegenError> {
    let Some(start) = lines
        .iter()
        .position(|line| heading_level(line.text) > 0 && is_heading(line.text, "Annotations"))
    else {
        return Ok(None);
    };
    let section = lines[start + 1..]
        .iter()
        .take_while(|line| heading_level(line.text) == 0)
        .collect::<Vec<_>>();
    let mut spans = Vec::new();
    for line in &section {
        for (index, span) in line.text.split('`').enumerate() {
            if index % 2 == 1 {
                spans.push((line.number, span));
            }
        }
    }
    let mut annotations = Map::new();
    let mut spans = spans.into_iter().peekable();
    while let Some((number, span)) = spans.next() {
        let Some((_, kind)) = crate::load::ANNOTATIONS.iter().find(|(name, _)| *name == span) else {
            continue;
        };
        let value = spans
            .next()
            .and_then(|(_, text)| serde_json::from_str::<Value>(text).ok())
            .filter(|value| crate::load::is_annotation_kind(value, kind))
            .ok_or_else(|| {
                CodegenError::new(
                    path,
                    "",
                    format!("annotation `{span}` (line {number}) is not followed by a `{kind}` value in backticks"),
                )
            })?;
        annotations.insert(span.to_string(), value);
    }
    if annotations.is_empty() {
        return Err(CodegenError::new(
            path,
            "",
            format!(
                "the \"Annotations\" heading at line {} lists no known hint ({})",
                lines[start].number,
                crate::load::ANNOTATIONS.map(|(name, _)| name).join(", ")
            ),
        ));
    }
    Ok(Some(Value::Object(annotations)))
}

/// The first `> …` quote: lines join with spaces, empty quote lines break paragraphs.
fn quoted_description(lines: &[Line<'_>]) -> Option<String> {
    let start = lines.iter().position(|line| line.text.trim_start().starts_with('>'))?;
    let mut paragraphs: Vec<Vec<&str>> = vec![Vec::new()];
    for line in lines[start..].iter().map(|l| l.text.trim_start()) {
        let Some(rest) = line.strip_prefix('>') else { break };
        let rest = rest.trim();
        match (rest.is_empty(), paragraphs.last_mut()) {
            (true, _) => paragraphs.push(Vec::new()),
            (false, Some(last)) => last.push(rest),
            (false, None) => {}
        }
    }
    let text = paragraphs
        .iter()
        .filter(|p| !p.is_empty())
        .map(|p| p.join(" "))
        .collect::<Vec<_>>()
        .join("\n\n");
    (!text.is_empty()).then(|| unescape_markdown(&text))
}

/// The paragraph just before the "All … tools · JSON · Source" line of the plain rendering.
fn description_before_navigation(lines: &[Line<'_>]) -> Option<String> {
    let navigation = lines.iter().position(|line| {
        let text = line.text.trim().trim_start_matches('[');
        text.starts_with("All ") && text.contains(" · ")
    })?;
    let end = lines[..navigation]
        .iter()
        .rposition(|line| !line.text.trim().is_empty())?;
    let start = lines[..end]
        .iter()
        .rposition(|line| line.text.trim().is_empty())
        .map_or(0, |i| i + 1);
    let text = lines[start..=end]
        .iter()
        .map(|l| l.text.trim())
        .collect::<Vec<_>>()
        .join(" ");
    (!text.is_empty()).then_some(text)
}

/// Removes markdown's backslash escapes (`\*` is `*`), as a renderer would.
fn unescape_markdown(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match chars.peek() {
            Some(next) if c == '\\' && next.is_ascii_punctuation() => {
                out.push(*next);
                chars.next();
            }
            _ => out.push(c),
        }
    }
    out
}
