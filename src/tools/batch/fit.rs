//! Fitting a batch's reply to the response line bound: whole results kept smallest
//! first, pane text left over cut to its newest lines, the rest dropped (see [`fit`]);
//! and the fitted reply encoded with its results moved in rather than copied.

use serde_json::Value;

use crate::generated::types::BatchRow as Row;
use crate::runtime::error::ToolError;
use crate::runtime::{encode_output, CallContext, Encoded, ToolSpec};

/// `output` as structured content, its rows' results moved in rather than copied:
/// they are JSON already, and most of a batch's reply.
///
/// # Errors
/// The reply does not encode, a fault in paneward.
pub fn with_results_moved<R: RowsReply>(output: R) -> Result<Encoded<R>, ToolError> {
    let take = |output: &mut R| -> Vec<Value> {
        output
            .rows_mut()
            .iter_mut()
            .map(|row| std::mem::take(&mut row.result))
            .collect()
    };
    let put = |encoded: &mut Value, results: Vec<Value>| {
        let rows = encoded
            .get_mut("results")
            .and_then(Value::as_array_mut)
            .ok_or_else(|| ToolError::internal("a batch reply encoded without its results"))?;
        if rows.len() != results.len() {
            return Err(ToolError::internal("a batch reply encoded another number of rows"));
        }
        for (row, result) in rows.iter_mut().zip(results) {
            let slot = row
                .get_mut("result")
                .ok_or_else(|| ToolError::internal("a batch row encoded without its result"))?;
            *slot = result;
        }
        Ok(())
    };
    Encoded::moving(output, take, put)
}

/// More than the response line for `structured` can take: the line with `null` in its
/// place, plus the compact JSON, plus the text, which is never longer than the compact
/// JSON (`runtime::reply_text::render`), as a JSON string, where no byte takes more
/// than six (`\u001f`).
pub(crate) fn line_bound(context: &CallContext, structured: &Value) -> Result<usize, ToolError> {
    bound_of(context, crate::runtime::reply_text::json_len(structured))
}

/// [`line_bound`] of a value whose compact JSON is `compact` bytes long.
fn bound_of(context: &CallContext, compact: usize) -> Result<usize, ToolError> {
    Ok(context.reply_line_len(Value::Null)? + 7 * compact)
}

/// What dropping one row's result saves on the response line.
struct Droppable {
    row: usize,
    /// Bytes the line loses: the result in `structuredContent` and, escaped, in the
    /// text copy, less the `null` that replaces it in both, plus one byte in each for
    /// `resultTruncated` turning from `false` to `true`.
    saving: usize,
    /// The result's compact JSON length, which `truncatedBytes` counts.
    size: usize,
}

fn droppable(row: usize, result: &Value) -> Result<Droppable, ToolError> {
    let compact =
        serde_json::to_string(result).map_err(|e| ToolError::internal(format!("cannot measure a result: {e}")))?;
    let escaped = serde_json::to_string(&compact)
        .map_err(|e| ToolError::internal(format!("cannot measure a result: {e}")))?
        .len()
        - 2;
    let null = "null".len();
    Ok(Droppable {
        row,
        saving: (compact.len() - null) + (escaped - null) + 2,
        size: compact.len(),
    })
}

/// A batch reply (every batch tool has one) whose rows [`fit`] may shorten.
pub trait RowsReply: serde::Serialize {
    fn rows(&self) -> &[Row];
    fn rows_mut(&mut self) -> &mut [Row];
    /// Says the results shrank by `bytes` (`truncated`, `truncatedBytes`).
    fn set_truncated(&mut self, bytes: usize);
}

/// Replaces a row's result with `null` and marks it.
fn drop_row(output: &mut impl RowsReply, next: Droppable) -> Droppable {
    if let Some(row) = output.rows_mut().get_mut(next.row) {
        row.result = Value::Null;
        row.result_truncated = true;
    }
    next
}

fn digits(n: usize) -> usize {
    n.checked_ilog10().map_or(1, |d| d as usize + 1)
}

/// Whether `tool`'s results are pane text that may lose its oldest lines and say so
/// (its file's `paneText`). The rows [`fit`] shortens are paneward's own batches', so
/// their tools are the default table's.
fn is_pane_text(tool: &str) -> bool {
    ToolSpec::find(&crate::generated::TOOLS, tool).is_some_and(|spec| spec.pane_text)
}

fn measure_error(e: &serde_json::Error) -> ToolError {
    ToolError::internal(format!("cannot measure a result: {e}"))
}

