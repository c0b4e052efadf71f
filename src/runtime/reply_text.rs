//! The text a model reads for a structured result: the `content` text block beside
//! `structuredContent`, for clients that show their model the text and not the JSON.
//!
//! Generic over the JSON value, never per tool. An object becomes one line per fact,
//! `path: value`, with nested objects as dotted paths (`pane.geometry.width: 80`); an
//! array of objects becomes a table, `path[N]{col,col.sub}:` and then N lines of cells
//! separated by `,` (a member that is an object of scalars, such as a geometry, becomes
//! dotted columns); an array of scalars becomes `path[N]:` and then one item per line
//! (pane text keeps its lines as they are). A string is written as it is unless it
//! could be read as something else (empty, a JSON scalar such as `3` or `true`, leading
//! or trailing spaces, a control character, a leading quote or bracket, a `,` in a
//! cell): then it is written as a JSON string. A value a table cannot flatten (an array
//! in a cell) is compact JSON. An absent member is an empty cell. Every scalar of the
//! structured content is in the text, and the text reads back to the same value.
//!
//! When the rendering would be longer than the compact JSON (a value with little
//! repetition and much quoting), the text is the compact JSON: so the text never takes
//! more bytes than the JSON copy it replaces, and the bounds on a reply's line that
//! assume that copy stay upper bounds.

use rmcp::model::{CallToolResult, ContentBlock};
use serde_json::{Map, Value};

/// How the contract served writes a tool's result for the client: paneward's own
/// ([`Compact`]), or, under a profile that mirrors another server, that server's way
/// (the profile's request path supplies it: `call::reply_text`). The transport and the
/// runtime only call it, so what a profile writes is decided in the profile's rooms.
pub trait ReplyStyle: Send + Sync {
    /// A short name, for debugging output.
    fn name(&self) -> &'static str;

    /// The successful result carrying `structured` (an object, or the text of a tool
    /// without an output schema as a JSON string).
    fn success(&self, structured: Value) -> CallToolResult;

    /// The successful result of tool `tool`: as [`ReplyStyle::success`], unless the
    /// style writes some tools' replies otherwise.
    fn tool_success(&self, tool: &str, structured: Value) -> CallToolResult {
        let _ = tool;
        self.success(structured)
    }

    /// The `isError` result of a failed call: its message for the model and, for
    /// programs, `_meta`.
    fn failure(&self, error: &crate::runtime::ToolError) -> CallToolResult;
}

/// Which text accompanies a structured result: a handle on the [`ReplyStyle`] of the
/// contract served, carried by every call's context.
#[derive(Clone, Copy)]
pub struct ReplyText(&'static dyn ReplyStyle);

impl ReplyText {
    /// paneward's own: the rendering of this module, or the compact JSON where that is
    /// shorter.
    pub const COMPACT: Self = Self(&Compact);

    /// The handle on `style`.
    pub const fn new(style: &'static dyn ReplyStyle) -> Self {
        Self(style)
    }

    /// As [`ReplyStyle::success`].
    pub fn success(self, structured: Value) -> CallToolResult {
        self.0.success(structured)
    }

    /// As [`ReplyStyle::tool_success`].
    pub fn tool_success(self, tool: &str, structured: Value) -> CallToolResult {
        self.0.tool_success(tool, structured)
    }

    /// As [`ReplyStyle::failure`].
    pub fn failure(self, error: &crate::runtime::ToolError) -> CallToolResult {
        self.0.failure(error)
    }

    /// The style's name.
    pub fn name(self) -> &'static str {
        self.0.name()
    }
}

impl Default for ReplyText {
    fn default() -> Self {
        Self::COMPACT
    }
}

impl std::fmt::Debug for ReplyText {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "ReplyText({})", self.name())
    }
}

/// paneward's own replies: the text is this module's rendering of the structured
/// content; an error's `_meta` is `{"paneward/error": {kind, retrySafe}}`.
pub struct Compact;

