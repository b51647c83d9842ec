//! The build script of `boardbot-rules`: compiles LEDA's component data, the data file the
//! Python engine and the analysis board read too (`engine/leda/components.json`), into the
//! constants of `leda::data` (`leda_components.rs` in the build's output folder). A malformed
//! file fails the build, naming its JSON path.

mod leda;
mod node;

use std::path::PathBuf;
use std::{env, fs};

use node::DataError;

/// The data file, read when the build script is compiled (so a change to it rebuilds).
const LEDA_DATA: &str = include_str!("../../../engine/leda/components.json");

fn main() -> Result<(), DataError> {
    println!("cargo:rerun-if-changed=codegen");
    println!("cargo:rerun-if-changed=../../engine/leda/components.json");
    let failed = |reason: String| DataError {
        path: "engine/leda/components.json".into(),
        reason,
    };
    let data = serde_json::from_str(LEDA_DATA).map_err(|e| failed(format!("not JSON: {e}")))?;
    let code = leda::tables(&data).map_err(|e| failed(format!("{e:?}")))?;
    let out = PathBuf::from(env::var("OUT_DIR").map_err(|e| failed(e.to_string()))?);
    fs::write(out.join("leda_components.rs"), code).map_err(|e| failed(e.to_string()))
}