/// The bytes `value` adds to the response line in place of `null`: its compact JSON
/// in `structuredContent` and the same escaped again in the text copy.
fn line_cost(value: &Value) -> Result<usize, ToolError> {
    let compact = serde_json::to_string(value).map_err(|e| measure_error(&e))?;
    let escaped = serde_json::to_string(&compact).map_err(|e| measure_error(&e))?.len() - 2;
    Ok(compact.len() + escaped - 2 * "null".len())
}

/// What one more line of text adds to the response line: the string and a comma, in
/// both copies.
fn text_line_cost(line: &str) -> Result<usize, ToolError> {
    let compact = serde_json::to_string(line).map_err(|e| measure_error(&e))?;
    let escaped = serde_json::to_string(&compact).map_err(|e| measure_error(&e))?.len() - 2;
    Ok(compact.len() + escaped + 2)
}

/// `fields` with only `kept` lines, counting `cut` more rows of `cut_bytes` bytes as left
/// out in the result's own truncation fields (`truncatedBytes` only where present: a
/// result that could not count the bytes still does not).
fn with_cut(fields: &serde_json::Map<String, Value>, kept: &[Value], cut: usize, cut_bytes: u64) -> Value {
    let mut out = serde_json::Map::new();
    for (name, value) in fields {
        let value = match name.as_str() {
            "lines" => Value::Array(kept.to_vec()),
            "truncated" => Value::Bool(value.as_bool().unwrap_or(false) || cut > 0),
            "truncatedLines" => value.as_u64().map_or(Value::Null, |n| Value::from(n + cut as u64)),
            "truncatedBytes" => value.as_u64().map_or(Value::Null, |n| Value::from(n + cut_bytes)),
            _ => value.clone(),
        };
        out.insert(name.clone(), value);
    }
    Value::Object(out)
}

/// A pane-text result shortened to its newest lines so that it adds at most `room`
/// bytes to the response line, its truncation fields updated; `None` when it is not
/// pane text or not even its fields fit.
fn shorten(tool: &str, result: &Value, room: usize) -> Result<Option<Value>, ToolError> {
    if !is_pane_text(tool) {
        return Ok(None);
    }
    let Some(fields) = result.as_object() else {
        return Ok(None);
    };
    let Some(Value::Array(lines)) = fields.get("lines") else {
        return Ok(None);
    };
    let Some(texts) = lines.iter().map(Value::as_str).collect::<Option<Vec<&str>>>() else {
        return Ok(None);
    };
    if fields.get("truncated").and_then(Value::as_bool).is_none()
        || fields.get("truncatedLines").is_some_and(|n| n.as_u64().is_none())
        || fields.get("truncatedBytes").is_some_and(|n| n.as_u64().is_none())
    {
        return Ok(None);
    }
    let bytes = |rows: &[&str]| rows.iter().map(|row| row.len() as u64 + 1).sum::<u64>();
    // The fields with every line cut: the counts at their largest, so their digits too.
    let mut used = line_cost(&with_cut(fields, &[], texts.len(), bytes(&texts)))?;
    if used > room {
        return Ok(None);
    }
    let mut keep = 0;
    for line in texts.iter().rev() {
        let cost = text_line_cost(line)?;
        if used + cost > room {
            break;
        }
        used += cost;
        keep += 1;
    }
    let cut = texts.len() - keep;
    Ok(Some(with_cut(fields, &lines[cut..], cut, bytes(&texts[..cut]))))
}

