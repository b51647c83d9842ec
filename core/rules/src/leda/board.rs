//! Read-only questions about a player's board, the part of `engine/leda/board.py` the state
//! checks need: top cards, Shark tokens, MV symbols and the victory conditions.

use super::data::{
    CATS, CORNERS, MV_BASE, MV_SYMBOLS, MV_THRESHOLD, PANDA_KING, PANDA_QUEEN, PORTALS, RINGS,
    SCORPIONS, SHARKS, SHARK_TOKENS,
};
use super::state::{Player, Square};

/// The top clan card of a square, if any.
pub fn top_card(square: &Square) -> Option<usize> {
    square.cards.last()
}

/// Shark tokens on the grid.
pub fn token_count(player: &Player) -> usize {
    player.grid.iter().filter(|sq| sq.token).count()
}

/// Number of uncovered Rings.
pub fn rings_in_play(player: &Player) -> usize {
    player
        .grid
        .iter()
        .filter(|sq| top_card(sq).is_some_and(|c| RINGS.contains(&c)))
        .count()
}

/// MV symbols on the tokens the player owns.
pub fn mv_symbols(player: &Player) -> u32 {
    player.mv.iter().map(|t| MV_SYMBOLS[t - MV_BASE]).sum()
}

/// The player's clan victory condition holds.
pub fn clan_victory(player: &Player) -> bool {
    let grid = &player.grid;
    match usize::from(player.clan) {
        SHARKS => token_count(player) >= SHARK_TOKENS,
        SCORPIONS => CORNERS
            .iter()
            .all(|&sq| top_card(&grid[sq]).is_some_and(|c| PORTALS.contains(&c))),
        CATS => rings_in_play(player) >= 3,
        _ => {
            // PANDAS
            let tops = || grid.iter().filter_map(top_card);
            tops().any(|c| c == PANDA_KING) && tops().any(|c| c == PANDA_QUEEN)
        }
    }
}

/// Either victory condition holds for the player.
pub fn has_won(player: &Player) -> bool {
    mv_symbols(player) >= MV_THRESHOLD[usize::from(player.clan)] || clan_victory(player)
}
