//! The bound of every number and list of a LEDA state (`engine/leda/bounds.py`,
//! docs/leda/state-format.md, "Bounds").
//!
//! Most follow from the components (a count never exceeds the items there are); Food and
//! Military have no rule limit, so they get the sanity caps the Python engine holds them at, and
//! the pending work a hand-made state may carry is capped too.

use super::data::{
    clan_cards, ACTION_TILE_COUNT, CARDS, CAT_ROTATING_COUNT, CLAN_COUNT, EFFECTS, ITEM_COUNT,
    MV_TOKEN_COUNT as MV_TOKENS, OP_PLAY_DISCOUNT, TILE_PERMANENT,
};

/// Food a player holds at most; a gain beyond it is lost (Ruling).
pub const FOOD_MAX: u32 = 999;

/// Military gained in one round at most; a gain beyond it is lost (Ruling).
pub const MILITARY_MAX: u32 = 999;

/// Special activations waiting at most: one per activated square of a zone (4).
pub const SPECIALS_MAX: u32 = 4;

/// Frames of pending work at most.
pub const PENDING_MAX: usize = 64;

/// Cards of each clan: the most a hand, a deck or one square's stack can hold.
pub const CLAN_SIZE: [usize; CLAN_COUNT] = {
    let mut sizes = [0; CLAN_COUNT];
    let mut clan = 0;
    while clan < CLAN_COUNT {
        sizes[clan] = clan_cards(clan).end - clan_cards(clan).start;
        clan += 1;
    }
    sizes
};

/// The largest clan (the Cats, 13 cards).
pub const LARGEST_CLAN: usize = {
    let mut largest = 0;
    let mut clan = 0;
    while clan < CLAN_COUNT {
        if CLAN_SIZE[clan] > largest {
            largest = CLAN_SIZE[clan];
        }
        clan += 1;
    }
    largest
};

/// MV tokens in the game (18): the most in the pile or won by one player.
pub const MV_TOKEN_COUNT: usize = MV_TOKENS;

/// Action tiles revealed since the last shuffle: the pile is shuffled with one left (4).
pub const REVEALED_MAX: usize = ACTION_TILE_COUNT - 1;

/// Cat cards that can be turned (9).
pub const ROTATED_MAX: usize = CAT_ROTATING_COUNT;

/// Hidden items a seat can know the place of: every card, Action tile and MV token (69).
pub const KNOWS_MAX: usize = ITEM_COUNT;

/// The largest discount of a play: Scorpion-4's pairs of Deserts (8 temporary tiles: 4).
pub const DISCOUNT_MAX: u32 = discount_max();

/// The most cards a Cat card costs (3).
pub const CARD_COST_MAX: u32 = card_cost_max();

/// The last op index of the longest effect.
pub const OP_INDEX_MAX: usize = op_index_max();

const fn discount_max() -> u32 {
    let mut temporary = 0;
    let mut i = 0;
    while i < TILE_PERMANENT.len() {
        if !TILE_PERMANENT[i] {
            temporary += 1;
        }
        i += 1;
    }
    let mut most = temporary / 2;
    let mut e = 0;
    while e < EFFECTS.len() {
        let ops = EFFECTS[e].ops;
        let mut o = 0;
        while o < ops.len() {
            if ops[o].kind == OP_PLAY_DISCOUNT && ops[o].args[0] as u32 > most {
                most = ops[o].args[0] as u32;
            }
            o += 1;
        }
        e += 1;
    }
    most
}

const fn card_cost_max() -> u32 {
    let mut most = 0;
    let mut i = 0;
    while i < CARDS.len() {
        if CARDS[i].card_cost > most {
            most = CARDS[i].card_cost;
        }
        i += 1;
    }
    most
}

const fn op_index_max() -> usize {
    let mut longest = 0;
    let mut e = 0;
    while e < EFFECTS.len() {
        if EFFECTS[e].ops.len() > longest {
            longest = EFFECTS[e].ops.len();
        }
        e += 1;
    }
    longest - 1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds_follow_the_components() {
        assert_eq!(DISCOUNT_MAX, 4);
        assert_eq!(CARD_COST_MAX, 3);
        assert_eq!(OP_INDEX_MAX, 1);
        assert_eq!(CLAN_SIZE, [13, 11, 11, 11]);
        assert_eq!(LARGEST_CLAN, 13);
        assert_eq!(ROTATED_MAX, 9);
    }
}
