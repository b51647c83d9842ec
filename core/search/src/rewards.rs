//! Per-seat reward vectors: win first, score margin second (the twin of `search/rewards.py`).

use boardbot_rules::Game;

/// Seat's score margin over its best rival, squashed into [0, 1] (0.5: level).
pub fn margin_share(scores: &[f64], seat: usize) -> f64 {
    let own = scores.get(seat).copied().unwrap_or(0.0);
    let rival = scores
        .iter()
        .enumerate()
        .filter(|(i, _)| *i != seat)
        .map(|(_, s)| *s)
        .fold(f64::NEG_INFINITY, f64::max);
    let spread = own.abs() + rival.abs();
    if spread == 0.0 {
        return 0.5;
    }
    0.5 + 0.5 * (own - rival) / spread
}

/// Reward of each seat at a terminal state, into `out`: (1-w)·returns + w·squashed margin.
pub fn terminal_reward<G: Game>(
    game: &G,
    state: &G::State,
    margin_weight: f64,
    out: &mut Vec<f64>,
) {
    out.clear();
    out.extend(game.returns(state));
    if margin_weight <= 0.0 || out.len() < 2 {
        return;
    }
    let scores = game.scores(state);
    let keep = 1.0 - margin_weight;
    for (seat, reward) in out.iter_mut().enumerate() {
        *reward = keep * *reward + margin_weight * margin_share(&scores, seat);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn margin_share_squashes_the_lead_over_the_best_rival() {
        assert_eq!(margin_share(&[0.0, 0.0], 0), 0.5);
        assert_eq!(margin_share(&[10.0, 10.0, 3.0], 0), 0.5);
        assert_eq!(margin_share(&[30.0, 10.0], 0), 0.5 + 0.5 * 20.0 / 40.0);
        assert_eq!(margin_share(&[30.0, 10.0], 1), 0.5 - 0.5 * 20.0 / 40.0);
        assert_eq!(margin_share(&[5.0, 0.0, 9.0], 1), 0.0);
        assert_eq!(margin_share(&[-4.0, 4.0], 0), 0.0);
        assert_eq!(margin_share(&[4.0, 0.0], 0), 1.0);
    }
}
