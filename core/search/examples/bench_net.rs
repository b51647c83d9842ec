//! Network speed: microseconds per evaluation of a random value and policy network, as the
//! search asks for one (the trunk and the value head, then the logits of 20 legal actions of 2
//! action-feature indices each), like `boardbot bench net`.
//!
//! ```sh
//! cargo run --release --example bench_net -- [FEATURES] [HIDDEN,WIDTHS] [ACTION_FEATURES] [ITERATIONS]
//! ```
//!
//! Defaults: 300 features, hidden 128,64, 600 action features, 200,000 evaluations, 2 seats;
//! the input is dense (every feature non-zero), each figure the median of 5 runs.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::hint::black_box;
use std::time::Instant;

use boardbot_search::net::{Network, MAGIC};

/// A small deterministic generator (xorshift) for the weights and inputs.
struct Noise(u64);

impl Noise {
    /// A value in [-1, 1).
    fn next(&mut self) -> f32 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 >> 40) as f32 / (1u64 << 23) as f32 - 1.0
    }
}

/// The bytes of a `.bbnet` file of random weights of these sizes.
fn random_file(features: usize, hidden: &[usize], actions: usize, players: usize) -> Vec<u8> {
    let header = serde_json::json!({
        "game": "synthetic", "players": players, "feature_size": features,
        "action_feature_size": actions, "features_version": 0, "hidden": hidden, "card": {},
    })
    .to_string();
    let mut out = MAGIC.to_vec();
    out.extend_from_slice(&(header.len() as u32).to_le_bytes());
    out.extend_from_slice(header.as_bytes());
    let mut noise = Noise(0x9E37_79B9_7F4A_7C15);
    let mut inputs = features;
    let mut shapes: Vec<(usize, usize)> = hidden
        .iter()
        .map(|&width| {
            let shape = (inputs, width);
            inputs = width;
            shape
        })
        .collect();
    shapes.push((inputs, players));
    shapes.push((inputs, actions));
    for (i, o) in shapes {
        let scale = (6.0 / i as f32).sqrt();
        for _ in 0..i * o + o {
            out.extend_from_slice(&(noise.next() * scale).to_le_bytes());
        }
    }
    out
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let features: usize = args.first().map_or(300, |a| a.parse().unwrap());
    let hidden: Vec<usize> = args.get(1).map_or(vec![128, 64], |a| {
        a.split(',').map(|w| w.parse().unwrap()).collect()
    });
    let actions: usize = args.get(2).map_or(600, |a| a.parse().unwrap());
    let iterations: u64 = args.get(3).map_or(200_000, |a| a.parse().unwrap());
    let net = Network::from_bytes(&random_file(features, &hidden, actions, 2)).unwrap();
    let mut noise = Noise(7);
    let x: Vec<f32> = (0..features).map(|_| noise.next() * 0.5 + 0.5).collect();
    let legal: Vec<[u32; 2]> = (0..20)
        .map(|_| {
            let pick = |n: &mut Noise| ((n.next() + 1.0) * 0.5 * actions as f32) as u32;
            [pick(&mut noise), pick(&mut noise)]
        })
        .collect();
    let mut scratch = net.scratch();
    let mut values = Vec::new();
    let mut runs = Vec::new();
    for _ in 0..5 {
        let start = Instant::now();
        let mut sink = 0.0f32;
        for _ in 0..iterations {
            net.evaluate(black_box(&x), &mut scratch, &mut values)
                .unwrap();
            sink += values[0];
            for indices in &legal {
                for &index in indices {
                    sink += net.policy_output(&scratch, index);
                }
            }
        }
        black_box(sink);
        runs.push(start.elapsed().as_secs_f64() * 1e6 / iterations as f64);
    }
    runs.sort_by(f64::total_cmp);
    println!(
        "F={features} hidden={hidden:?} A={actions}: {:.2} us per evaluation (median of 5; \
         runs {:.2?})",
        runs[2], runs
    );
}
