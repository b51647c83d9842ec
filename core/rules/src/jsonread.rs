//! Typed, path-aware reading of decoded JSON (the twin of Python's `engine/jsonread.py`).
//!
//! Every accessor returns a [`JsonError`] naming the exact path (`$.players[1].tools.rope`) and
//! a reason worded as the Python engine words it.

use serde_json::{Map, Value};

use crate::error::{ActionError, InvalidState};
use crate::pyrepr::{echo_repr, echo_str, kind_of, ECHO_LIMIT};

/// A problem at a JSON path; converted into the caller's error type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JsonError {
    /// The path at fault.
    pub path: String,
    /// What is wrong there.
    pub reason: String,
}

impl From<JsonError> for InvalidState {
    fn from(e: JsonError) -> Self {
        InvalidState {
            path: e.path,
            reason: e.reason,
        }
    }
}

impl From<JsonError> for ActionError {
    fn from(e: JsonError) -> Self {
        ActionError::Invalid {
            path: e.path,
            reason: e.reason,
        }
    }
}

/// A result whose error names a JSON path.
pub type JsonResult<T> = Result<T, JsonError>;

/// A position in a JSON document.
#[derive(Clone, Debug)]
pub struct Reader<'a> {
    value: &'a Value,
    path: String,
}

impl<'a> Reader<'a> {
    /// A reader over `value` at `path` (`$` for a document's root).
    pub fn new(value: &'a Value, path: impl Into<String>) -> Self {
        Self {
            value,
            path: path.into(),
        }
    }

    /// The reader at the root of a whole document at `path`, refused when nested deeper than
    /// [`MAX_JSON_DEPTH`] (Python's `JsonReader.document`).
    pub fn document(value: &'a Value, path: impl Into<String>) -> JsonResult<Self> {
        let reader = Self::new(value, path);
        let mut parts = Vec::new();
        if too_deep(value, MAX_JSON_DEPTH, &mut parts) {
            let mut path = reader.path.clone();
            for part in parts.iter().rev() {
                push_part(&mut path, part);
            }
            return Err(nesting_error(path));
        }
        Ok(reader)
    }

