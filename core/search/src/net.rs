//! The learned evaluator: a value and policy network read from a `.bbnet` file (the twin of
//! `learn/network.py`), evaluated in f32 without allocating once its scratch has warmed up.
//!
//! The network is a multilayer perceptron: the view features (length F) go through the hidden
//! layers (ReLU), then two heads read the last hidden layer (width H):
//!
//! - the value head: P outputs through a sigmoid, each seat's expected reward, rotated as the
//!   features (output 0 is the deciding seat);
//! - the policy head: A outputs `z`; the logit of an action is the sum of `z` at its
//!   action-feature indices, and the prior is the softmax of the logits over the legal actions.
//!
//! The search evaluates a decision once ([`Network::evaluate`]: trunk and value head, keeping
//! the last hidden layer in the [`NetScratch`]) and then asks only for the head outputs at the
//! indices of its legal actions ([`Network::policy_output`], one contiguous dot product each:
//! the policy weights are stored transposed, `[A, H]`).
//!
//! # The file format (`.bbnet`)
//!
//! ```text
//! magic            7 bytes   b"BBNET1\n"
//! header length    u32 LE    the length in bytes of the header that follows
//! header           UTF-8 JSON object: game (string), players, feature_size,
//!                  action_feature_size, features_version (integers), hidden (list of
//!                  widths, each >= 1), card (free object); other keys are ignored
//! arrays           f32 LE, nothing after them, in this order:
//!                    each hidden layer l: weight [in_l, out_l] row-major, then bias [out_l]
//!                      (in_0 = feature_size, in_l = hidden[l - 1], out_l = hidden[l])
//!                    value head:  weight [H, players] row-major, then bias [players]
//!                    policy head: weight [H, action_feature_size] row-major, then bias
//!                  (H = the last hidden width, or feature_size without hidden layers)
//! ```
//!
//! Input normalisation is folded into the first layer when a model is exported, so the file
//! holds plain weights. Every weight must be finite.

use std::fmt;

use serde_json::{Map, Value};

/// The first bytes of every `.bbnet` file.
pub const MAGIC: &[u8] = b"BBNET1\n";

/// Why a network file cannot be read, or an input cannot be evaluated.
#[derive(Clone, Debug, PartialEq)]
pub enum NetError {
    /// The file does not start with [`MAGIC`].
    BadMagic,
    /// The file ends before `what` is complete.
    Truncated {
        /// The part being read (the header length, the header, the weights).
        what: &'static str,
        /// Bytes that part needs.
        needed: usize,
        /// Bytes the file still had.
        available: usize,
    },
    /// The header is not UTF-8 JSON text of an object.
    BadHeader {
        /// What is wrong with it.
        reason: String,
    },
    /// A header field is missing or has an impossible value.
    BadField {
        /// The field's name.
        field: &'static str,
        /// What is wrong with it.
        reason: String,
    },
    /// The weights after the header are not exactly the size the header implies.
    SizeMismatch {
        /// Bytes of weights the header implies.
        expected: usize,
        /// Bytes of weights the file has.
        found: usize,
    },
    /// A weight that is NaN or infinite.
    NonFinite {
        /// The array holding it (`layer 0 weight`, `value bias`, ...).
        array: String,
        /// Its index in the array (row-major).
        index: usize,
    },
    /// An input vector of the wrong length.
    InputLength {
        /// The network's feature size.
        expected: usize,
        /// The length given.
        got: usize,
    },
    /// An action-feature index outside the policy head.
    ActionIndex {
        /// The index given.
        index: u32,
        /// The policy head's width.
        size: usize,
    },
}

impl fmt::Display for NetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NetError::BadMagic => write!(
                f,
                "not a boardbot network file: it does not start with the magic BBNET1"
            ),
            NetError::Truncated {
                what,
                needed,
                available,
            } => write!(
                f,
                "truncated network file: {what} needs {needed} bytes, {available} left"
            ),
            NetError::BadHeader { reason } => write!(f, "bad network header: {reason}"),
            NetError::BadField { field, reason } => {
                write!(f, "bad network header field '{field}': {reason}")
            }
            NetError::SizeMismatch { expected, found } => write!(
                f,
                "network weights do not match the header: it implies {expected} bytes of \
                 weights, the file has {found}"
            ),
            NetError::NonFinite { array, index } => {
                write!(f, "network weight {array}[{index}] is not finite")
            }
            NetError::InputLength { expected, got } => {
                write!(f, "the network takes {expected} features, got {got}")
            }
            NetError::ActionIndex { index, size } => write!(
                f,
                "action-feature index {index} is outside the policy head (size {size})"
            ),
        }
    }
}

