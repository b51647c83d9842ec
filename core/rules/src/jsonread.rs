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
        let n = key.chars().count();
        if n > ECHO_LIMIT {
            let head: String = key.chars().take(ECHO_LIMIT).collect();
            return format!("{}.{head}...({n} characters)", self.path);
        }
        format!("{}.{}", self.path, key)
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