impl ReplyStyle for Compact {
    fn name(&self) -> &'static str {
        "compact"
    }

    fn success(&self, structured: Value) -> CallToolResult {
        tool_result(structured)
    }

    fn failure(&self, error: &crate::runtime::ToolError) -> CallToolResult {
        CallToolResult::error(vec![ContentBlock::text(error.message().to_string())])
            .with_meta(Some(rmcp::model::MetaObject(error.meta())))
    }
}

/// The successful result that carries `structured`, with its text rendered by this
/// module.
pub fn tool_result(structured: Value) -> CallToolResult {
    let text = render(&structured);
    let mut result = CallToolResult::success(vec![ContentBlock::text(text)]);
    result.structured_content = Some(structured);
    result
}

/// The text of `value`: its rendering, or its compact JSON where that is no longer.
pub fn render(value: &Value) -> String {
    let floor = json_len_floor(value);
    // A rendering that is kept is about as long as the JSON: room for it from the start,
    // so a long capture is written without growing (and moving) the text again and again.
    let mut out = String::with_capacity(floor);
    write_value(&mut out, "", value);
    // Shorter than the floor settles it without counting the JSON exactly, which would
    // mean escaping every string once more (a long capture's whole text).
    if out.len() < floor || out.len() < json_len(value) {
        out
    } else {
        value.to_string()
    }
}

/// A lower bound of the length of `value`'s compact JSON: every string counted with its
/// quotes but without escapes, which only add bytes, and a number as one digit.
fn json_len_floor(value: &Value) -> usize {
    let separators = |members: usize| 2 + members.saturating_sub(1);
    match value {
        Value::Null | Value::Bool(true) => 4,
        Value::Bool(false) => 5,
        Value::Number(_) => 1,
        Value::String(text) => text.len() + 2,
        Value::Array(items) => separators(items.len()) + items.iter().map(json_len_floor).sum::<usize>(),
        Value::Object(members) => {
            separators(members.len())
                + members
                    .iter()
                    .map(|(key, member)| key.len() + 3 + json_len_floor(member))
                    .sum::<usize>()
        }
    }
}

/// The length of `value`'s compact JSON, counted without building it.
pub fn json_len(value: &Value) -> usize {
    // Writing a `Value` cannot fail.
    json_len_of(value).unwrap_or(0)
}

/// The length of the compact JSON of anything serialisable, counted without building
/// the JSON or a `Value` of it; `None` if it does not serialise. The same length as its
/// `Value`'s (serialising through a `Value` changes only the order of members).
pub fn json_len_of<T: serde::Serialize + ?Sized>(value: &T) -> Option<usize> {
    struct Count(usize);
    impl std::io::Write for Count {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            self.0 += bytes.len();
            Ok(bytes.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut count = Count(0);
    // A counter never refuses bytes: an error is the value's own.
    serde_json::to_writer(&mut count, value).ok()?;
    Some(count.0)
}

fn write_value(out: &mut String, path: &str, value: &Value) {
    match value {
        Value::Object(fields) if !fields.is_empty() => {
            for (key, field) in fields {
                write_value(out, &join(path, key), field);
            }
        }
        Value::Array(items) if items.iter().all(|item| item.is_object()) => write_table(out, path, items),
        Value::Array(items) if items.iter().all(|item| !item.is_object() && !item.is_array()) => {
            line_start(out, path, items.len());
            out.push_str(":\n");
            for item in items {
                write_scalar(out, item, Place::Line);
                out.push('\n');
            }
        }
        _ => {
            if !path.is_empty() {
                out.push_str(path);
                out.push_str(": ");
            }
            write_scalar(out, value, Place::Value);
            out.push('\n');
        }
    }
}

/// `path[N]{columns}:` and one line of cells per item; columns are the members of the
/// items in first-seen order, nested objects flattened into dotted columns.
fn write_table(out: &mut String, path: &str, items: &[Value]) {
    let mut columns: Vec<Vec<String>> = Vec::new();
    let rows: Vec<&Map<String, Value>> = items.iter().filter_map(Value::as_object).collect();
    collect_columns(&rows, &mut Vec::new(), &mut columns);
    line_start(out, path, items.len());
    out.push('{');
    for (i, column) in columns.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        let mut name = String::new();
        for segment in column {
            name = join(&name, segment);
        }
        out.push_str(&name);
    }
    out.push_str("}:\n");
    for row in rows {
        for (i, column) in columns.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            if let Some(cell) = lookup(row, column) {
                write_scalar(out, cell, Place::Cell);
            }
        }
        out.push('\n');
    }
}