impl std::error::Error for NetError {}

/// One dense layer, weight `[inputs, outputs]` row-major (the file's layout).
#[derive(Clone, Debug, PartialEq)]
struct Dense {
    outputs: usize,
    weight: Vec<f32>,
    bias: Vec<f32>,
}

/// A head read by dot products: weight transposed to `[outputs, inputs]` row-major.
#[derive(Clone, Debug, PartialEq)]
struct Head {
    inputs: usize,
    weight_t: Vec<f32>,
    bias: Vec<f32>,
}

impl Head {
    /// Output `index` of the head for the hidden layer `hidden` (None outside the head).
    #[inline]
    fn output(&self, hidden: &[f32], index: usize) -> Option<f32> {
        let start = index.checked_mul(self.inputs)?;
        let row = self.weight_t.get(start..start.checked_add(self.inputs)?)?;
        let bias = *self.bias.get(index)?;
        if hidden.len() != self.inputs {
            return None;
        }
        Some(bias + dot(row, hidden))
    }
}

/// The working memory of evaluations: the hidden layers, the last one kept for the policy.
///
/// One scratch serves any number of evaluations of any network; once it has grown to a
/// network's widest layer, evaluating allocates nothing.
#[derive(Clone, Debug, Default)]
pub struct NetScratch {
    /// The last hidden layer of the latest evaluation.
    hidden: Vec<f32>,
    /// The other buffer the trunk alternates with.
    spare: Vec<f32>,
}

impl NetScratch {
    /// An empty scratch (it grows on the first evaluation).
    pub fn new() -> Self {
        Self::default()
    }

    /// The last hidden layer kept by the latest evaluation.
    pub fn hidden(&self) -> &[f32] {
        &self.hidden
    }
}

/// A value and policy network (see the module documentation for the layout and the file).
#[derive(Clone, Debug, PartialEq)]
pub struct Network {
    game: String,
    players: usize,
    feature_size: usize,
    action_feature_size: usize,
    features_version: u32,
    hidden_widths: Vec<usize>,
    card: Value,
    layers: Vec<Dense>,
    value: Head,
    policy: Head,
}

/// A cursor over the bytes of a file.
struct Reader<'a> {
    bytes: &'a [u8],
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize, what: &'static str) -> Result<&'a [u8], NetError> {
        if self.bytes.len() < n {
            return Err(NetError::Truncated {
                what,
                needed: n,
                available: self.bytes.len(),
            });
        }
        let (head, rest) = self.bytes.split_at(n);
        self.bytes = rest;
        Ok(head)
    }

    /// The next `n` little-endian f32, checked finite.
    fn floats(&mut self, n: usize, array: String) -> Result<Vec<f32>, NetError> {
        let bytes = self.take(n * 4, "the weights")?;
        let mut out = Vec::with_capacity(n);
        for (index, chunk) in bytes.chunks_exact(4).enumerate() {
            let value = f32::from_le_bytes([chunk[0], chunk[1], chunk[2], chunk[3]]);
            if !value.is_finite() {
                return Err(NetError::NonFinite { array, index });
            }
            out.push(value);
        }
        Ok(out)
    }
}

fn field<'a>(header: &'a Map<String, Value>, field: &'static str) -> Result<&'a Value, NetError> {
    header.get(field).ok_or(NetError::BadField {
        field,
        reason: "missing".to_owned(),
    })
}

fn count_field(
    header: &Map<String, Value>,
    name: &'static str,
    min: u64,
) -> Result<usize, NetError> {
    let value = field(header, name)?;
    match value.as_u64() {
        Some(n) if n >= min => usize::try_from(n).map_err(|_| NetError::BadField {
            field: name,
            reason: format!("{n} is too large"),
        }),
        _ => Err(NetError::BadField {
            field: name,
            reason: format!("must be an integer >= {min}, got {value}"),
        }),
    }
}