/// Makes the response line fit in `limit` bytes. Whole results are kept smallest first
/// (of equal ones, the earlier row first) while they fit; each of the others is
/// dropped (`result: null`), except pane text, which keeps its newest lines within an
/// equal share of the room left and says in its own fields what it left out. Both are
/// marked `resultTruncated`. The line is measured at the end; should it still be over,
/// the largest results left are dropped until it fits.
///
/// # Errors
/// The reply cannot be measured, or does not fit even with every result dropped (the
/// rest of a reply is bounded far below the limit, so this is a paneward fault).
pub fn fit<R: RowsReply>(context: &CallContext, mut output: R, limit: usize) -> Result<R, ToolError> {
    // Most replies are far below the limit: a bound from one counting pass over the
    // reply settles them without copying it into a `Value` or building the whole
    // response line.
    if let Some(compact) = crate::runtime::reply_text::json_len_of(&output) {
        if bound_of(context, compact)? <= limit {
            return Ok(output);
        }
    }
    let full = context.reply_line_len(encode_output(&output)?)?;
    if full <= limit {
        return Ok(output);
    }
    let mut results = Vec::new();
    for (row, item) in output.rows().iter().enumerate() {
        if !item.result.is_null() {
            results.push(droppable(row, &item.result)?);
        }
    }
    results.sort_by(|a, b| a.saving.cmp(&b.saving).then(a.row.cmp(&b.row)));
    // The line with every result dropped: `truncated` turns from `false` to `true` in
    // both copies, and `truncatedBytes` grows to at most the size of them all.
    let all_sizes: usize = results.iter().map(|r| r.size).sum();
    let all_savings: usize = results.iter().map(|r| r.saving).sum();
    let floor = (full - 2 - all_savings) + 2 * (digits(all_sizes) - 1);
    let mut room = limit.saturating_sub(floor);
    let mut cut = Vec::new();
    for result in results {
        if result.saving <= room {
            room -= result.saving;
        } else {
            cut.push(result);
        }
    }
    let textual = cut.iter().filter(|r| is_pane_text(&output.rows()[r.row].tool)).count();
    let share = room / textual.max(1);
    let mut dropped = 0usize;
    for result in &cut {
        let Some(row) = output.rows_mut().get_mut(result.row) else {
            continue;
        };
        let whole = std::mem::take(&mut row.result);
        row.result_truncated = true;
        match shorten(&row.tool, &whole, share)? {
            Some(partial) => {
                let kept = serde_json::to_string(&partial).map_err(|e| measure_error(&e))?.len();
                dropped += result.size.saturating_sub(kept);
                row.result = partial;
            }
            None => dropped += result.size,
        }
    }
    output.set_truncated(dropped);
    // Confirm on the real encoding; should the plan ever be short, drop whole results.
    loop {
        let measured = context.reply_line_len(encode_output(&output)?)?;
        if measured <= limit {
            return Ok(output);
        }
        let mut largest = None;
        for (row, item) in output.rows().iter().enumerate() {
            if !item.result.is_null() {
                let next = droppable(row, &item.result)?;
                if largest.as_ref().is_none_or(|l: &Droppable| next.saving > l.saving) {
                    largest = Some(next);
                }
            }
        }
        let Some(next) = largest else {
            return Err(ToolError::internal(format!(
                "the batch reply is {measured} bytes with every result dropped, over the {limit}-byte limit"
            )));
        };
        tracing::warn!(measured, limit, "batch reply planned over its limit; dropping a result");
        // A shortened result's size is its remaining size: what it had lost is counted.
        dropped += next.size;
        drop_row(&mut output, next);
        output.set_truncated(dropped);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generated::types::CallReadToolsBatchOutput;
    use crate::limits::REPLY_LINE_MAX_BYTES;
    use crate::runtime::reply_text;
    use rmcp::model::RequestId;
    use serde_json::json;

    #[test]
    fn the_quick_bound_is_never_below_the_real_line() {
        let context = CallContext::for_request(RequestId::String("a-long-request-id".into()));
        for structured in [
            json!({}),
            json!({"lines": ["plain", "\u{1f}\u{1e}\u{0}", "\"quoted\" \\ back", "ünï ✓"]}),
            json!({"lines": vec!["\u{1}"; 500]}),
            // Rendered as a table (shorter than its JSON), cells quoted and escaped.
            json!({"panes": vec![json!({"id": "%1", "title": "\u{1}\"a,b\"\\", "geometry": {"w": 80}}); 20]}),
        ] {
            assert!(reply_text::render(&structured).len() <= structured.to_string().len());
            let real = context.reply_line_len(structured.clone()).unwrap();
            assert!(line_bound(&context, &structured).unwrap() >= real, "{structured}");
        }
    }

    fn row(index: i64, result: Value) -> Row {
        Row {
            index,
            tool: "capture_pane".into(),
            success: true,
            error: None,
            result,
            result_truncated: false,
        }
    }

    fn output(results: Vec<Row>) -> CallReadToolsBatchOutput {
        CallReadToolsBatchOutput {
            failed: 0,
            succeeded: i64::try_from(results.len()).unwrap(),
            on_error: "stop".into(),
            results,
            stopped_at: None,
            truncated: false,
            truncated_bytes: 0,
        }
    }

    /// Text that JSON escapes heavily in the text copy (quotes, backslashes, controls).
    fn awkward(n: usize) -> Value {
        json!({"lines": vec!["a \"quoted\" \\ path\u{1}\té".repeat(n); 3]})
    }

    #[test]
    fn a_reply_with_its_results_moved_in_is_the_reply_serde_encodes() {
        use crate::runtime::IntoStructured;
        let mut failed = row(2, Value::Null);
        failed.success = false;
        failed.error = Some("no such pane".into());
        let rows = vec![
            row(0, awkward(2)),
            row(1, json!("text")),
            failed,
            row(3, json!([1, {"a": null}])),
        ];
        let reply = output(rows);
        let expected = encode_output(&reply).unwrap();
        let moved = with_results_moved(reply).unwrap();
        let moved = IntoStructured::<CallReadToolsBatchOutput>::into_structured(moved).unwrap();
        assert_eq!(moved, expected);
        assert_eq!(moved["results"][0]["result"], awkward(2));
    }

    fn measure(context: &CallContext, output: &CallReadToolsBatchOutput) -> usize {
        context.reply_line_len(encode_output(output).unwrap()).unwrap()
    }

    #[test]
    fn a_reply_that_fits_is_left_alone() {
        let context = CallContext::for_request(RequestId::Number(7));
        let small = output(vec![row(0, awkward(1))]);
        let fitted = fit(&context, small, REPLY_LINE_MAX_BYTES).unwrap();
        assert!(!fitted.truncated && fitted.results[0].result == awkward(1));
    }

    #[test]
    fn the_largest_results_go_first_and_the_prediction_is_exact() {
        let context = CallContext::for_request(RequestId::String("req-1".into()));
        let rows = vec![
            row(0, awkward(50)),
            row(1, awkward(400)),
            row(2, awkward(10)),
            row(3, awkward(400)),
        ];
        let before = output(rows);
        let full = measure(&context, &before);
        // One large result saves about 80 kB: room for all but the two largest.
        let limit = full - 100_000;
        let fitted = fit(&context, before.clone(), limit).unwrap();
        let kept: Vec<bool> = fitted.results.iter().map(|r| !r.result_truncated).collect();
        assert_eq!(kept, [true, false, true, false]);
        assert_eq!(fitted.results[0].result, before.results[0].result);
        assert!(fitted.results[1].result.is_null());
        assert!(fitted.truncated);
        let dropped = 2 * serde_json::to_string(&awkward(400)).unwrap().len();
        assert_eq!(fitted.truncated_bytes, i64::try_from(dropped).unwrap());
        // Exactness: dropping one row at a time and predicting matches re-measuring.
        let measured = measure(&context, &fitted);
        assert!(measured <= limit);
        let savings: usize = [1, 3]
            .iter()
            .map(|i| droppable(*i, &before.results[*i].result).unwrap().saving)
            .sum();
        assert_eq!(measured, full - 2 - savings + 2 * (digits(dropped) - 1));
    }

    #[test]
    fn equal_results_drop_the_later_rows_first() {
        let context = CallContext::nested();
        let before = output(vec![row(0, awkward(100)), row(1, awkward(100)), row(2, awkward(100))]);
        let limit = measure(&context, &before) - 100;
        let fitted = fit(&context, before, limit).unwrap();
        let kept: Vec<bool> = fitted.results.iter().map(|r| !r.result_truncated).collect();
        assert_eq!(kept, [true, true, false]);
    }

    #[test]
    fn pane_text_keeps_its_newest_lines_within_its_room_and_counts_the_rest() {
        let lines: Vec<String> = (0..50).map(|i| format!("{i:03} \"q\" {}", "x".repeat(90))).collect();
        let result = json!({"paneId": "%1", "history": true, "lines": lines, "truncated": false,
            "truncatedLines": 0, "truncatedBytes": 0});
        let room = 3_000;
        let short = shorten("capture_pane", &result, room).unwrap().unwrap();
        assert!(line_cost(&short).unwrap() <= room);
        let kept = strings_of(&short["lines"]);
        assert!(!kept.is_empty() && kept.len() < 50, "{}", kept.len());
        assert_eq!(kept[..], lines[50 - kept.len()..]);
        let cut = 50 - kept.len();
        assert_eq!(short["truncated"], true);
        assert_eq!(short["truncatedLines"], json!(cut));
        let bytes: usize = lines[..cut].iter().map(|l| l.len() + 1).sum();
        assert_eq!(short["truncatedBytes"], json!(bytes));
        assert_eq!(short["paneId"], "%1");
        // One more line would not have fitted.
        let mut longer = short.clone();
        longer["lines"] = json!(lines[cut - 1..]);
        assert!(line_cost(&longer).unwrap() > room - 20);
        // A result without truncatedBytes does not gain one; other tools are not cut.
        let mut uncounted = result.clone();
        uncounted.as_object_mut().unwrap().remove("truncatedBytes");
        let short = shorten("snapshot_pane", &uncounted, room).unwrap().unwrap();
        assert_eq!(short.get("truncatedBytes"), None);
        assert_eq!(shorten("list_panes", &result, room).unwrap(), None);
        assert_eq!(shorten("capture_pane", &result, 10).unwrap(), None);
    }

    fn strings_of(value: &Value) -> Vec<String> {
        value
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap().to_string())
            .collect()
    }

    #[test]
    fn digit_counts() {
        assert_eq!((digits(0), digits(9), digits(10), digits(999_999)), (1, 1, 2, 6));
    }
}