/// The columns under `prefix`: a member that is, in every row that has it, a non-empty
/// object of scalars (such as a pane's geometry) becomes the columns of its members;
/// any other member is one column. Deeper values stay whole (compact JSON), so that a
/// batch row's result is its compact JSON in the text as in `structuredContent`, and
/// dropping it (`null`) saves the same bytes in both, as `tools::batch::fit::fit`
/// counts.
fn collect_columns(rows: &[&Map<String, Value>], prefix: &mut Vec<String>, columns: &mut Vec<Vec<String>>) {
    let mut names: Vec<&String> = Vec::new();
    for row in rows {
        for name in row.keys() {
            if !names.contains(&name) {
                names.push(name);
            }
        }
    }
    for name in names {
        let present: Vec<&Value> = rows.iter().filter_map(|row| row.get(name)).collect();
        prefix.push(name.clone());
        let nested: Option<Vec<&Map<String, Value>>> = present
            .iter()
            .map(|value| {
                value
                    .as_object()
                    .filter(|fields| !fields.is_empty() && fields.values().all(|v| !v.is_object() && !v.is_array()))
            })
            .collect();
        match nested {
            Some(inner) if !inner.is_empty() => collect_columns(&inner, prefix, columns),
            _ => columns.push(prefix.clone()),
        }
        prefix.pop();
    }
}

fn lookup<'a>(row: &'a Map<String, Value>, column: &[String]) -> Option<&'a Value> {
    let (first, rest) = column.split_first()?;
    let value = row.get(first)?;
    if rest.is_empty() {
        Some(value)
    } else {
        lookup(value.as_object()?, rest)
    }
}

/// `path[count]`, which opens a table or a list.
fn line_start(out: &mut String, path: &str, count: usize) {
    out.push_str(path);
    out.push('[');
    out.push_str(&count.to_string());
    out.push(']');
}

/// `path.key`, the key written as a JSON string where it holds a character the
/// layout uses.
fn join(path: &str, key: &str) -> String {
    let plain = !key.is_empty()
        && !key
            .chars()
            .any(|c| c.is_whitespace() || c.is_control() || ".,:[]{}\"".contains(c));
    let segment = if plain {
        key.to_string()
    } else {
        Value::from(key).to_string()
    };
    if path.is_empty() {
        segment
    } else {
        format!("{path}.{segment}")
    }
}

/// Where a scalar stands, which decides what a bare string must not hold.
#[derive(Clone, Copy, PartialEq)]
enum Place {
    /// After `path: `, to the end of the line.
    Value,
    /// An item of a list, a whole line.
    Line,
    /// A table cell, up to the next `,`.
    Cell,
}

fn write_scalar(out: &mut String, value: &Value, place: Place) {
    match value {
        Value::String(text) if bare(text, place) => out.push_str(text),
        // Pane rows that read as numbers (the output of `seq`) are quoted one by one:
        // written straight into the text, with no string of their own each.
        Value::String(text) => push_json_string(out, text),
        // A batch row's whole result is one such cell. serde_json writes it into a
        // buffer of its own about a third faster than through `fmt` (measured on a
        // capture's result), copy included; writing a `Value` cannot fail.
        other => out.push_str(&serde_json::to_string(other).unwrap_or_default()),
    }
}