fn widths(header: &Map<String, Value>) -> Result<Vec<usize>, NetError> {
    let value = field(header, "hidden")?;
    let bad = |reason: String| NetError::BadField {
        field: "hidden",
        reason,
    };
    let list = value
        .as_array()
        .ok_or_else(|| bad(format!("must be a list of widths, got {value}")))?;
    list.iter()
        .enumerate()
        .map(|(i, width)| match width.as_u64() {
            Some(n) if n >= 1 => {
                usize::try_from(n).map_err(|_| bad(format!("width {i}: {n} is too large")))
            }
            _ => Err(bad(format!(
                "width {i} must be an integer >= 1, got {width}"
            ))),
        })
        .collect()
}

/// Weights implied by the header: (inputs, outputs) of every matrix, and the total f32 count.
fn shapes(
    features: usize,
    hidden: &[usize],
    players: usize,
    actions: usize,
) -> Option<(Vec<(usize, usize)>, usize)> {
    let mut shapes = Vec::with_capacity(hidden.len() + 2);
    let mut inputs = features;
    for &width in hidden {
        shapes.push((inputs, width));
        inputs = width;
    }
    shapes.push((inputs, players));
    shapes.push((inputs, actions));
    let mut total: usize = 0;
    for &(i, o) in &shapes {
        total = total.checked_add(i.checked_mul(o)?.checked_add(o)?)?;
    }
    total.checked_mul(4)?;
    Some((shapes, total))
}

/// `weight` `[inputs, outputs]` row-major, transposed to `[outputs, inputs]`.
fn transpose(weight: &[f32], inputs: usize, outputs: usize) -> Vec<f32> {
    let mut out = vec![0.0; weight.len()];
    for (i, row) in weight.chunks_exact(outputs.max(1)).enumerate() {
        for (o, w) in row.iter().enumerate() {
            if let Some(slot) = out.get_mut(o * inputs + i) {
                *slot = *w;
            }
        }
    }
    out
}

/// Dot product with eight independent sums, which the compiler turns into vector code.
#[inline]
fn dot(a: &[f32], b: &[f32]) -> f32 {
    let mut lanes = [0.0f32; 8];
    let chunks_a = a.chunks_exact(8);
    let chunks_b = b.chunks_exact(8);
    let tail: f32 = chunks_a
        .remainder()
        .iter()
        .zip(chunks_b.remainder())
        .map(|(x, y)| x * y)
        .sum();
    for (ca, cb) in chunks_a.zip(chunks_b) {
        for ((lane, x), y) in lanes.iter_mut().zip(ca).zip(cb) {
            *lane += x * y;
        }
    }
    let pairs = [
        lanes[0] + lanes[4],
        lanes[1] + lanes[5],
        lanes[2] + lanes[6],
        lanes[3] + lanes[7],
    ];
    (pairs[0] + pairs[2]) + (pairs[1] + pairs[3]) + tail
}

/// The logistic function, in the form that never overflows (the Python twin's).
#[inline]
fn sigmoid(x: f32) -> f32 {
    let e = (-x.abs()).exp();
    if x >= 0.0 {
        1.0 / (1.0 + e)
    } else {
        e / (1.0 + e)
    }
}

/// `out = relu(input · weight + bias)` for a dense layer (`out` cleared first).
///
/// The loop runs over inputs, adding each one's weight row to the outputs: contiguous rows
/// the compiler vectorises, and zero inputs (ReLU's and sparse features') skipped outright.
fn dense_relu(layer: &Dense, input: &[f32], out: &mut Vec<f32>) {
    out.clear();
    out.extend_from_slice(&layer.bias);
    for (x, row) in input.iter().zip(layer.weight.chunks_exact(layer.outputs)) {
        if *x == 0.0 {
            continue;
        }
        for (o, w) in out.iter_mut().zip(row) {
            *o += x * w;
        }
    }
    for o in out.iter_mut() {
        *o = o.max(0.0);
    }
}