    /// The value read here.
    pub fn value(&self) -> &'a Value {
        self.value
    }

    /// This position as a JSON path string.
    pub fn path(&self) -> &str {
        &self.path
    }

    /// An error at this position.
    pub fn fail(&self, reason: impl Into<String>) -> JsonError {
        JsonError {
            path: self.path.clone(),
            reason: reason.into(),
        }
    }

    /// The path of `key` under this position (a caller's overlong key is cut short).
    fn key_path(&self, key: &str) -> String {
        let mut path = self.path.clone();
        push_key(&mut path, key);
        path
    }

    /// This value as an object, with no keys outside `allowed` (when given).
    pub fn obj(&self, allowed: Option<&[&str]>) -> JsonResult<&'a Map<String, Value>> {
        let Value::Object(map) = self.value else {
            return Err(self.fail(format!("expected an object, got {}", kind_of(self.value))));
        };
        if let Some(allowed) = allowed {
            for key in map.keys() {
                if !allowed.contains(&key.as_str()) {
                    let mut names: Vec<&str> = allowed.to_vec();
                    names.sort_unstable();
                    return Err(JsonError {
                        path: self.key_path(key),
                        reason: format!("unknown field; allowed: {}", names.join(", ")),
                    });
                }
            }
        }
        Ok(map)
    }

    /// True when this value is an object with `key`.
    pub fn has(&self, key: &str) -> bool {
        matches!(self.value, Value::Object(map) if map.contains_key(key))
    }

    /// The required field `key` of this object.
    pub fn get(&self, key: &str) -> JsonResult<Reader<'a>> {
        let map = self.obj(None)?;
        match map.get(key) {
            Some(value) => Ok(Reader {
                value,
                path: self.key_path(key),
            }),
            None => Err(JsonError {
                path: self.key_path(key),
                reason: "missing required field".into(),
            }),
        }
    }

    /// The optional field `key` (present even when it holds null), or None when absent.
    pub fn opt(&self, key: &str) -> JsonResult<Option<Reader<'a>>> {
        let map = self.obj(None)?;
        Ok(map.get(key).map(|value| Reader {
            value,
            path: self.key_path(key),
        }))
    }

    /// True when the value is null.
    pub fn is_null(&self) -> bool {
        self.value.is_null()
    }

    /// True when the value is a JSON integer (not a boolean, not a float).
    pub fn is_int(&self) -> bool {
        matches!(self.value, Value::Number(n) if n.is_i64() || n.is_u64())
    }

    /// This value as an integer within `lo..=hi` (either bound optional).
    ///
    /// Integers beyond the range of `i64` count as `i64::MAX` / `i64::MIN` (they fail any
    /// bound the engine sets).
    pub fn as_int(&self, lo: Option<i64>, hi: Option<i64>) -> JsonResult<i64> {
        let (v, shown) = match self.value {
            Value::Number(n) if n.is_i64() => {
                let v = n.as_i64().unwrap_or_default();
                (v, v.to_string())
            }
            Value::Number(n) if n.is_u64() => {
                let u = n.as_u64().unwrap_or_default();
                (i64::try_from(u).unwrap_or(i64::MAX), u.to_string())
            }
            other => return Err(self.fail(format!("expected an integer, got {}", kind_of(other)))),
        };
        if let Some(lo) = lo {
            if v < lo {
                return Err(self.fail(format!("must be at least {lo}, got {}", echo_repr(shown))));
            }
        }
        if let Some(hi) = hi {
            if v > hi {
                return Err(self.fail(format!("must be at most {hi}, got {}", echo_repr(shown))));
            }
        }
        Ok(v)
    }

    /// This value as a non-negative count within `lo..=hi`.
    pub fn as_count(&self, lo: usize, hi: usize) -> JsonResult<usize> {
        let v = self.as_int(Some(lo as i64), Some(hi as i64))?;
        Ok(usize::try_from(v).unwrap_or_default())
    }

    /// This value as a boolean.
    pub fn as_bool(&self) -> JsonResult<bool> {
        match self.value {
            Value::Bool(b) => Ok(*b),
            other => Err(self.fail(format!("expected true or false, got {}", kind_of(other)))),
        }
    }

    /// This value as a string, one of `choices` when given.
    pub fn as_str(&self, choices: Option<&[&str]>) -> JsonResult<&'a str> {
        let Value::String(text) = self.value else {
            return Err(self.fail(format!("expected a string, got {}", kind_of(self.value))));
        };
        if let Some(choices) = choices {
            if !choices.contains(&text.as_str()) {
                let shown = choices_text(choices);
                return Err(self.fail(format!(
                    "unknown value {}; expected one of: {shown}",
                    echo_str(text)
                )));
            }
        }
        Ok(text)
    }

    /// This value as one of `choices`, returned as its index there.
    pub fn as_choice(&self, choices: &[&str]) -> JsonResult<usize> {
        let text = self.as_str(Some(choices))?;
        Ok(choices.iter().position(|c| *c == text).unwrap_or_default())
    }

    /// This value as a list of readers, with `min_len..=max_len` items.
    pub fn as_list(&self, min_len: usize, max_len: Option<usize>) -> JsonResult<Vec<Reader<'a>>> {
        let Value::Array(items) = self.value else {
            return Err(self.fail(format!("expected a list, got {}", kind_of(self.value))));
        };
        let n = items.len();
        if n < min_len || max_len.is_some_and(|m| n > m) {
            let bound = match max_len {
                Some(m) if m == min_len => format!("{min_len}"),
                Some(m) => format!("{min_len}..{m}"),
                None => format!("{min_len}..None"),
            };
            return Err(self.fail(format!("expected {bound} items, got {n}")));
        }
        Ok(items
            .iter()
            .enumerate()
            .map(|(i, value)| Reader {
                value,
                path: format!("{}[{}]", self.path, i),
            })
            .collect())
    }
}

/// Most characters of allowed names an error message spells out (then it gives their number).
pub const CHOICES_SHOWN: usize = 120;

/// Most levels of lists and objects nested in one another a document may have: the deepest
/// real document (a LEDA state: its players, a player, the grid, a square, the square's cards)
/// has 6. The same constant as Python's `MAX_JSON_DEPTH` (engine/jsonread.py), and far below
/// serde_json's own recursion limit (128).
pub const MAX_JSON_DEPTH: usize = 32;