/// Appends `text` as a JSON string exactly as `serde_json` writes it: `"` and `\\`
/// escaped, the five control characters with a short escape written so, the others
/// below U+0020 as `\\u00xx` (lower-case hex), everything else as it is.
fn push_json_string(out: &mut String, text: &str) {
    out.push('"');
    let mut rest = text;
    while let Some(at) = rest.bytes().position(|b| b < 0x20 || b == b'"' || b == b'\\') {
        out.push_str(&rest[..at]);
        let byte = rest.as_bytes()[at];
        match byte {
            b'"' => out.push_str("\\\""),
            b'\\' => out.push_str("\\\\"),
            b'\n' => out.push_str("\\n"),
            b'\r' => out.push_str("\\r"),
            b'\t' => out.push_str("\\t"),
            0x08 => out.push_str("\\b"),
            0x0c => out.push_str("\\f"),
            _ => {
                const HEX: &[u8; 16] = b"0123456789abcdef";
                out.push_str("\\u00");
                out.push(char::from(HEX[usize::from(byte >> 4)]));
                out.push(char::from(HEX[usize::from(byte & 0xf)]));
            }
        }
        // The byte found is ASCII, so what follows starts a character.
        rest = &rest[at + 1..];
    }
    out.push_str(rest);
    out.push('"');
}

/// Whether `text` holds a control character (`char::is_control`: U+0000 to U+001F and
/// U+007F to U+009F), found byte by byte without decoding characters: a long capture's
/// every row is looked at. U+0080 to U+009F are the two bytes `C2 80` to `C2 9F`.
fn has_control(text: &str) -> bool {
    let bytes = text.as_bytes();
    // Most rows hold no byte that can begin a control character: a fold with no early
    // exit, which the compiler turns into wide compares, settles them.
    let suspect = bytes.iter().fold(false, |seen, &byte| {
        seen | (byte < 0x20) | (byte == 0x7f) | (byte == 0xc2)
    });
    suspect
        && bytes.iter().enumerate().any(|(at, &byte)| {
            byte < 0x20
                || byte == 0x7f
                || (byte == 0xc2 && bytes.get(at + 1).is_some_and(|next| (0x80..=0x9f).contains(next)))
        })
}

