//! The window's TypeScript types (`ui/src/ipc.ts`) held against what the commands really send:
//! every field a type declares must be in the JSON with a value of its declared type, so a
//! field renamed, dropped or retyped on the Rust side fails here instead of reading as
//! `undefined` in a view. Fields the Rust side sends and the view does not declare are fine.

use std::collections::HashMap;

use serde::Serialize;
use serde_json::Value;

const IPC: &str = include_str!("../../../ui/src/ipc.ts");

/// A declared field: its name, whether it may be left out (`name?:`) and its type.
#[derive(Clone)]
struct Field {
    name: String,
    optional: bool,
    ty: String,
}

pub struct UiTypes {
    interfaces: HashMap<String, Vec<Field>>,
}

impl UiTypes {
    /// The interfaces `ipc.ts` exports, each with its own fields and those it extends.
    pub fn read() -> UiTypes {
        let source = without_comments(IPC);
        let mut own: HashMap<String, (Option<String>, Vec<Field>)> = HashMap::new();
        let mut rest = source.as_str();
        while let Some(at) = rest.find("export interface ") {
            rest = &rest[at + "export interface ".len()..];
            let open = rest.find('{').expect("an interface has a body");
            let mut head = rest[..open].split_whitespace();
            let name = head.next().expect("an interface has a name").to_string();
            let base = (head.next() == Some("extends")).then(|| head.next().unwrap().to_string());
            let close = open + matching(&rest[open..]);
            own.insert(name, (base, fields(&rest[open + 1..close])));
            rest = &rest[close..];
        }
        let names: Vec<String> = own.keys().cloned().collect();
        let mut interfaces = HashMap::new();
        for name in names {
            let mut all = Vec::new();
            let mut next = Some(name.clone());
            while let Some(current) = next {
                let (base, fields) = &own[&current];
                all.extend(fields.iter().cloned());
                next = base.clone();
            }
            interfaces.insert(name, all);
        }
        UiTypes { interfaces }
    }

    /// Panics, naming the path, where `value` as JSON is not what the interface `name` says.
    pub fn check(&self, name: &str, value: &impl Serialize) {
        let json = serde_json::to_value(value).unwrap();
        let mut problems = Vec::new();
        self.matches(name, &json, name, &mut problems);
        assert!(
            problems.is_empty(),
            "ui/src/ipc.ts and the Rust side disagree:\n{}",
            problems.join("\n")
        );
    }

    /// Whether `value` is of the TypeScript type `ty`; what disagrees goes to `problems`.
    fn matches(&self, ty: &str, value: &Value, path: &str, problems: &mut Vec<String>) -> bool {
        let alternatives = split_top(ty.trim(), '|');
        let fits = |alt: &str, problems: &mut Vec<String>| -> bool {
            let alt = alt.trim();
            match alt {
                "unknown" => true,
                "null" => value.is_null(),
                "string" => value.is_string(),
                "number" => value.is_number(),
                "boolean" => value.is_boolean(),
                _ if alt.starts_with('"') => value.as_str() == Some(alt.trim_matches('"')),
                _ if alt.ends_with("[]") => {
                    let item = &alt[..alt.len() - 2];
                    value.as_array().is_some_and(|items| {
                        items
                            .iter()
                            .enumerate()
                            .all(|(i, v)| self.matches(item, v, &format!("{path}[{i}]"), problems))
                    })
                }
                _ if alt.starts_with('[') => {
                    let parts = split_top(&alt[1..alt.len() - 1], ',');
                    value.as_array().is_some_and(|items| {
                        items.len() == parts.len()
                            && parts.iter().zip(items).enumerate().all(|(i, (t, v))| {
                                self.matches(t, v, &format!("{path}[{i}]"), problems)
                            })
                    })
                }
                _ if alt.starts_with('{') => {
                    let declared = fields(&alt[1..alt.len() - 1]);
                    self.object(&declared, value, path, problems)
                }
                _ => match self.interfaces.get(alt) {
                    Some(declared) => self.object(declared, value, path, problems),
                    None => {
                        problems.push(format!("{path}: no interface {alt} in ipc.ts"));
                        false
                    }
                },
            }
        };
        // Try each alternative on its own list, so only a value no alternative fits reports.
        let mut tried = Vec::new();
        for alt in &alternatives {
            let mut own = Vec::new();
            if fits(alt, &mut own) && own.is_empty() {
                return true;
            }
            tried.extend(own);
        }
        if tried.is_empty() {
            problems.push(format!("{path}: {value} is not {ty}"));
        } else {
            problems.extend(tried);
        }
        false
    }

    fn object(
        &self,
        declared: &[Field],
        value: &Value,
        path: &str,
        problems: &mut Vec<String>,
    ) -> bool {
        let Some(object) = value.as_object() else {
            problems.push(format!("{path}: {value} is not an object"));
            return false;
        };
        let before = problems.len();
        for field in declared {
            let at = format!("{path}.{}", field.name);
            match object.get(&field.name) {
                None if field.optional => {}
                None => problems.push(format!("{at}: declared, never sent")),
                Some(v) => {
                    self.matches(&field.ty, v, &at, problems);
                }
            }
        }
        problems.len() == before
    }
}

/// The fields of an interface body: `name: type;` or `name?: type;`.
fn fields(body: &str) -> Vec<Field> {
    split_top(body, ';')
        .into_iter()
        .filter_map(|decl| {
            let decl = decl.trim();
            let colon = decl.find(':')?;
            let name = decl[..colon].trim();
            Some(Field {
                optional: name.ends_with('?'),
                name: name.trim_end_matches('?').to_string(),
                ty: decl[colon + 1..].trim().to_string(),
            })
        })
        .collect()
}

/// `text` split at `sep` outside brackets, braces and quotes.
fn split_top(text: &str, sep: char) -> Vec<String> {
    let mut parts = vec![String::new()];
    let mut depth = 0i32;
    let mut quoted = false;
    for c in text.chars() {
        match c {
            '"' => quoted = !quoted,
            '{' | '[' | '(' if !quoted => depth += 1,
            '}' | ']' | ')' if !quoted => depth -= 1,
            _ if c == sep && depth == 0 && !quoted => {
                parts.push(String::new());
                continue;
            }
            _ => {}
        }
        parts.last_mut().unwrap().push(c);
    }
    parts.retain(|p| !p.trim().is_empty());
    parts
}

/// Where the brace that `text` opens with is closed.
fn matching(text: &str) -> usize {
    let mut depth = 0;
    for (i, c) in text.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    return i;
                }
            }
            _ => {}
        }
    }
    panic!("unclosed brace in ipc.ts")
}

/// `source` without `/* */` and `//` comments (none of the types' strings holds `//`).
fn without_comments(source: &str) -> String {
    let mut out = String::new();
    let mut rest = source;
    while !rest.is_empty() {
        if let Some(after) = rest.strip_prefix("/*") {
            rest = after.find("*/").map_or("", |end| &after[end + 2..]);
        } else if rest.starts_with("//") {
            rest = rest.find('\n').map_or("", |end| &rest[end..]);
        } else {
            let c = rest.chars().next().unwrap();
            out.push(c);
            rest = &rest[c.len_utf8()..];
        }
    }
    out
}