/// One step of a JSON path: an object's key or a list's index.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Part {
    Key(String),
    Index(usize),
}

/// `.key` on `path` (a caller's overlong key is cut short, as Python's `format_path` does).
fn push_key(path: &mut String, key: &str) {
    let n = key.chars().count();
    if n > ECHO_LIMIT {
        let head: String = key.chars().take(ECHO_LIMIT).collect();
        path.push_str(&format!(".{head}...({n} characters)"));
    } else {
        path.push('.');
        path.push_str(key);
    }
}

fn push_part(path: &mut String, part: &Part) {
    match part {
        Part::Key(key) => push_key(path, key),
        Part::Index(i) => path.push_str(&format!("[{i}]")),
    }
}

/// The error for a list or object at `path` nested deeper than [`MAX_JSON_DEPTH`].
fn nesting_error(path: String) -> JsonError {
    JsonError {
        path,
        reason: format!("nested deeper than {MAX_JSON_DEPTH}"),
    }
}

/// True when `value` holds a list or object past `room` levels; `parts` then holds the path
/// to the first one in document order, reversed.
fn too_deep(value: &Value, room: usize, parts: &mut Vec<Part>) -> bool {
    let nested = |child: &Value, parts: &mut Vec<Part>| {
        matches!(child, Value::Object(_) | Value::Array(_)) && too_deep(child, room - 1, parts)
    };
    match value {
        Value::Object(_) | Value::Array(_) if room == 0 => true,
        Value::Object(map) => map.iter().any(|(key, child)| {
            let found = nested(child, parts);
            if found {
                parts.push(Part::Key(key.clone()));
            }
            found
        }),
        Value::Array(items) => items.iter().enumerate().any(|(i, child)| {
            let found = nested(child, parts);
            if found {
                parts.push(Part::Index(i));
            }
            found
        }),
        _ => false,
    }
}

