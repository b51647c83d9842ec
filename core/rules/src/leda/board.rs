//! Read-only questions about a player's board (the twin of `engine/leda/board.py`): top items,
//! live faces, counts, costs and the victory conditions.

use super::data::{
    panda_level, CARDS, CATS, CORNERS, GOLD, MV_BASE, MV_SYMBOLS, MV_THRESHOLD, NEIGHBOURS, NONE,
    PANDA_KING, PANDA_QUEEN, PORTALS, PORTAL_1, PORTAL_2, PORTAL_3, RINGS, SCORPIONS, SHARKS,
    SHARK_TOKENS, SILVER, TILE_KIND, TILE_KIND_FX, TILE_PERMANENT, ZONE_SQUARES,
};
use super::state::{Player, Square};

/// Shark tokens on the squares orthogonally adjacent to `sq`.
pub fn adjacent_tokens(player: &Player, sq: usize) -> usize {
    NEIGHBOURS[sq]
        .iter()
        .filter(|&&nb| player.grid[nb].token)
        .count()
}

/// A Shark card's Pack face is live: its square has a token and 2+ neighbours have one.
pub fn pack_awake(player: &Player, sq: usize) -> bool {
    player.grid[sq].token && adjacent_tokens(player, sq) >= 2
}

/// The effect id of the live face of `card` lying on square `sq` (`NONE` when blank).
pub fn card_live_fx(player: &Player, sq: usize, card: usize) -> i32 {
    let faces = CARDS[card].faces;
    match CARDS[card].clan {
        SHARKS if pack_awake(player, sq) => faces[1],
        CATS if player.is_rotated(card) => faces[1],
        _ => faces[0],
    }
}

/// The activation effect of an uncovered tile (`NONE` for a Desert).
pub fn tile_live_fx(square: &Square) -> i32 {
    TILE_KIND_FX[TILE_KIND[usize::from(square.tile)]][usize::from(square.face)]
}

/// The effect id the top item of `sq` would resolve (`NONE` when nothing).
pub fn live_fx(player: &Player, sq: usize) -> i32 {
    let square = &player.grid[sq];
    match square.cards.last() {
        Some(card) => card_live_fx(player, sq, card),
        None => tile_live_fx(square),
    }
}

/// The square's top item has something to activate (a Cat card always does: it rotates).
pub fn has_activation(player: &Player, sq: usize) -> bool {
    match player.grid[sq].cards.last() {
        Some(card) => CARDS[card].clan == CATS || card_live_fx(player, sq, card) != NONE,
        None => tile_live_fx(&player.grid[sq]) != NONE,
    }
}

/// True for an uncovered permanent tile not yet upgraded.
pub fn is_upgradable(square: &Square) -> bool {
    square.cards.is_empty() && square.face == 0 && TILE_PERMANENT[usize::from(square.tile)]
}

/// True for an uncovered upgraded tile.
pub fn is_upgraded(square: &Square) -> bool {
    square.cards.is_empty() && square.face == 1 && TILE_PERMANENT[usize::from(square.tile)]
}

/// True for an uncovered temporary tile on its Desert side.
pub fn is_desert(square: &Square) -> bool {
    square.cards.is_empty() && square.face == 1 && !TILE_PERMANENT[usize::from(square.tile)]
}

/// Number of uncovered Deserts.
pub fn desert_count(player: &Player) -> usize {
    player.grid.iter().filter(|sq| is_desert(sq)).count()
}

/// Number of uncovered upgraded tiles.
pub fn upgraded_count(player: &Player) -> usize {
    player.grid.iter().filter(|sq| is_upgraded(sq)).count()
}

/// Number of uncovered Portals.
pub fn portals_in_play(player: &Player) -> usize {
    player
        .grid
        .iter()
        .filter(|sq| top_card(sq).is_some_and(|c| PORTALS.contains(&c)))
        .count()
}

/// Shark tokens left to place (Sharks only; any other clan has none).
pub fn token_supply(player: &Player) -> usize {
    if usize::from(player.clan) == SHARKS {
        SHARK_TOKENS.saturating_sub(token_count(player))
    } else {
        0
    }
}

/// Uncovered Cat cards in a zone of the player's grid.
pub fn cats_in_zone(player: &Player, zone: usize) -> usize {
    ZONE_SQUARES[zone]
        .iter()
        .filter(|&&sq| top_card(&player.grid[sq]).is_some_and(|c| CARDS[c].clan == CATS))
        .count()
}

/// Squares whose top card is a Panda of that level, ascending.
pub fn uncovered_level(player: &Player, level: u8) -> impl Iterator<Item = usize> + '_ {
    (0..player.grid.len())
        .filter(move |&sq| top_card(&player.grid[sq]).and_then(panda_level) == Some(level))
}

/// Rings anywhere on the grid (covered or not), as a mask over [`RINGS`].
pub fn rings_on_grid(player: &Player) -> u32 {
    let mut mask = 0;
    for square in &player.grid {
        for card in square.cards.iter() {
            if let Some(i) = RINGS.iter().position(|&r| r == card) {
                mask |= 1 << i;
            }
        }
    }
    mask
}

/// True for a card that is never played from hand for its cost (Rings, Silver and Gold Pandas).
fn not_playable(card: usize) -> bool {
    RINGS.contains(&card) || panda_level(card).is_some_and(|level| level == SILVER || level == GOLD)
}

/// (Food, cards) to play `card` from hand now, or None when it cannot be played that way.
pub fn play_cost(player: &Player, card: usize, discount: u32) -> Option<(u32, u32)> {
    if not_playable(card) {
        return None;
    }
    if PORTALS.contains(&card) {
        let counter = match card {
            PORTAL_1 => player.hand.len(),
            PORTAL_2 => upgraded_count(player),
            PORTAL_3 => portals_in_play(player),
            _ => player.mv.len(),
        };
        return Some((9u32.saturating_sub(counter as u32 + discount), 0));
    }
    let cost = CARDS[card].food_cost;
    if cost < 0 {
        return Some((0, CARDS[card].card_cost));
    }
    Some(((cost as u32).saturating_sub(discount), 0))
}

/// `card` (in hand) is playable with the player's Food and hand.
pub fn can_pay(player: &Player, card: usize, discount: u32) -> bool {
    play_cost(player, card, discount)
        .is_some_and(|(food, cards)| food <= player.food && (cards as usize) < player.hand.len())
}

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