/// Whether `text` reads back as itself, unquoted, at `place`.
fn bare(text: &str, place: Place) -> bool {
    let Some(first) = text.chars().next() else {
        return false;
    };
    if matches!(first, '"' | '{' | '[') || has_control(text) {
        return false;
    }
    if place != Place::Line && (first.is_whitespace() || text.ends_with(char::is_whitespace)) {
        return false;
    }
    if place == Place::Cell && text.contains(',') {
        return false;
    }
    // `3`, `true` or `null` written bare would read back as a number, a boolean, null.
    // Only text whose first byte after JSON's whitespace can open a JSON value can;
    // the rest (most pane text) is settled without a parse.
    let opening = text.trim_start_matches([' ', '\t', '\n', '\r']).bytes().next();
    if !matches!(
        opening,
        Some(b'-' | b'0'..=b'9' | b't' | b'f' | b'n' | b'"' | b'[' | b'{')
    ) {
        return true;
    }
    !serde_json::from_str::<Value>(text).is_ok_and(|v| !v.is_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn control_characters_are_found_as_char_is_control_finds_them() {
        for code in (0..0x800u32).chain([0x2028, 0xfeff, 0x1f600]) {
            let Some(c) = char::from_u32(code) else { continue };
            for text in [format!("{c}"), format!("a{c}b"), format!("é{c}")] {
                assert_eq!(has_control(&text), text.chars().any(char::is_control), "U+{code:04X}");
            }
        }
    }

    #[test]
    fn a_string_is_quoted_byte_for_byte_as_serde_json_quotes_it() {
        let mut every_ascii: String = (0u8..0x80).map(char::from).collect();
        every_ascii.push_str("é \u{2028} \u{1F600} \\\" end");
        for text in [
            "",
            "12",
            "-3.5e7",
            "true",
            "a\"b\\c",
            "\u{7f}\u{0}\u{1f}",
            every_ascii.as_str(),
        ] {
            let mut out = String::from("before ");
            push_json_string(&mut out, text);
            assert_eq!(out, format!("before {}", Value::from(text)), "{text:?}");
        }
    }

    /// Reads a rendering back: the proof that the text keeps every fact.
    fn read_back(text: &str) -> Value {
        if let Ok(json) = serde_json::from_str::<Value>(text) {
            if !text.contains('\n') {
                return json;
            }
        }
        let mut root = Value::Object(Map::new());
        let mut lines = text.lines();
        while let Some(line) = lines.next() {
            let (path, rest) = read_path(line);
            if let Some(rest) = rest.strip_prefix(": ") {
                put(&mut root, &path, read_scalar(rest));
                continue;
            }
            let rest = rest.strip_prefix('[').expect("a count");
            let close = rest.find(']').unwrap();
            let count: usize = rest[..close].parse().unwrap();
            let rest = &rest[close + 1..];
            if rest == ":" {
                let items = (0..count).map(|_| read_scalar(lines.next().unwrap())).collect();
                put(&mut root, &path, Value::Array(items));
                continue;
            }
            let names = &rest[1..rest.len() - 2];
            let columns: Vec<Vec<String>> = if names.is_empty() {
                Vec::new()
            } else {
                split_cells(names).into_iter().map(|name| read_path(name).0).collect()
            };
            let mut items = Vec::new();
            for _ in 0..count {
                let mut item = Value::Object(Map::new());
                for (column, cell) in columns.iter().zip(split_cells(lines.next().unwrap())) {
                    if !cell.is_empty() {
                        put(&mut item, column, read_scalar(cell));
                    }
                }
                items.push(item);
            }
            put(&mut root, &path, Value::Array(items));
        }
        if let Some(Value::Array(_)) = root.get("") {
            return root[""].take();
        }
        root
    }

    /// A path of bare or quoted segments, and what follows it.
    fn read_path(line: &str) -> (Vec<String>, &str) {
        let mut segments = Vec::new();
        let mut rest = line;
        loop {
            if rest.starts_with('"') {
                let mut stream = serde_json::Deserializer::from_str(rest).into_iter::<String>();
                segments.push(stream.next().unwrap().unwrap());
                rest = &rest[stream.byte_offset()..];
            } else {
                let end = rest.find(['.', ':', '[', ',']).unwrap_or(rest.len());
                if end > 0 {
                    segments.push(rest[..end].to_string());
                }
                rest = &rest[end..];
            }
            match rest.strip_prefix('.') {
                Some(after) => rest = after,
                None => return (segments, rest),
            }
        }
    }

    fn split_cells(line: &str) -> Vec<&str> {
        let mut cells = Vec::new();
        let mut rest = line;
        loop {
            let end = if rest.starts_with(['"', '{', '[']) {
                let mut stream = serde_json::Deserializer::from_str(rest).into_iter::<Value>();
                stream.next().unwrap().unwrap();
                stream.byte_offset()
            } else {
                rest.find(',').unwrap_or(rest.len())
            };
            cells.push(&rest[..end]);
            match rest[end..].strip_prefix(',') {
                Some(after) => rest = after,
                None => return cells,
            }
        }
    }

    fn read_scalar(text: &str) -> Value {
        serde_json::from_str(text).unwrap_or_else(|_| Value::from(text))
    }

    fn put(root: &mut Value, path: &[String], value: Value) {
        let key = if path.is_empty() { "" } else { &path[0] };
        let fields = root.as_object_mut().unwrap();
        if path.len() <= 1 {
            fields.insert(key.to_string(), value);
        } else {
            let inner = fields.entry(key.to_string()).or_insert_with(|| json!({}));
            put(inner, &path[1..], value);
        }
    }

    fn samples() -> Vec<Value> {
        vec![
            json!({"panes": [
                {"id": "%1", "active": true, "currentPath": "/home/a b", "geometry": {"width": 80, "height": 24},
                 "title": "x,y", "pid": 12},
                {"id": "%2", "active": false, "currentPath": " lead", "geometry": {"width": 1, "height": 2},
                 "title": "", "pid": 13, "extra": "\"q\""},
            ], "total": 2, "truncated": false, "filteredOut": 0}),
            json!({"lines": ["  indented", "", "\"quoted\"", "trailing  ", "3", "true", "a\tb", "{x}", "ünï ✓"],
                   "paneId": "%3", "truncated": false, "truncatedLines": 0, "truncatedBytes": 0}),
            json!({"pane": {"id": "%4", "geometry": {"left": 0, "top": 0}, "isCaller": null}, "dead": false,
                   "exitStatus": null, "lines": ["$ ls", "a.txt"], "name": "[weird]", "empty": {}, "none": []}),
            json!({"results": [
                {"index": 0, "tool": "capture_pane", "success": true, "error": null,
                 "result": {"lines": ["a,b", "c"], "paneId": "%1"}, "resultTruncated": false},
                {"index": 1, "tool": "list_panes", "success": false, "error": "no such pane",
                 "result": null, "resultTruncated": true},
            ], "failed": 1, "succeeded": 1, "onError": "continue", "stoppedAt": null,
               "truncated": false, "truncatedBytes": 0}),
            json!({"blank": [{}], "odd key": 1, "a.b": {"c:d": "v"}, "nested": [[1, 2], [3]], "mixed": [1, {"a": 1}]}),
            json!({"rows": [{"geometry": {"w": 1}}, {"geometry": 7}, {}, {"geometry": {"w": 2}}]}),
            json!([{"a": 1}, {"a": 2, "b": "x"}]),
            json!({}),
            json!(null),
            json!("3"),
        ]
    }

    #[test]
    fn every_rendering_reads_back_to_the_same_value() {
        for value in samples() {
            let text = render(&value);
            assert_eq!(read_back(&text), value, "{text}");
        }
    }

    #[test]
    fn the_json_floor_is_never_above_the_json_and_exact_without_escapes_or_numbers() {
        for sample in samples() {
            assert!(json_len_floor(&sample) <= json_len(&sample), "{sample}");
        }
        let plain = json!({"lines": ["a", "bc", ""], "ok": true, "gone": null, "empty": {}, "none": []});
        assert_eq!(json_len_floor(&plain), json_len(&plain));
    }

    #[test]
    fn the_text_is_never_longer_than_the_compact_json() {
        for value in samples() {
            assert!(render(&value).len() <= value.to_string().len(), "{value}");
        }
    }

    #[test]
    fn a_list_is_a_header_line_and_one_line_a_row() {
        let value = json!({"panes": [
            {"id": "%1", "active": true, "geometry": {"width": 80, "height": 24}, "path": "/a,b"},
            {"id": "%2", "active": false, "geometry": {"width": 100, "height": 30}, "path": "/c"},
        ], "total": 2});
        assert_eq!(
            render(&value),
            "panes[2]{active,geometry.height,geometry.width,id,path}:\n\
             true,24,80,%1,\"/a,b\"\n\
             false,30,100,%2,/c\n\
             total: 2\n"
        );
    }

    #[test]
    fn pane_text_keeps_its_lines_and_says_what_could_be_misread() {
        let value = json!({"paneId": "%1", "lines": ["  ls -l", "3", "", "\"x\" y "], "truncated": false});
        assert_eq!(
            render(&value),
            "lines[4]:\n  ls -l\n\"3\"\n\"\"\n\"\\\"x\\\" y \"\npaneId: %1\ntruncated: false\n"
        );
    }

    #[test]
    fn the_compact_text_is_the_rendering_and_the_structured_content_is_untouched() {
        let value = json!({"sessions": [{"id": "$1", "name": "work"}], "total": 1});
        let result = ReplyText::COMPACT.success(value.clone());
        assert_eq!(result.structured_content, Some(value));
        assert_eq!(result.is_error, Some(false));
        let text = result.content[0].as_text().unwrap().text.clone();
        assert_eq!(text, "sessions[1]{id,name}:\n$1,work\ntotal: 1\n");
    }
}