impl Network {
    /// The network in the bytes of a `.bbnet` file (see the module documentation).
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetError> {
        if !bytes.starts_with(MAGIC) {
            return Err(NetError::BadMagic);
        }
        let mut reader = Reader {
            bytes: &bytes[MAGIC.len()..],
        };
        let length = reader.take(4, "the header length")?;
        let length = u32::from_le_bytes([length[0], length[1], length[2], length[3]]);
        let header = reader.take(length as usize, "the header")?;
        let text = std::str::from_utf8(header).map_err(|err| NetError::BadHeader {
            reason: format!("not UTF-8: {err}"),
        })?;
        let header: Value = serde_json::from_str(text).map_err(|err| NetError::BadHeader {
            reason: format!("not JSON: {err}"),
        })?;
        let Value::Object(header) = header else {
            return Err(NetError::BadHeader {
                reason: format!("not a JSON object: {header}"),
            });
        };
        let game = match field(&header, "game")? {
            Value::String(name) => name.clone(),
            other => {
                return Err(NetError::BadField {
                    field: "game",
                    reason: format!("must be a string, got {other}"),
                })
            }
        };
        let players = count_field(&header, "players", 1)?;
        let feature_size = count_field(&header, "feature_size", 1)?;
        let action_feature_size = count_field(&header, "action_feature_size", 0)?;
        let version = count_field(&header, "features_version", 0)?;
        let features_version = u32::try_from(version).map_err(|_| NetError::BadField {
            field: "features_version",
            reason: format!("{version} does not fit in 32 bits"),
        })?;
        let hidden_widths = widths(&header)?;
        let card = header.get("card").cloned().unwrap_or(Value::Null);
        if !(card.is_object() || card.is_null()) {
            return Err(NetError::BadField {
                field: "card",
                reason: "must be an object".to_owned(),
            });
        }
        let too_large = NetError::BadField {
            field: "hidden",
            reason: "the layer sizes overflow".to_owned(),
        };
        let (shapes, total) =
            shapes(feature_size, &hidden_widths, players, action_feature_size).ok_or(too_large)?;
        if reader.bytes.len() != total * 4 {
            return Err(NetError::SizeMismatch {
                expected: total * 4,
                found: reader.bytes.len(),
            });
        }
        let mut layers = Vec::with_capacity(hidden_widths.len());
        let mut heads = Vec::with_capacity(2);
        for (l, &(inputs, outputs)) in shapes.iter().enumerate() {
            let name = match l.checked_sub(hidden_widths.len()) {
                None => format!("layer {l}"),
                Some(0) => "value".to_owned(),
                Some(_) => "policy".to_owned(),
            };
            let weight = reader.floats(inputs * outputs, format!("{name} weight"))?;
            let bias = reader.floats(outputs, format!("{name} bias"))?;
            if l < hidden_widths.len() {
                layers.push(Dense {
                    outputs,
                    weight,
                    bias,
                });
            } else {
                heads.push(Head {
                    inputs,
                    weight_t: transpose(&weight, inputs, outputs),
                    bias,
                });
            }
        }
        let (Some(policy), Some(value)) = (heads.pop(), heads.pop()) else {
            return Err(NetError::BadHeader {
                reason: "the heads are missing".to_owned(),
            });
        };
        Ok(Network {
            game,
            players,
            feature_size,
            action_feature_size,
            features_version,
            hidden_widths,
            card,
            layers,
            value,
            policy,
        })
    }

    /// The game the network was trained for (the header's `game`).
    pub fn game(&self) -> &str {
        &self.game
    }

    /// Seats of the games it was trained on: the value head's width.
    pub fn players(&self) -> usize {
        self.players
    }

    /// Length of the input: the game's view features.
    pub fn feature_size(&self) -> usize {
        self.feature_size
    }

    /// Width of the policy head: the game's action-feature space.
    pub fn action_feature_size(&self) -> usize {
        self.action_feature_size
    }

    /// Version of the game's feature definition the network reads.
    pub fn features_version(&self) -> u32 {
        self.features_version
    }

    /// Widths of the hidden layers.
    pub fn hidden(&self) -> &[usize] {
        &self.hidden_widths
    }

    /// The header's free `card` object (Null when it has none).
    pub fn card(&self) -> &Value {
        &self.card
    }

    /// Width of the last hidden layer (the heads' input).
    pub fn head_inputs(&self) -> usize {
        self.value.inputs
    }

    /// A scratch already as large as this network needs: evaluating with it never allocates.
    pub fn scratch(&self) -> NetScratch {
        let widest = self
            .hidden_widths
            .iter()
            .copied()
            .chain([self.value.inputs])
            .max()
            .unwrap_or(0);
        NetScratch {
            hidden: Vec::with_capacity(widest),
            spare: Vec::with_capacity(widest),
        }
    }

