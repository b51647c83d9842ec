//! Engine speed: seeded uniformly random Legend Raiders playouts, in engine steps per second.
//!
//! The playouts are `boardbot_rules::playout::random_playouts` (the loop the Python binding's
//! `LegendRaiders.random_playouts` and `boardbot bench engine` run): a step is one
//! `legal_actions` + a uniform choice + `apply` at a decision, or one `sample_chance` + `apply`
//! at a chance step (the Python benchmark's definition, so the figures compare).
//!
//! ```sh
//! cargo run --release --example bench_legend_raiders -- [SECONDS] [VARIANT]
//! ```
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::time::Duration;

use boardbot_rules::playout::{random_playouts, PlayoutBudget};
use boardbot_rules::LegendRaiders;
use serde_json::json;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let seconds: f64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(3.0);
    let variants: Vec<&str> = match args.get(2).map(String::as_str) {
        Some("dice") => vec!["dice"],
        Some("diceless") => vec!["diceless"],
        _ => vec!["dice", "diceless"],
    };
    let budget = PlayoutBudget::Time(Duration::from_secs_f64(seconds));
    println!("| players | variant | steps/s | games/s | steps per game |");
    println!("|---|---|---|---|---|");
    for variant in variants {
        for players in [2u64, 3, 4] {
            let options = json!({"players": players, "variant": variant});
            let seed = players * 1000 + variant.len() as u64;
            let counts =
                random_playouts(&LegendRaiders, &options, seed, budget).expect("valid options");
            println!(
                "| {players} | {variant} | {:.0} | {:.1} | {:.0} |",
                counts.steps_per_second(),
                counts.games_per_second(),
                counts.steps_per_game()
            );
        }
    }
}
