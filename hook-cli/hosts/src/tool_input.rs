//! Reading a tool call's input as the store holds it: the host's text (JSON for most tools),
//! which a bounded read may have cut anywhere.

use std::fmt;

use serde::de::{Deserializer, IgnoredAny, MapAccess, Visitor};

use throughline_core::model::{Replacement, Todo, TodoStatus};

/// The whole todo list a call wrote: the items of the array `list` in `input`, each with its
/// words in the field `text` and a status [`TodoStatus::parse`] knows. An item with another
/// status (Gemini CLI's `cancelled`) is no longer part of the work; a cut input gives none.
pub fn todo_items(input: &str, list: &str, text: &str) -> Option<Vec<Todo>> {
    let input: serde_json::Value = serde_json::from_str(input).ok()?;
    let items = input.get(list)?.as_array()?;
    Some(
        items
            .iter()
            .filter_map(|item| {
                Some(Todo {
                    status: TodoStatus::parse(item.get("status")?.as_str()?)?,
                    text: item.get(text)?.as_str()?.to_string(),
                })
            })
            .collect(),
    )
}

/// The string `key` holds at the top level of the JSON object `input`, when it comes whole
/// before `input` ends: a path or a command is found in the head of a long, cut input.
pub fn string_field(input: &str, key: &str) -> Option<String> {
    let mut field = Field { key, value: None };
    // A cut input ends in an error after the fields before the cut were read.
    let _ = serde_json::Deserializer::from_str(input).deserialize_map(&mut field);
    field.value
}

/// The whole-number field `key` at the top level of `input`, when the input is whole.
pub fn number_field(input: &str, key: &str) -> Option<u64> {
    serde_json::from_str::<serde_json::Value>(input)
        .ok()?
        .get(key)?
        .as_u64()
}

/// The replacements an edit made: the top level of `input` holds one in its fields `old` and
/// `new`, or (with `list`) each item of that array does. None when the input was cut short.
pub fn replacements(input: &str, list: Option<&str>, old: &str, new: &str) -> Vec<Replacement> {
    let Ok(input) = serde_json::from_str::<serde_json::Value>(input) else {
        return Vec::new();
    };
    let one = |edit: &serde_json::Value| {
        Some(Replacement {
            old: edit.get(old)?.as_str()?.to_string(),
            new: edit.get(new)?.as_str()?.to_string(),
        })
    };
    match list {
        Some(list) => input
            .get(list)
            .and_then(serde_json::Value::as_array)
            .map_or_else(Vec::new, |edits| edits.iter().filter_map(one).collect()),
        None => one(&input).into_iter().collect(),
    }
}

/// The boolean field `key` at the top level of `input`, false when absent or unreadable.
pub fn flag_field(input: &str, key: &str) -> bool {
    serde_json::from_str::<serde_json::Value>(input)
        .ok()
        .and_then(|input| input.get(key)?.as_bool())
        .unwrap_or(false)
}

struct Field<'k> {
    key: &'k str,
    value: Option<String>,
}

impl<'de> Visitor<'de> for &mut Field<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        while let Some(key) = map.next_key::<String>()? {
            if key == self.key {
                self.value = map.next_value()?;
                return Ok(());
            }
            map.next_value::<IgnoredAny>()?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_field_is_read_from_the_head_of_a_cut_input_at_the_top_level_only() {
        let edit = r#"{"replace_all":false,"file_path":"/p/a \"b\".py","old_string":"x","new_string":"y"}"#;
        assert_eq!(
            string_field(edit, "file_path").as_deref(),
            Some("/p/a \"b\".py")
        );
        let after_path = edit.find("old_string").unwrap();
        assert_eq!(
            string_field(&edit[..after_path], "file_path").as_deref(),
            Some("/p/a \"b\".py")
        );
        let in_path = edit.find(".py").unwrap();
        assert_eq!(string_field(&edit[..in_path], "file_path"), None);
        let nested = r#"{"edits":[{"file_path":"in.rs"}],"file_path":"top.rs"}"#;
        assert_eq!(string_field(nested, "file_path").as_deref(), Some("top.rs"));
        assert_eq!(string_field(r#"{"file_path":7}"#, "file_path"), None);
        assert_eq!(string_field("*** Begin Patch", "file_path"), None);
    }
}