    /// Runs the trunk and the value head on `features`: each seat's expected reward into
    /// `values` (cleared first, `players()` values, rotated as the features), keeping the last
    /// hidden layer in `scratch` for [`Network::policy_output`].
    pub fn evaluate(
        &self,
        features: &[f32],
        scratch: &mut NetScratch,
        values: &mut Vec<f32>,
    ) -> Result<(), NetError> {
        if features.len() != self.feature_size {
            return Err(NetError::InputLength {
                expected: self.feature_size,
                got: features.len(),
            });
        }
        let NetScratch { hidden, spare } = scratch;
        match self.layers.split_first() {
            None => {
                hidden.clear();
                hidden.extend_from_slice(features);
            }
            Some((first, rest)) => {
                dense_relu(first, features, hidden);
                for layer in rest {
                    dense_relu(layer, hidden, spare);
                    std::mem::swap(hidden, spare);
                }
            }
        }
        values.clear();
        for index in 0..self.players {
            let z = self.value.output(hidden, index).unwrap_or(f32::NAN);
            values.push(sigmoid(z));
        }
        Ok(())
    }

    /// Policy head output `z[index]` for the hidden layer the latest [`Network::evaluate`]
    /// kept in `scratch`: one dot product over the last hidden layer.
    ///
    /// NaN when `index` is outside the head (`index >= action_feature_size()`) or the scratch
    /// holds no evaluation of this network; [`Network::policy_logit`] checks instead.
    #[inline]
    pub fn policy_output(&self, scratch: &NetScratch, index: u32) -> f32 {
        self.policy
            .output(&scratch.hidden, index as usize)
            .unwrap_or(f32::NAN)
    }

    /// The logit of an action: the sum of the policy outputs at its action-feature indices
    /// (after [`Network::evaluate`] on the same scratch).
    pub fn policy_logit(&self, scratch: &NetScratch, indices: &[u32]) -> Result<f32, NetError> {
        let mut logit = 0.0;
        for &index in indices {
            logit += self.policy.output(&scratch.hidden, index as usize).ok_or(
                NetError::ActionIndex {
                    index,
                    size: self.action_feature_size,
                },
            )?;
        }
        Ok(logit)
    }

