//! The bound of every number and list of a state (state-format.md, "Bounds"), the twin of
//! `bounds.py`: every bound follows from the component data.

use std::sync::OnceLock;

use super::components::{components, CardKind};

/// Bounds derived from the component data.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bounds {
    /// Tiles in the game.
    pub n_tiles: usize,
    /// Expedition cards in the game.
    pub n_cards: usize,
    /// Die cards in the game.
    pub n_die_cards: usize,
    /// Tiles in the Discovery stack: the Headquarters hold theirs while it has any.
    pub stack_max: usize,
    /// Cards in the Expedition deck: the face-up row is full while it has any.
    pub deck_max: usize,
    /// Completed tiles a player can hold: the trigger minus one, then a last turn's completions.
    pub completed_max: usize,
    /// Prepared tiles a player can hold: one over the limit while its discard is pending.
    pub prepared_max: usize,
    /// Points per discovery a turn can add (diceless: every Die card once, then one returned
    /// to the deck and taken again).
    pub coin_bonus_max: usize,
    /// Tools one draw sequence brings (a column refill or a diceless Die card).
    pub tool_draws_max: usize,
    /// Coins a board can show: empty discovery spaces, uncovered completed spaces, Places.
    pub coins_max: i64,
    /// Points a player can score in play: every completion at its most, the best tiles in the
    /// best order.
    pub points_max: i64,
    /// A final score at most: play points, every Mission, every Die card kept.
    pub final_score_max: i64,
    /// `idle_turns` (no longer used or written) was at most 3 rounds of turns.
    pub legacy_idle_turns_per_player: i64,
}

static BOUNDS: OnceLock<Bounds> = OnceLock::new();

/// The bounds for the component set in play (computed once).
pub fn bounds() -> &'static Bounds {
    BOUNDS.get_or_init(compute)
}

fn coins_from(k: usize) -> i64 {
    components()
        .completed_space_coins
        .iter()
        .skip(k)
        .map(|&n| i64::from(n))
        .sum()
}

/// Tile indices, most coins first (ties in index order).
fn tiles_by_coins() -> Vec<usize> {
    let c = components();
    let mut tiles: Vec<usize> = (0..c.n_tiles()).collect();
    tiles.sort_by_key(|&i| -c.tile_coins[i]);
    tiles
}

/// The most `completed_max` completions on `board` can score from the tiles themselves: a
/// tile brings its favourite tools, and its coins once per completion from its own on.
fn tiles_share_max(board: usize, completed_max: usize) -> i64 {
    let c = components();
    let favourite = c.board_favourite[board];
    let mut best = vec![-1i64; completed_max + 1];
    best[0] = 0;
    for tile in tiles_by_coins() {
        for chosen in (0..completed_max).rev() {
            if best[chosen] >= 0 {
                let share = i64::from(c.tile_cost[tile][favourite])
                    + i64::from(c.tile_coins[tile]) * (completed_max - chosen) as i64;
                best[chosen + 1] = best[chosen + 1].max(best[chosen] + share);
            }
        }
    }
    best[completed_max]
}

fn compute() -> Bounds {
    let c = components();
    let n_die_cards = c.n_die_cards;
    let completed_max = c.end_trigger + c.completions_per_turn - 1;
    let coin_bonus_max = n_die_cards + 1;
    let spaces = c.discovery_spaces as i64 * i64::from(c.coins_per_empty_space);
    let by_size: Vec<i64> = tiles_by_coins()
        .iter()
        .map(|&i| i64::from(c.tile_coins[i]))
        .collect();
    let coins_max = (0..=completed_max)
        .map(|k| spaces + coins_from(k) + by_size.iter().take(k).sum::<i64>())
        .max()
        .unwrap_or(0);
    let base: i64 = (1..=completed_max)
        .map(|k| spaces + coins_from(k) + coin_bonus_max as i64)
        .sum();
    let share = (0..c.board_names.len())
        .map(|board| tiles_share_max(board, completed_max))
        .max()
        .unwrap_or(0);
    let points_max = base + share;
    let missions: i64 = c
        .card_kind
        .iter()
        .zip(&c.mission_points)
        .filter(|(kind, _)| **kind == CardKind::Mission)
        .map(|(_, &p)| i64::from(p))
        .sum();
    Bounds {
        n_tiles: c.n_tiles(),
        n_cards: c.n_cards(),
        n_die_cards,
        stack_max: c.n_tiles() - c.hq_columns,
        deck_max: c.n_cards() - c.face_up_cards,
        completed_max,
        prepared_max: c.max_prepared + 1,
        coin_bonus_max,
        tool_draws_max: c.tools_per_column.max(c.diceless_tools).max(1),
        coins_max,
        points_max,
        final_score_max: points_max + missions + i64::from(c.die_card_points) * n_die_cards as i64,
        legacy_idle_turns_per_player: 3,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bounds_match_the_python_engine() {
        let b = bounds();
        assert_eq!(
            (b.stack_max, b.deck_max, b.completed_max, b.prepared_max),
            (24, 24, 8, 4)
        );
        assert_eq!((b.coin_bonus_max, b.tool_draws_max), (5, 2));
        assert_eq!(
            (b.coins_max, b.points_max, b.final_score_max),
            (11, 112, 192)
        );
    }
}
