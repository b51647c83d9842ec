//! `PythonRandom`: CPython's `random.Random(seed)` held natively, the generator the native
//! engine draws the Python engine's chance outcomes from (`State.sample_chance_from`).

use std::sync::{Mutex, MutexGuard};

use boardbot_rules::PythonRandom;
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyInt};

use crate::errors::guard;

/// The widest `getrandbits` draw accepted (bits).
const MAX_BITS: i64 = 1 << 24;

/// CPython's `random.Random(seed)` for an integer seed: the same stream, draw for draw.
#[pyclass(frozen, module = "boardbot_native", name = "PythonRandom")]
pub struct PyPythonRandom {
    rng: Mutex<PythonRandom>,
}

impl PyPythonRandom {
    /// The generator, for one call at a time.
    pub fn lock(&self) -> PyResult<MutexGuard<'_, PythonRandom>> {
        self.rng.lock().map_err(|_| {
            PyRuntimeError::new_err(
                "boardbot_native: PythonRandom is unusable after an internal error",
            )
        })
    }
}

/// `abs(value)` as little-endian bytes (at least one).
fn abs_le_bytes(value: &Bound<'_, PyInt>) -> PyResult<Vec<u8>> {
    let magnitude = value.call_method0("__abs__")?;
    let bits: usize = magnitude.call_method0("bit_length")?.extract()?;
    let bytes = magnitude.call_method1("to_bytes", (bits.div_ceil(8).max(1), "little"))?;
    Ok(bytes.downcast::<PyBytes>()?.as_bytes().to_vec())
}

/// The Python int of little-endian 32-bit words.
fn int_from_words(py: Python<'_>, words: &[u32]) -> PyResult<PyObject> {
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    let int = py
        .get_type::<PyInt>()
        .call_method1("from_bytes", (PyBytes::new(py, &bytes), "little"))?;
    Ok(int.unbind())
}

/// Little-endian 32-bit words of a non-negative int.
fn words_of(value: &Bound<'_, PyInt>) -> PyResult<Vec<u32>> {
    Ok(abs_le_bytes(value)?
        .chunks(4)
        .map(|chunk| {
            let mut word = [0u8; 4];
            word[..chunk.len()].copy_from_slice(chunk);
            u32::from_le_bytes(word)
        })
        .collect())
}

#[pymethods]
impl PyPythonRandom {
    /// `random.Random(seed)`: seeded from `abs(seed)` as CPython seeds an int.
    #[new]
    fn new(seed: &Bound<'_, PyInt>) -> PyResult<Self> {
        guard("PythonRandom", || {
            let rng = PythonRandom::from_abs_le_bytes(&abs_le_bytes(seed)?);
            Ok(Self {
                rng: Mutex::new(rng),
            })
        })
    }

    /// The generator in the state of `random.Random.getstate()[1]`: 624 words and the
    /// position (ValueError otherwise).
    #[staticmethod]
    fn from_state(state: Vec<u64>) -> PyResult<Self> {
        guard("PythonRandom.from_state", || {
            let bad =
                || PyValueError::new_err("a Mersenne Twister state is 624 words and a position");
            let (position, words) = state.split_last().ok_or_else(bad)?;
            let words: Vec<u32> = words
                .iter()
                .map(|&w| u32::try_from(w).map_err(|_| bad()))
                .collect::<PyResult<_>>()?;
            let words: [u32; 624] = words.try_into().map_err(|_| bad())?;
            let index = usize::try_from(*position).map_err(|_| bad())?;
            let rng = PythonRandom::from_state(words, index).ok_or_else(bad)?;
            Ok(Self {
                rng: Mutex::new(rng),
            })
        })
    }

    /// The state as `random.Random.getstate()[1]` gives it: 624 words, then the position.
    fn state(&self) -> PyResult<Vec<u64>> {
        guard("PythonRandom.state", || {
            let (words, index) = self.lock()?.state();
            let mut out: Vec<u64> = words.iter().map(|&w| u64::from(w)).collect();
            out.push(index as u64);
            Ok(out)
        })
    }

    /// `random()`: the next float in [0, 1).
    fn random(&self) -> PyResult<f64> {
        guard("random", || Ok(self.lock()?.random()))
    }

    /// `getrandbits(k)`: an int of `k` random bits (`k` from 0 to 2**24).
    fn getrandbits(&self, py: Python<'_>, k: i64) -> PyResult<PyObject> {
        guard("getrandbits", || {
            if k < 0 {
                return Err(PyValueError::new_err("number of bits must be non-negative"));
            }
            if k > MAX_BITS {
                return Err(PyValueError::new_err(format!(
                    "number of bits must be at most {MAX_BITS}, got {k}"
                )));
            }
            let words = self.lock()?.getrandbits_words(k as usize);
            int_from_words(py, &words)
        })
    }

    /// `randrange(n)`: a uniform int in `range(n)` (`n` > 0).
    fn randrange(&self, py: Python<'_>, n: &Bound<'_, PyInt>) -> PyResult<PyObject> {
        guard("randrange", || {
            if n.le(0)? {
                return Err(PyValueError::new_err("empty range for randrange()"));
            }
            if let Ok(small) = n.extract::<u64>() {
                let value = self.lock()?.randbelow(small);
                return Ok(value.into_pyobject(py)?.into_any().unbind());
            }
            let words = self.lock()?.randbelow_words(&words_of(n)?);
            int_from_words(py, &words)
        })
    }
}
