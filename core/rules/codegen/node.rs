//! Path-aware reading of a data file for the build script: every accessor names the JSON path
//! at fault (`$.cards[3].faces[0]`) and what is wrong there.

use std::fmt;

use serde_json::Value;

/// A problem in the data file: where, and what.
pub struct DataError {
    /// The JSON path at fault.
    pub path: String,
    /// What is wrong there.
    pub reason: String,
}

impl fmt::Debug for DataError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path, self.reason)
    }
}

/// A result whose error names a path of the data file.
pub type Result<T> = std::result::Result<T, DataError>;

/// A position in the data file.
#[derive(Clone)]
pub struct Node<'a> {
    value: &'a Value,
    path: String,
}

impl<'a> Node<'a> {
    /// The document's root, `$`.
    pub fn root(value: &'a Value) -> Self {
        Self {
            value,
            path: "$".into(),
        }
    }

    /// An error at this position.
    pub fn fail(&self, reason: impl Into<String>) -> DataError {
        DataError {
            path: self.path.clone(),
            reason: reason.into(),
        }
    }

    /// Check that this is an object with no field outside `allowed`.
    pub fn obj(&self, allowed: &[&str]) -> Result<()> {
        let map = self
            .value
            .as_object()
            .ok_or_else(|| self.fail("expected an object"))?;
        match map.keys().find(|key| !allowed.contains(&key.as_str())) {
            Some(key) => Err(self.fail(format!("unknown field {key:?}"))),
            None => Ok(()),
        }
    }

    /// True when this object has the field `key`.
    pub fn has(&self, key: &str) -> bool {
        self.value.get(key).is_some()
    }

    /// The required field `key`.
    pub fn get(&self, key: &str) -> Result<Node<'a>> {
        let path = format!("{}.{key}", self.path);
        match self.value.get(key) {
            Some(value) => Ok(Node { value, path }),
            None => Err(DataError {
                path,
                reason: "missing required field".into(),
            }),
        }
    }

    /// True for `null`.
    pub fn is_null(&self) -> bool {
        self.value.is_null()
    }

    /// This list's items, with `min..=max` of them.
    pub fn list(&self, min: usize, max: usize) -> Result<Vec<Node<'a>>> {
        let items = self
            .value
            .as_array()
            .ok_or_else(|| self.fail("expected a list"))?;
        if items.len() < min || items.len() > max {
            return Err(self.fail(format!(
                "expected {min} to {max} items, got {}",
                items.len()
            )));
        }
        Ok(items
            .iter()
            .enumerate()
            .map(|(i, value)| Node {
                value,
                path: format!("{}[{i}]", self.path),
            })
            .collect())
    }

    /// This string.
    pub fn str(&self) -> Result<&'a str> {
        self.value
            .as_str()
            .ok_or_else(|| self.fail("expected a string"))
    }

    /// This integer, within `lo..=hi`.
    pub fn int(&self, lo: i64, hi: i64) -> Result<i64> {
        match self.value.as_i64() {
            Some(n) if (lo..=hi).contains(&n) => Ok(n),
            _ => Err(self.fail(format!("expected an integer from {lo} to {hi}"))),
        }
    }

    /// This boolean.
    pub fn bool(&self) -> Result<bool> {
        self.value
            .as_bool()
            .ok_or_else(|| self.fail("expected true or false"))
    }

    /// The index of this string among `names`.
    pub fn choice(&self, names: &[String]) -> Result<usize> {
        let name = self.str()?;
        names
            .iter()
            .position(|n| n == name)
            .ok_or_else(|| self.fail(format!("unknown name {name:?}")))
    }
}
