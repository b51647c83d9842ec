//! Models a search names by file path: read and parsed once per process and shared by every
//! search after it (read again only when the file changes).

use std::collections::HashMap;
use std::fs;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::SystemTime;

use boardbot_search::guided::Model;
use boardbot_search::net::Network;
use pyo3::prelude::*;

use crate::errors::InvalidConfigError;

/// What identifies one version of a file: its length and modification time.
type Stamp = (u64, Option<SystemTime>);

/// The models loaded so far, by path.
fn loaded() -> &'static Mutex<HashMap<String, (Stamp, Model)>> {
    static LOADED: OnceLock<Mutex<HashMap<String, (Stamp, Model)>>> = OnceLock::new();
    LOADED.get_or_init(|| Mutex::new(HashMap::new()))
}

/// The model in the file at `path` (InvalidConfigError when it cannot be read or parsed).
pub fn load_model(path: &str) -> PyResult<Model> {
    let refuse = |reason: String| InvalidConfigError::new_err(format!("model {path}: {reason}"));
    let meta = fs::metadata(path).map_err(|err| refuse(err.to_string()))?;
    let stamp = (meta.len(), meta.modified().ok());
    let mut cache = loaded()
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    if let Some((seen, model)) = cache.get(path) {
        if *seen == stamp {
            return Ok(model.clone());
        }
    }
    let bytes = fs::read(path).map_err(|err| refuse(err.to_string()))?;
    let network = Network::from_bytes(&bytes).map_err(|err| refuse(err.to_string()))?;
    let model = Model(Arc::new(network));
    cache.insert(path.to_owned(), (stamp, model.clone()));
    Ok(model)
}
