//! Engine speed: seeded uniformly random Legend Raiders playouts, in engine steps per second.
//!
//! A step is one `legal_actions` + a uniform choice + `apply` at a decision, or one
//! `sample_chance` + `apply` at a chance step (the Python benchmark's definition, so the
//! figures compare with `boardbot bench engine`).
//!
//! ```sh
//! cargo run --release --example bench_legend_raiders -- [SECONDS] [VARIANT]
//! ```
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::time::{Duration, Instant};

use boardbot_rules::rng::below;
use boardbot_rules::{seeded_rng, Game, LegendRaiders, CHANCE, TERMINAL};
use serde_json::json;

/// Play seeded games for `seconds`; returns (steps, games, elapsed).
fn run(players: u32, variant: &str, seconds: f64) -> (u64, u64, Duration) {
    let game = LegendRaiders;
    let mut rng = seeded_rng(u64::from(players) * 1000 + variant.len() as u64);
    let mut legal = Vec::with_capacity(64);
    let budget = Duration::from_secs_f64(seconds);
    let options = json!({"players": players, "variant": variant});
    let start = Instant::now();
    let (mut steps, mut games) = (0u64, 0u64);
    let mut seed = 0;
    while start.elapsed() < budget {
        let mut state = game.new_state(&options, seed).expect("valid options");
        seed += 1;
        loop {
            let player = game.current_player(&state);
            if player == TERMINAL {
                break;
            }
            let action = if player == CHANCE {
                game.sample_chance(&state, &mut rng)
                    .expect("a chance outcome")
            } else {
                game.legal_actions(&state, &mut legal);
                legal[below(&mut rng, legal.len() as u32) as usize]
            };
            state = game.apply(&state, action);
            steps += 1;
        }
        games += 1;
    }
    (steps, games, start.elapsed())
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let seconds: f64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(3.0);
    let variants: Vec<&str> = match args.get(2).map(String::as_str) {
        Some("dice") => vec!["dice"],
        Some("diceless") => vec!["diceless"],
        _ => vec!["dice", "diceless"],
    };
    println!("| players | variant | steps/s | games/s | steps per game |");
    println!("|---|---|---|---|---|");
    for variant in variants {
        for players in [2, 3, 4] {
            let (steps, games, elapsed) = run(players, variant, seconds);
            let secs = elapsed.as_secs_f64();
            println!(
                "| {players} | {variant} | {:.0} | {:.1} | {:.0} |",
                steps as f64 / secs,
                games as f64 / secs,
                steps as f64 / games.max(1) as f64
            );
        }
    }
}