    /// Values and the whole policy head: [`Network::evaluate`], then every output `z` into
    /// `policy` (cleared first, `action_feature_size()` values).
    pub fn forward(
        &self,
        features: &[f32],
        scratch: &mut NetScratch,
        values: &mut Vec<f32>,
        policy: &mut Vec<f32>,
    ) -> Result<(), NetError> {
        self.evaluate(features, scratch, values)?;
        policy.clear();
        for index in 0..self.action_feature_size {
            policy.push(
                self.policy
                    .output(&scratch.hidden, index)
                    .unwrap_or(f32::NAN),
            );
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A `.bbnet` file written by hand: header JSON, then the arrays in order.
    fn file(header: &str, arrays: &[&[f32]]) -> Vec<u8> {
        let mut out = MAGIC.to_vec();
        out.extend_from_slice(&(header.len() as u32).to_le_bytes());
        out.extend_from_slice(header.as_bytes());
        for array in arrays {
            for value in *array {
                out.extend_from_slice(&value.to_le_bytes());
            }
        }
        out
    }

    const HEADER: &str = r#"{"game":"toy","players":2,"feature_size":3,"action_feature_size":4,
        "features_version":7,"hidden":[2],"card":{"note":"hand-made"}}"#;

    /// F=3 -> H=2 -> values P=2, policy A=4.
    fn tiny() -> Vec<u8> {
        file(
            HEADER,
            &[
                // layer 0: weight [3, 2], bias [2]
                &[1.0, -1.0, 0.5, 2.0, 0.0, 1.0],
                &[0.0, 0.5],
                // value head: weight [2, 2], bias [2]
                &[1.0, 0.0, 0.0, -1.0],
                &[0.0, 0.25],
                // policy head: weight [2, 4], bias [4]
                &[1.0, 2.0, 3.0, 4.0, -1.0, 0.0, 1.0, 0.5],
                &[0.1, 0.2, 0.3, 0.4],
            ],
        )
    }

    fn sig(x: f32) -> f32 {
        1.0 / (1.0 + (-x).exp())
    }

    #[test]
    fn a_hand_made_network_evaluates_as_written() {
        let net = Network::from_bytes(&tiny()).unwrap();
        assert_eq!(net.game(), "toy");
        assert_eq!(net.players(), 2);
        assert_eq!(net.feature_size(), 3);
        assert_eq!(net.action_feature_size(), 4);
        assert_eq!(net.features_version(), 7);
        assert_eq!(net.hidden(), &[2]);
        assert_eq!(net.card()["note"], "hand-made");
        let x = [1.0, 2.0, -1.0];
        // hidden = relu([1 + 1 + 0, -1 + 4 - 1 + 0.5]) = [2, 2.5]
        let h = [2.0f32, 2.5];
        let mut scratch = NetScratch::new();
        let (mut values, mut policy) = (Vec::new(), Vec::new());
        net.forward(&x, &mut scratch, &mut values, &mut policy)
            .unwrap();
        assert_eq!(scratch.hidden(), &h);
        let expected_values = [sig(h[0]), sig(-h[1] + 0.25)];
        for (got, want) in values.iter().zip(expected_values) {
            assert!((got - want).abs() < 1e-6, "{got} vs {want}");
        }
        let expected_policy = [
            2.0 - 2.5 + 0.1,
            4.0 + 0.2,
            6.0 + 2.5 + 0.3,
            8.0 + 1.25 + 0.4,
        ];
        assert_eq!(policy.len(), 4);
        for (index, want) in expected_policy.iter().enumerate() {
            assert!((policy[index] - want).abs() < 1e-5);
            let one = net.policy_output(&scratch, index as u32);
            assert!((one - want).abs() < 1e-5);
        }
        let logit = net.policy_logit(&scratch, &[1, 3]).unwrap();
        assert!((logit - (expected_policy[1] + expected_policy[3])).abs() < 1e-5);
        assert!(net.policy_output(&scratch, 4).is_nan());
        assert_eq!(
            net.policy_logit(&scratch, &[0, 9]),
            Err(NetError::ActionIndex { index: 9, size: 4 })
        );
    }

    /// The buffers of a scratch, as addresses (a reallocation moves one).
    fn buffers(scratch: &NetScratch) -> [usize; 2] {
        let mut out = [
            scratch.hidden.as_ptr() as usize,
            scratch.spare.as_ptr() as usize,
        ];
        out.sort_unstable();
        out
    }

    #[test]
    fn evaluating_again_reuses_the_scratch() {
        let net = Network::from_bytes(&tiny()).unwrap();
        let mut scratch = NetScratch::new();
        let mut values = Vec::new();
        net.evaluate(&[1.0, 2.0, -1.0], &mut scratch, &mut values)
            .unwrap();
        let first = values.clone();
        let pointer = values.as_ptr();
        net.evaluate(&[0.0, 0.0, 0.0], &mut scratch, &mut values)
            .unwrap();
        net.evaluate(&[1.0, 2.0, -1.0], &mut scratch, &mut values)
            .unwrap();
        assert_eq!(values, first);
        assert_eq!(values.as_ptr(), pointer);
        // A network's own scratch never moves its buffers, layers of any widths.
        let header = r#"{"game":"toy","players":1,"feature_size":2,"action_feature_size":1,
            "features_version":0,"hidden":[3,5,2]}"#;
        let sizes = [6, 3, 15, 5, 10, 2, 2, 1, 2, 1];
        let arrays: Vec<Vec<f32>> = sizes.iter().map(|&n| vec![0.5; n]).collect();
        let refs: Vec<&[f32]> = arrays.iter().map(Vec::as_slice).collect();
        let deep = Network::from_bytes(&file(header, &refs)).unwrap();
        let mut scratch = deep.scratch();
        let before = buffers(&scratch);
        for _ in 0..3 {
            deep.evaluate(&[1.0, 1.0], &mut scratch, &mut values)
                .unwrap();
            assert_eq!(buffers(&scratch), before);
        }
        assert_eq!(scratch.hidden().len(), 2);
        assert_eq!(
            net.evaluate(&[1.0], &mut scratch, &mut values),
            Err(NetError::InputLength {
                expected: 3,
                got: 1
            })
        );
    }

