//! The templates of a tool file's `dryRun`: text with the call's arguments in it.
//!
//! - `{pane_id}`: the argument's value; `?` when the call does not give it.
//! - `{pane_id|paneId}`: the first of these the call gives (a later one may be a former
//!   spelling the request path still takes); `{direction|'below'}` ends in a literal
//!   shown when none is given.
//! - `{name:quoted}`: in double quotes, escaped.
//! - `{direction:left=-h,right=-h,*=-v}`: the word for the value (`*`: any other, or none).
//! - `[ -t {pane_id}]`: the part inside only when the call gives every argument in it.
//!
//! In `tmux` every value shows as a person would type it (quoted where it holds more
//! than plain characters; an array of words as `--` and the words). The renderer is the
//! dry run's (`tools::batch::preview`), over the table's copy of these pieces.

use serde_json::Value;

/// A parsed template.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Template(pub Vec<Piece>);

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Piece {
    Text(String),
    Value(Placeholder),
    /// Shown only when every argument of its placeholders is given.
    Optional(Vec<Piece>),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Placeholder {
    /// The arguments tried in order.
    pub arguments: Vec<String>,
    /// The literal shown when none is given (else `?`).
    pub fallback: Option<String>,
    pub form: Form,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Form {
    /// The value itself.
    Plain,
    /// In double quotes, escaped.
    Quoted,
    /// A word per value; `otherwise` for any other value, or none.
    Choice {
        cases: Vec<(String, String)>,
        otherwise: String,
    },
}

impl Template {
    /// Parses `text`, checking that each placeholder names an argument of `input_schema`.
    ///
    /// # Errors
    /// The rule broken, with the character offset where it was.
    pub fn parse(text: &str, input_schema: &Value) -> Result<Self, String> {
        let mut parser = Parser {
            chars: text.char_indices().peekable(),
            input_schema,
        };
        let pieces = parser.pieces(false)?;
        Ok(Self(pieces))
    }
}

struct Parser<'a> {
    chars: std::iter::Peekable<std::str::CharIndices<'a>>,
    input_schema: &'a Value,
}

fn is_argument_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

impl Parser<'_> {
    fn pieces(&mut self, inside: bool) -> Result<Vec<Piece>, String> {
        let mut pieces = Vec::new();
        let mut text = String::new();
        let flush = |text: &mut String, pieces: &mut Vec<Piece>| {
            if !text.is_empty() {
                pieces.push(Piece::Text(std::mem::take(text)));
            }
        };
        while let Some((at, c)) = self.chars.next() {
            match c {
                '{' => {
                    flush(&mut text, &mut pieces);
                    let placeholder = self.placeholder(at)?;
                    if inside && placeholder.fallback.is_some() {
                        return Err(format!(
                            "at {at}: a placeholder inside [ ] has no literal: the part shows only when its arguments are given"
                        ));
                    }
                    pieces.push(Piece::Value(placeholder));
                }
                '[' if !inside => {
                    flush(&mut text, &mut pieces);
                    let part = self.pieces(true)?;
                    if !part.iter().any(|p| matches!(p, Piece::Value(_))) {
                        return Err(format!("at {at}: an optional part [ ] names an argument"));
                    }
                    pieces.push(Piece::Optional(part));
                }
                ']' if inside => {
                    flush(&mut text, &mut pieces);
                    return Ok(pieces);
                }
                '[' | ']' | '}' => return Err(format!("at {at}: unexpected `{c}`")),
                _ => text.push(c),
            }
        }
        if inside {
            return Err("an optional part [ is not closed with ]".into());
        }
        flush(&mut text, &mut pieces);
        Ok(pieces)
    }

    fn placeholder(&mut self, start: usize) -> Result<Placeholder, String> {
        let mut body = String::new();
        loop {
            match self.chars.next() {
                Some((_, '}')) => break,
                Some((at, c @ ('{' | '[' | ']'))) => return Err(format!("at {at}: unexpected `{c}` in a placeholder")),
                Some((_, c)) => body.push(c),
                None => return Err(format!("at {start}: the placeholder is not closed with }}")),
            }
        }
        let (names, form) = body.split_once(':').unwrap_or((&body, ""));
        let mut arguments = Vec::new();
        let mut fallback = None;
        for alternative in names.split('|') {
            if fallback.is_some() {
                return Err(format!("at {start}: a literal ends the alternatives"));
            }
            if let Some(literal) = alternative.strip_prefix('\'').and_then(|a| a.strip_suffix('\'')) {
                fallback = Some(literal.to_string());
            } else if is_argument_name(alternative) {
                arguments.push(alternative.to_string());
            } else {
                return Err(format!(
                    "at {start}: `{alternative}` is neither an argument name nor a 'literal'"
                ));
            }
        }
        let properties = self.input_schema.get("properties");
        let Some(first) = arguments
            .iter()
            .find(|a| properties.and_then(|p| p.get(a.as_str())).is_some())
        else {
            return Err(format!("at {start}: {{{names}}} names no property of inputSchema"));
        };
        let form = match form {
            "" => Form::Plain,
            "quoted" => Form::Quoted,
            cases => self.choice(start, cases, properties.and_then(|p| p.get(first.as_str())))?,
        };
        Ok(Placeholder {
            arguments,
            fallback,
            form,
        })
    }

    fn choice(&self, start: usize, text: &str, schema: Option<&Value>) -> Result<Form, String> {
        let allowed = schema.and_then(|s| s.get("enum")).and_then(Value::as_array);
        let mut cases = Vec::new();
        let mut otherwise = None;
        for case in text.split(',') {
            let Some((value, word)) = case.split_once('=') else {
                return Err(format!(
                    "at {start}: a form is `quoted` or value=word cases ending in *=word, not `{case}`"
                ));
            };
            if value == "*" {
                otherwise = Some(word.to_string());
            } else if allowed.is_some_and(|values| !values.iter().any(|v| v.as_str() == Some(value))) {
                return Err(format!("at {start}: `{value}` is not a value the argument accepts"));
            } else {
                cases.push((value.to_string(), word.to_string()));
            }
        }
        let otherwise = otherwise.ok_or_else(|| format!("at {start}: the cases end in *=word"))?;
        Ok(Form::Choice { cases, otherwise })
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn schema() -> Value {
        json!({"properties": {"pane_id": {}, "name": {}, "direction": {"enum": ["left", "right", "below"]}}})
    }

    #[test]
    fn a_template_reads_into_text_values_and_optional_parts() {
        let template = Template::parse(
            "split {pane_id|paneId}[ named {name:quoted}] {direction:left=-h,*=-v}",
            &schema(),
        )
        .unwrap();
        assert_eq!(template.0.len(), 5, "{template:?}");
        assert_eq!(template.0[0], Piece::Text("split ".into()));
        let Piece::Value(first) = &template.0[1] else { panic!() };
        assert_eq!(first.arguments, ["pane_id", "paneId"]);
        let Piece::Optional(part) = &template.0[2] else {
            panic!()
        };
        assert!(matches!(&part[1], Piece::Value(Placeholder { form: Form::Quoted, .. })));
        let Piece::Value(choice) = &template.0[4] else { panic!() };
        assert_eq!(
            choice.form,
            Form::Choice {
                cases: vec![("left".into(), "-h".into())],
                otherwise: "-v".into()
            }
        );
        let fallback = Template::parse("{direction|'below'}", &schema()).unwrap();
        assert!(matches!(&fallback.0[0], Piece::Value(Placeholder { fallback: Some(f), .. }) if f == "below"));
    }

    #[test]
    fn a_bad_template_says_what_is_wrong() {
        for (text, expected) in [
            ("{nope}", "names no property"),
            ("{pane_id", "not closed"),
            ("[ {pane_id}", "not closed"),
            ("[ -t ]", "names an argument"),
            ("a } b", "unexpected `}`"),
            ("[ [ {pane_id} ] ]", "unexpected `[`"),
            ("{direction:up=-v,*=-h}", "`up` is not a value"),
            ("{direction:left=-h}", "end in *=word"),
            ("{'x'|pane_id}", "a literal ends"),
            ("[ {pane_id|'x'}]", "has no literal"),
        ] {
            let error = Template::parse(text, &schema()).unwrap_err();
            assert!(error.contains(expected), "{text}: {error}");
        }
    }
}
