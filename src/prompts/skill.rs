//! A prompt as a skill (MCP's Skills extension, an Agent Skills `SKILL.md`): the same
//! recipe, written once in its prompt file, read by a model that loads it itself
//! instead of a person who picks it. The arguments a person fills in become the inputs
//! the skill names (`<pane_id>`), described in a list before the steps.

use super::PromptSpec;

/// A skill's name: the prompt's, with hyphens (Agent Skills names are lowercase
/// letters, digits and single hyphens; prompt names use underscores).
pub fn skill_name(spec: &PromptSpec) -> String {
    spec.name.replace('_', "-")
}

/// The `SKILL.md` of `spec`: YAML frontmatter (name and description, each a JSON
/// string, which YAML reads as a double-quoted scalar), the title, the inputs and
/// the steps.
pub fn skill_markdown(spec: &PromptSpec) -> String {
    let quoted = |text: &str| serde_json::Value::from(text).to_string();
    let mut text = format!(
        "---\nname: {}\ndescription: {}\n---\n\n# {}\n\n",
        quoted(&skill_name(spec)),
        quoted(&spec.description),
        spec.title
    );
    if !spec.arguments.is_empty() {
        text.push_str("## Inputs\n\n");
        for argument in &spec.arguments {
            let need = match (&argument.default, argument.required) {
                (_, true) => "required".to_string(),
                (Some(default), false) => format!("optional, default {default}"),
                (None, false) => "optional".to_string(),
            };
            text.push_str(&format!("- `<{}>` ({need}): {}\n", argument.name, argument.description));
        }
        text.push_str("\n## Steps\n\n");
    }
    for line in &spec.message {
        text.push_str(&placeholders_named(line));
        text.push('\n');
    }
    text
}

/// `line` with each `{{argument}}` written as `<argument>` (the prompt files' own
/// placeholders, checked when they load).
fn placeholders_named(line: &str) -> String {
    line.replace("{{", "<").replace("}}", ">")
}

/// The words of `text` that could be a tool's name (lowercase letters, digits and
/// underscores), to hold a skill to the tools the served surface has.
pub fn words(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| !(c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_'))
        .filter(|word| !word.is_empty())
}
