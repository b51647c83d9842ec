//! The learned evaluator behind Python: `Network`, a value and policy network read from the
//! bytes of a `.bbnet` file (`boardbot_search::net`), for the agreement tests with
//! `boardbot.learn.network` and the benchmark of one evaluation.

use std::hint::black_box;
use std::time::Instant;

use boardbot_search::net::{NetError, NetScratch, Network};
use pyo3::prelude::*;

use crate::errors::{guard, InvalidNetworkError, NetworkError};

/// The core's network error as its exception type, with the core's message.
fn net_error(err: &NetError) -> PyErr {
    let message = err.to_string();
    match err {
        NetError::InputLength { .. } | NetError::ActionIndex { .. } => {
            NetworkError::new_err(message)
        }
        _ => InvalidNetworkError::new_err(message),
    }
}

/// A value and policy network read from the bytes of a `.bbnet` file.
#[pyclass(frozen, module = "boardbot_native", name = "Network")]
pub struct PyNetwork {
    net: Network,
}

#[pymethods]
impl PyNetwork {
    #[new]
    fn new(data: &[u8]) -> PyResult<Self> {
        guard("Network", || {
            Network::from_bytes(data)
                .map(|net| Self { net })
                .map_err(|err| net_error(&err))
        })
    }

    /// The game the network was trained for.
    #[getter]
    fn game(&self) -> &str {
        self.net.game()
    }

    /// Seats of the games it was trained on (the value head's width).
    #[getter]
    fn players(&self) -> usize {
        self.net.players()
    }

    /// Length of the input (the game's view features).
    #[getter]
    fn feature_size(&self) -> usize {
        self.net.feature_size()
    }

    /// Width of the policy head (the game's action-feature space).
    #[getter]
    fn action_feature_size(&self) -> usize {
        self.net.action_feature_size()
    }

    /// Version of the feature definition the network reads.
    #[getter]
    fn features_version(&self) -> u32 {
        self.net.features_version()
    }

    /// Widths of the hidden layers.
    #[getter]
    fn hidden(&self) -> Vec<usize> {
        self.net.hidden().to_vec()
    }

    /// Each seat's expected reward (sigmoid of the value head) for one feature vector.
    fn evaluate(&self, features: Vec<f32>) -> PyResult<Vec<f32>> {
        guard("Network.evaluate", || {
            let mut values = Vec::new();
            self.net
                .evaluate(&features, &mut NetScratch::new(), &mut values)
                .map_err(|err| net_error(&err))?;
            Ok(values)
        })
    }

    /// (values, policy head outputs) for one feature vector.
    fn forward(&self, features: Vec<f32>) -> PyResult<(Vec<f32>, Vec<f32>)> {
        guard("Network.forward", || {
            let (mut values, mut policy) = (Vec::new(), Vec::new());
            self.net
                .forward(&features, &mut NetScratch::new(), &mut values, &mut policy)
                .map_err(|err| net_error(&err))?;
            Ok((values, policy))
        })
    }

    /// The logit of each action (the sum of the policy outputs at its indices) after
    /// evaluating `features`.
    fn policy_logits(&self, features: Vec<f32>, actions: Vec<Vec<u32>>) -> PyResult<Vec<f32>> {
        guard("Network.policy_logits", || {
            let mut scratch = NetScratch::new();
            self.net
                .evaluate(&features, &mut scratch, &mut Vec::new())
                .map_err(|err| net_error(&err))?;
            actions
                .iter()
                .map(|indices| {
                    self.net
                        .policy_logit(&scratch, indices)
                        .map_err(|err| net_error(&err))
                })
                .collect()
        })
    }

    /// Seconds `iterations` evaluations take inside Rust (without the GIL): each one the values
    /// and the logits of `actions` (lists of action-feature indices), as a search asks for them.
    fn bench(
        &self,
        py: Python<'_>,
        features: Vec<f32>,
        actions: Vec<Vec<u32>>,
        iterations: u64,
    ) -> PyResult<f64> {
        guard("Network.bench", || {
            let mut scratch = self.net.scratch();
            let mut values = Vec::new();
            self.net
                .evaluate(&features, &mut scratch, &mut values)
                .map_err(|err| net_error(&err))?;
            for indices in &actions {
                self.net
                    .policy_logit(&scratch, indices)
                    .map_err(|err| net_error(&err))?;
            }
            let net = &self.net;
            let seconds = py.allow_threads(|| {
                let start = Instant::now();
                let mut sink = 0.0f32;
                for _ in 0..iterations {
                    // Checked above: the length is right, so evaluating cannot fail.
                    let _ = net.evaluate(black_box(&features), &mut scratch, &mut values);
                    sink += values.first().copied().unwrap_or(0.0);
                    for indices in &actions {
                        for &index in indices {
                            sink += net.policy_output(&scratch, index);
                        }
                    }
                }
                black_box(sink);
                start.elapsed().as_secs_f64()
            });
            Ok(seconds)
        })
    }

    fn __repr__(&self) -> String {
        format!(
            "Network(game={:?}, players={}, feature_size={}, hidden={:?}, \
             action_feature_size={})",
            self.net.game(),
            self.net.players(),
            self.net.feature_size(),
            self.net.hidden(),
            self.net.action_feature_size()
        )
    }
}
