//! Reading the LEDA vectors recorded from the Python engine (`vectors/record_leda_*.py`).
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)]

use std::fs::File;
use std::io::{BufRead, BufReader};
use std::path::PathBuf;

use flate2::read::GzDecoder;
use serde_json::Value;

/// Every JSON line of `tests/vectors/<file>` (gzipped), written by `vectors/<recorder>`.
pub fn read(file: &str, recorder: &str) -> Vec<Value> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/vectors")
        .join(file);
    let opened = File::open(&path)
        .unwrap_or_else(|err| panic!("{} ({err}; run {recorder})", path.display()));
    BufReader::new(GzDecoder::new(opened))
        .lines()
        .map(|line| serde_json::from_str(&line.unwrap()).unwrap())
        .collect()
}

/// JSON text with the keys in their order: equal only when Python wrote exactly this.
pub fn text(value: &Value) -> String {
    serde_json::to_string(value).unwrap()
}