    #[test]
    fn deeper_and_linear_networks_run() {
        let header = r#"{"game":"toy","players":1,"feature_size":2,"action_feature_size":1,
            "features_version":0,"hidden":[3,2]}"#;
        let bytes = file(
            header,
            &[
                &[1.0, 0.0, -1.0, 0.0, 1.0, 1.0],
                &[0.0, 0.0, 0.0],
                &[1.0, 0.0, 0.0, 1.0, 1.0, 1.0],
                &[0.0, -1.0],
                &[1.0, 1.0],
                &[0.0],
                &[2.0, -3.0],
                &[1.0],
            ],
        );
        let net = Network::from_bytes(&bytes).unwrap();
        let mut scratch = NetScratch::new();
        let (mut values, mut policy) = (Vec::new(), Vec::new());
        net.forward(&[1.0, 2.0], &mut scratch, &mut values, &mut policy)
            .unwrap();
        // h1 = relu([1, 2, 1]) ; h2 = relu([1 + 1, 2 + 1 - 1]) = [2, 2]
        assert_eq!(scratch.hidden(), &[2.0, 2.0]);
        assert!((values[0] - sig(4.0)).abs() < 1e-6);
        assert!((policy[0] - (4.0 - 6.0 + 1.0)).abs() < 1e-6);

        let linear = r#"{"game":"toy","players":1,"feature_size":2,"action_feature_size":2,
            "features_version":0,"hidden":[]}"#;
        let bytes = file(
            linear,
            &[&[1.0, 1.0], &[0.0], &[1.0, 0.0, 0.0, 1.0], &[0.0, 0.0]],
        );
        let net = Network::from_bytes(&bytes).unwrap();
        net.forward(&[0.5, -3.0], &mut scratch, &mut values, &mut policy)
            .unwrap();
        assert!((values[0] - sig(-2.5)).abs() < 1e-6);
        assert_eq!(policy, vec![0.5, -3.0]);
    }

    #[test]
    fn the_sigmoid_saturates_without_overflow() {
        assert_eq!(sigmoid(1000.0), 1.0);
        assert_eq!(sigmoid(-1000.0), 0.0);
        assert!((sigmoid(0.0) - 0.5).abs() < 1e-7);
    }

    #[test]
    fn bad_files_are_refused_with_what_is_wrong() {
        let good = tiny();
        assert_eq!(
            Network::from_bytes(b"BBNET2\n...."),
            Err(NetError::BadMagic)
        );
        assert_eq!(Network::from_bytes(b""), Err(NetError::BadMagic));
        assert!(matches!(
            Network::from_bytes(&good[..9]),
            Err(NetError::Truncated {
                what: "the header length",
                ..
            })
        ));
        assert!(matches!(
            Network::from_bytes(&good[..20]),
            Err(NetError::Truncated {
                what: "the header",
                ..
            })
        ));
        let err = Network::from_bytes(&good[..good.len() - 3]).unwrap_err();
        assert_eq!(
            err,
            NetError::SizeMismatch {
                expected: 26 * 4,
                found: 26 * 4 - 3
            }
        );
        assert!(err.to_string().contains("implies 104 bytes"));
        let mut long = good.clone();
        long.extend_from_slice(&[0, 0, 0, 0]);
        assert!(matches!(
            Network::from_bytes(&long),
            Err(NetError::SizeMismatch { .. })
        ));
        let mut nan = good.clone();
        let at = nan.len() - 4;
        nan[at..].copy_from_slice(&f32::NAN.to_le_bytes());
        assert_eq!(
            Network::from_bytes(&nan),
            Err(NetError::NonFinite {
                array: "policy bias".to_owned(),
                index: 3
            })
        );
        let no_players = HEADER.replace(r#""players":2"#, r#""players":0"#);
        let err = Network::from_bytes(&file(&no_players, &[])).unwrap_err();
        assert!(matches!(
            err,
            NetError::BadField {
                field: "players",
                ..
            }
        ));
        assert!(err.to_string().contains("'players'"));
        let no_hidden = HEADER.replace(r#""hidden":[2]"#, r#""hidden":[2, 0]"#);
        assert!(matches!(
            Network::from_bytes(&file(&no_hidden, &[])),
            Err(NetError::BadField {
                field: "hidden",
                ..
            })
        ));
        let missing = HEADER.replace(r#""game":"toy","#, "");
        assert_eq!(
            Network::from_bytes(&file(&missing, &[])),
            Err(NetError::BadField {
                field: "game",
                reason: "missing".to_owned()
            })
        );
        assert!(matches!(
            Network::from_bytes(&file("[1, 2]", &[])),
            Err(NetError::BadHeader { .. })
        ));
        assert!(matches!(
            Network::from_bytes(&file("{not json", &[])),
            Err(NetError::BadHeader { .. })
        ));
        let huge = HEADER.replace(r#""hidden":[2]"#, r#""hidden":[18446744073709551615, 4]"#);
        assert!(Network::from_bytes(&file(&huge, &[])).is_err());
    }
}
