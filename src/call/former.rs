//! Arguments spelled as the previous release advertised them, rewritten to today's
//! spelling before the input schema sees them, so that no client breaks on the day a
//! spelling changes (docs/portability.md). Each entry is kept for one release.
//!
//! - `send_keys` took its pane as `paneId`; it is now `pane_id`, like every other tool
//!   of paneward's own. Both at once must agree.
//! - `get_tmux_variables` required `names`, with `null` for every variable; `names` is
//!   now optional (an absent list is every variable) and `null` still means that.

use serde_json::Value;

use crate::runtime::ToolError;

/// `arguments` of tool `name` in today's spelling.
///
/// # Errors
/// `send_keys` given both `pane_id` and `paneId` with different values.
pub fn current_spelling(name: &str, mut arguments: Value) -> Result<Value, ToolError> {
    let Value::Object(fields) = &mut arguments else {
        return Ok(arguments);
    };
    match name {
        "send_keys" => {
            if let Some(former) = fields.remove("paneId") {
                match fields.get("pane_id") {
                    Some(current) if *current != former => {
                        return Err(ToolError::invalid_argument(
                            "/pane_id",
                            "`pane_id` and `paneId` (its former name) name different panes; give only `pane_id`",
                        ));
                    }
                    Some(_) => {}
                    None => {
                        fields.insert("pane_id".into(), former);
                    }
                }
            }
        }
        "get_tmux_variables" if fields.get("names").is_some_and(Value::is_null) => {
            fields.remove("names");
        }
        _ => {}
    }
    Ok(arguments)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_former_pane_field_of_send_keys_becomes_pane_id() {
        let out = current_spelling("send_keys", json!({"paneId": "%1", "keys": "ls"})).unwrap();
        assert_eq!(out, json!({"pane_id": "%1", "keys": "ls"}));
        let same = current_spelling("send_keys", json!({"paneId": "%1", "pane_id": "%1", "keys": "ls"})).unwrap();
        assert_eq!(same, json!({"pane_id": "%1", "keys": "ls"}));
    }

    #[test]
    fn two_different_panes_under_both_names_are_refused_naming_both() {
        let error = current_spelling("send_keys", json!({"paneId": "%1", "pane_id": "%2", "keys": "ls"})).unwrap_err();
        assert!(error.message().contains("`pane_id`"), "{}", error.message());
        assert!(error.message().contains("`paneId`"), "{}", error.message());
    }

    #[test]
    fn other_tools_keep_a_field_named_pane_id_untouched() {
        let args = json!({"paneId": "%1"});
        assert_eq!(current_spelling("send_keys_batch", args.clone()).unwrap(), args);
        let names = json!({"names": null});
        assert_eq!(current_spelling("get_tmux_variables", names).unwrap(), json!({}));
    }
}