/// The error naming the first list or object nested deeper than [`MAX_JSON_DEPTH`] in JSON
/// text (the document at path `root`, `$` for a state), or None. It reads only strings, brackets and commas, so it
/// works where serde_json would stop at its own recursion limit or on malformed text; it is
/// Python's `text_depth_path` step for step.
pub fn text_depth_error(text: &str, root: &str) -> Option<JsonError> {
    struct Frame {
        object: bool,
        part: Part,
        expecting_key: bool,
    }
    let bytes = text.as_bytes();
    let mut frames: Vec<Frame> = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'"' => {
                let Some(end) = string_end(bytes, i) else {
                    i += 1; // an unterminated quote: skipped, the rest is scanned
                    continue;
                };
                if let Some(frame) = frames.last_mut() {
                    if frame.object && frame.expecting_key {
                        frame.part = Part::Key(key_text(&text[i..=end]));
                        frame.expecting_key = false;
                    }
                }
                i = end + 1;
                continue;
            }
            open @ (b'[' | b'{') => {
                if frames.len() == MAX_JSON_DEPTH {
                    let mut path = root.to_owned();
                    for frame in &frames {
                        push_part(&mut path, &frame.part);
                    }
                    return Some(nesting_error(path));
                }
                let object = open == b'{';
                frames.push(Frame {
                    object,
                    part: if object {
                        Part::Key(String::new())
                    } else {
                        Part::Index(0)
                    },
                    expecting_key: object,
                });
            }
            b',' => {
                if let Some(frame) = frames.last_mut() {
                    match &mut frame.part {
                        Part::Index(n) => *n += 1,
                        Part::Key(_) => frame.expecting_key = true,
                    }
                }
            }
            b']' | b'}' => {
                frames.pop();
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// The index of the quote closing the string that opens at `start`, or None.
fn string_end(bytes: &[u8], start: usize) -> Option<usize> {
    let mut j = start + 1;
    while j < bytes.len() {
        match bytes[j] {
            b'\\' => j += 2,
            b'"' => return Some(j),
            _ => j += 1,
        }
    }
    None
}

/// An object key as its JSON string token reads (its raw text when it does not decode).
fn key_text(token: &str) -> String {
    serde_json::from_str::<String>(token).unwrap_or_else(|_| token[1..token.len() - 1].to_owned())
}

/// The allowed names, sorted, as many as fit in [`CHOICES_SHOWN`] characters.
fn choices_text(choices: &[&str]) -> String {
    let mut names: Vec<&str> = choices.to_vec();
    names.sort_unstable();
    let text = names.join(", ");
    if text.chars().count() <= CHOICES_SHOWN {
        return text;
    }
    let cut: String = text.chars().take(CHOICES_SHOWN + 1).collect();
    let head = cut.rsplit_once(", ").map_or(cut.as_str(), |(head, _)| head);
    format!("{head}, ... ({} names)", names.len())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn errors_name_the_path_and_read_like_python() {
        let doc = json!({"players": [{"tools": {"rope": "x"}}], "n": 3.5, "b": 1});
        let root = Reader::new(&doc, "$");
        let players = root.get("players").unwrap().as_list(0, None).unwrap();
        let rope = players[0].get("tools").unwrap().get("rope").unwrap();
        let err = rope.as_int(Some(0), None).unwrap_err();
        assert_eq!(err.path, "$.players[0].tools.rope");
        assert_eq!(err.reason, "expected an integer, got the string 'x'");
        let err = root.get("n").unwrap().as_int(None, None).unwrap_err();
        assert_eq!(err.reason, "expected an integer, got the number 3.5");
        let err = root.get("b").unwrap().as_bool().unwrap_err();
        assert_eq!(err.reason, "expected true or false, got the number 1");
        let err = root.get("missing").unwrap_err();
        assert_eq!(
            (err.path.as_str(), err.reason.as_str()),
            ("$.missing", "missing required field")
        );
        let err = root.obj(Some(&["players", "n"])).unwrap_err();
        assert_eq!(err.path, "$.b");
        assert_eq!(err.reason, "unknown field; allowed: n, players");
        let long = serde_json::json!({"k".repeat(70): 1});
        let err = Reader::new(&long, "$").obj(Some(&["a"])).unwrap_err();
        assert_eq!(err.path, format!("$.{}...(70 characters)", "k".repeat(64)));
    }

    #[test]
    fn documents_nested_too_deep_are_refused_at_the_first_such_container() {
        let levels = MAX_JSON_DEPTH + 1;
        let lists = format!("{}{}", "[".repeat(levels), "]".repeat(levels));
        let value: Value = serde_json::from_str(&lists).unwrap();
        let err = Reader::document(&value, "$").unwrap_err();
        assert_eq!(err.path, format!("${}", "[0]".repeat(MAX_JSON_DEPTH)));
        assert_eq!(err.reason, format!("nested deeper than {MAX_JSON_DEPTH}"));
        assert_eq!(text_depth_error(&lists, "$"), Some(err));
        let fits = &lists[1..lists.len() - 1];
        let value: Value = serde_json::from_str(fits).unwrap();
        assert!(Reader::document(&value, "$").is_ok());
        assert_eq!(text_depth_error(fits, "$"), None);
        // Past serde_json's own limit, in objects, with brackets and quotes inside strings.
        let head = r#"{"s": "[[{\"", "k\"ey": 1, "k\"ey": "#;
        let deep = format!("{}{}{}", head, "[1, ".repeat(5000), "]".repeat(5000) + "}");
        let err = text_depth_error(&deep, "$.options").unwrap();
        assert_eq!(
            err.path,
            format!("$.options.k\"ey{}", "[1]".repeat(MAX_JSON_DEPTH - 1))
        );
        assert!(serde_json::from_str::<Value>(&deep).is_err());
        assert_eq!(text_depth_error("[[[", "$"), None);
        assert_eq!(text_depth_error(r#"["]]]]"#, "$"), None);
    }

    #[test]
    fn list_lengths_and_choices() {
        let doc = json!(["a", "b"]);
        let root = Reader::new(&doc, "$");
        assert_eq!(
            root.as_list(3, Some(3)).unwrap_err().reason,
            "expected 3 items, got 2"
        );
        assert_eq!(
            root.as_list(3, Some(4)).unwrap_err().reason,
            "expected 3..4 items, got 2"
        );
        let items = root.as_list(0, None).unwrap();
        let err = items[0].as_str(Some(&["z", "c"])).unwrap_err();
        assert_eq!(err.reason, "unknown value 'a'; expected one of: c, z");
        assert_eq!(err.path, "$[0]");
    }
}
