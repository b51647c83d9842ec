//! Decision frames (the twin of `engine/leda/decisions.py`): the legal actions each one offers,
//! in the Python engine's order, and how a chosen action resolves.

use super::actions::{
    Action, A_ACTIVATE, A_ACT_TILE, A_AWAKEN, A_CHOOSE, A_COPY, A_DESERT, A_DONE, A_DOWNGRADE,
    A_FLIP, A_FOOD, A_MULLIGAN, A_PAY, A_PLAY, A_PUT, A_QUEEN, A_RETRIGGER, A_REVEAL, A_RING,
    A_ROTATE, A_SKIP, A_SPY, A_SWAP, A_TAKE, A_TOKEN, A_UNDER, A_UPGRADE, A_ZONE,
};
use super::board;
use super::data::{
    clan_cards, is_cat_rotating, panda_level, ACTION_TILE_BASE, ACTION_TILE_ZONES, BRONZE, GOLD,
    MV_BASE, MV_FX, PANDAS, RINGS, SILVER, SQUARES, TILE_PERMANENT, ZONE_SQUARES,
};
use super::frames::{
    F_ACTIVATE, F_ACT_TILE, F_AWAKEN, F_COPY, F_DESERT_FX, F_DISCOUNT, F_DOWNGRADE, F_FLIP,
    F_MULLIGAN, F_MV_UNDER, F_OR, F_ORG, F_PAY, F_PLACE_TOKEN, F_QUEEN, F_RETRIGGER, F_RINGS,
    F_RING_REVEAL, F_RING_ROTATE, F_SEARCH_RING, F_SHUFFLE, F_SPY_PILE, F_SPY_PUT, F_SWAP,
    F_UPGRADE, F_UPGRADE_SQ, F_ZONE, PILE_ACTIONS, PILE_DECK, PILE_MV, SHUFFLE_DECK,
    SHUFFLE_MULLIGAN,
};
use super::moves::{
    forget, gain_food, gain_mv_token, learn, place_card, pop, push, put_under_deck, return_to_hand,
    set_tile_face, swap_squares, unlearn,
};
use super::ops::{activate_square, activate_tile, desert_reminder_fx, start_effect};
use super::state::{Frame, LedaState};

/// Decisions that always offer at least one action (no need to list them to know).
pub fn always_open(kind: u8) -> bool {
    matches!(
        kind,
        F_MULLIGAN | F_ZONE | F_OR | F_SPY_PUT | F_SWAP | F_ORG | F_PAY
    )
}

fn seat_of(frame: &Frame) -> usize {
    usize::from(frame.seat)
}

/// A frame argument as an index (0 when negative).
fn index_arg(frame: &Frame, i: usize) -> usize {
    usize::try_from(frame.arg(i)).unwrap_or(0)
}

/// Every swap of two squares, `a < b`.
fn all_pairs(out: &mut Vec<Action>) {
    for a in 0..SQUARES {
        for b in a + 1..SQUARES {
            out.push(Action::of(A_SWAP, &[a, b]));
        }
    }
}

/// Cards in hand seat can pay for now, in hand order.
fn playable_cards(
    s: &LedaState,
    seat: usize,
    discount: u32,
    pandas_only: bool,
) -> impl Iterator<Item = usize> + '_ {
    let p = s.player(seat);
    p.hand.iter().filter(move |&c| {
        (!pandas_only || clan_cards(PANDAS).contains(&c)) && board::can_pay(p, c, discount)
    })
}

/// Every play of those cards on every square.
fn plays(s: &LedaState, seat: usize, discount: u32, pandas_only: bool, out: &mut Vec<Action>) {
    for card in playable_cards(s, seat, discount, pandas_only) {
        for sq in 0..SQUARES {
            out.push(Action::of(A_PLAY, &[card, sq]));
        }
    }
}

/// Pay for `card` (Food now, a Cat card's cost as a following decision) and place it.
fn play_card(s: &mut LedaState, seat: usize, card: usize, sq: usize, discount: u32) {
    let Some((food, cards)) = board::play_cost(s.player(seat), card, discount) else {
        return;
    };
    let p = s.player_mut(seat);
    p.food = p.food.saturating_sub(food);
    place_card(s, seat, card, sq);
    if cards > 0 {
        push(s, F_PAY, seat, &[cards as i32]);
    }
}

/// The items of a pile a seat can spy (its own deck, the Action pile, the MV pile).
fn pile_items(s: &LedaState, seat: usize, pile: i32) -> &[u8] {
    match pile {
        PILE_DECK => s.player(seat).deck.as_bytes(),
        PILE_ACTIONS => s.action_pile.as_bytes(),
        _ => s.mv_pile.as_bytes(),
    }
}

/// Push the chance step shuffling seat's deck (nothing to do with fewer than 2 cards).
fn shuffle_deck(s: &mut LedaState, seat: usize) {
    let deck = s.player(seat).deck;
    forget(s, deck.to_set());
    if deck.len() >= 2 {
        push(s, F_SHUFFLE, seat, &[SHUFFLE_DECK, 0]);
    }
}

/// Every legal Awakening: (card from hand, square of the returned Panda).
fn awaken_options(s: &LedaState, seat: usize, out: &mut Vec<Action>) {
    let p = s.player(seat);
    for (lower, upper) in [(BRONZE, SILVER), (SILVER, GOLD)] {
        let squares: Vec<usize> = board::uncovered_level(p, lower).collect();
        if squares.len() < 2 {
            continue;
        }
        for card in p.hand.iter() {
            if panda_level(card) == Some(upper) {
                out.extend(squares.iter().map(|&sq| Action::of(A_AWAKEN, &[card, sq])));
            }
        }
    }
}

/// The public half of an Awakening's condition: 2 uncovered Bronzes or 2 Silvers.
fn awakening_in_reach(s: &LedaState, seat: usize) -> bool {
    let p = s.player(seat);
    board::uncovered_level(p, BRONZE).count() >= 2 || board::uncovered_level(p, SILVER).count() >= 2
}

/// The legal actions of decision frame `frame`, appended to `out` in Python's order.
pub fn legal(s: &LedaState, frame: &Frame, out: &mut Vec<Action>) {
    let seat = seat_of(frame);
    let p = s.player(seat);
    let skip = Action::of(A_SKIP, &[]);
    let start = out.len();
    match frame.kind {
        F_MULLIGAN => {
            out.push(Action::of(A_MULLIGAN, &[1]));
            out.push(Action::of(A_MULLIGAN, &[0]));
        }
        F_ZONE => {
            let tile = index_arg(frame, 0).wrapping_sub(ACTION_TILE_BASE);
            if let Some(zones) = ACTION_TILE_ZONES.get(tile) {
                out.extend(zones.iter().map(|&z| Action::of(A_ZONE, &[z])));
            }
        }
        F_ACTIVATE => {
            let mask = frame.arg(0);
            if let Ok(zone) = usize::try_from(s.zone) {
                for &sq in &ZONE_SQUARES[zone] {
                    if mask >> sq & 1 == 1 && board::has_activation(p, sq) {
                        out.push(Action::of(A_ACTIVATE, &[sq]));
                    }
                }
            }
        }
        F_OR => {
            out.push(Action::of(A_CHOOSE, &[0]));
            out.push(Action::of(A_CHOOSE, &[1]));
        }
        F_UPGRADE => squares_where(p, board::is_upgradable, A_UPGRADE, out),
        F_FLIP | F_DESERT_FX => {
            let kind = if frame.kind == F_FLIP {
                A_FLIP
            } else {
                A_DESERT
            };
            squares_where(p, board::is_desert, kind, out);
        }
        F_ACT_TILE => {
            let any_tile = frame.arg(0) == 1;
            for (sq, square) in p.grid.iter().enumerate() {
                if square.cards.is_empty() && (any_tile || board::tile_live_fx(square) >= 0) {
                    out.push(Action::of(A_ACT_TILE, &[sq]));
                }
            }
        }
        F_DOWNGRADE => {
            for (sq, square) in p.grid.iter().enumerate() {
                let back = u8::from(TILE_PERMANENT[usize::from(square.tile)]);
                if square.cards.is_empty() && square.face == back {
                    out.push(Action::of(A_DOWNGRADE, &[sq]));
                }
            }
        }
        F_SWAP => all_pairs(out),
        F_SPY_PILE => {
            let excluded = frame.arg(0);
            if excluded != PILE_DECK && !p.deck.is_empty() {
                out.push(Action::of(A_SPY, &[PILE_DECK as usize]));
            }
            if excluded != PILE_ACTIONS && s.action_pile.len() >= 2 {
                out.push(Action::of(A_SPY, &[PILE_ACTIONS as usize]));
            }
            if excluded != PILE_MV && !s.mv_pile.is_empty() {
                out.push(Action::of(A_SPY, &[PILE_MV as usize]));
            }
        }
        F_SPY_PUT => {
            out.push(Action::of(A_PUT, &[0]));
            if pile_items(s, seat, frame.arg(0)).len() >= 2 {
                out.push(Action::of(A_PUT, &[1]));
            }
        }
        F_PLACE_TOKEN if board::token_supply(p) > 0 => {
            for (sq, square) in p.grid.iter().enumerate() {
                if !square.token {
                    out.push(Action::of(A_TOKEN, &[sq]));
                }
            }
        }
        F_RETRIGGER => out.extend(p.mv.iter().map(|t| Action::of(A_RETRIGGER, &[t]))),
        F_MV_UNDER => out.extend(p.mv.iter().map(|t| Action::of(A_UNDER, &[t]))),
        F_COPY => {
            if let Ok(zone) = usize::try_from(s.zone) {
                let opp = s.player(1 - seat);
                for &sq in &ZONE_SQUARES[zone] {
                    if board::live_fx(opp, sq) >= 0 {
                        out.push(Action::of(A_COPY, &[sq]));
                    }
                }
            }
        }
        // Whether some of these decisions exist must not depend on the decider's hidden cards
        // (the opponent would learn from it, and a determinized world could leave the decider
        // with nothing to do): with a non-empty hand they are always offered, with `skip` (or
        // `food`) as a fallback.
        F_RING_REVEAL if !p.hand.is_empty() => {
            for r in RINGS {
                if p.hand.contains(r) {
                    out.push(Action::of(A_REVEAL, &[r]));
                }
            }
            out.push(skip);
        }
        F_SEARCH_RING if !p.deck.is_empty() => {
            for r in RINGS {
                if p.deck.contains(r) {
                    out.push(Action::of(A_TAKE, &[r]));
                }
            }
            if out.len() == start {
                out.push(skip);
            }
        }
        F_RING_ROTATE => {
            for (sq, square) in p.grid.iter().enumerate() {
                if square.cards.last().is_some_and(is_cat_rotating) {
                    out.push(Action::of(A_ROTATE, &[sq]));
                }
            }
            if out.len() > start {
                out.push(skip);
            }
        }
        F_PAY => out.extend(p.hand.iter().map(|c| Action::of(A_PAY, &[c]))),
        F_RINGS => {
            let mask = frame.arg(1);
            let on_grid = board::rings_on_grid(p);
            let offered = |i: usize| mask >> i & 1 == 1;
            let all_played = (0..RINGS.len()).all(|i| !offered(i) || on_grid >> i & 1 == 1);
            if !p.hand.is_empty() && !all_played {
                for (i, r) in RINGS.into_iter().enumerate() {
                    if offered(i) && p.hand.contains(r) {
                        out.extend((0..SQUARES).map(|sq| Action::of(A_RING, &[r, sq])));
                    }
                }
                out.push(Action::of(A_DONE, &[]));
            }
        }
        F_AWAKEN if awakening_in_reach(s, seat) => {
            awaken_options(s, seat, out);
            if out.len() == start {
                out.push(Action::of(A_FOOD, &[]));
            }
        }
        F_QUEEN => {
            let own = usize::try_from(frame.arg(0)).ok();
            for (sq, square) in p.grid.iter().enumerate() {
                if Some(sq) != own && square.cards.last().and_then(panda_level).is_some() {
                    out.push(Action::of(A_QUEEN, &[sq]));
                }
            }
        }
        F_DISCOUNT if !p.hand.is_empty() => {
            plays(s, seat, frame.arg(0).max(0) as u32, frame.arg(1) != 0, out);
            out.push(skip);
        }
        F_ORG => {
            plays(s, seat, 0, false, out);
            out.push(Action::of(A_FOOD, &[]));
            all_pairs(out);
        }
        _ => {}
    }
}

/// Squares whose square satisfies `test`, as actions of `kind`.
fn squares_where(
    p: &super::state::Player,
    test: fn(&super::state::Square) -> bool,
    kind: u8,
    out: &mut Vec<Action>,
) {
    for (sq, square) in p.grid.iter().enumerate() {
        if test(square) {
            out.push(Action::of(kind, &[sq]));
        }
    }
}

/// What happens when decision frame `frame` offers nothing.
pub fn resolve_none(s: &mut LedaState, frame: &Frame) {
    let seat = seat_of(frame);
    pop(s);
    match frame.kind {
        F_SEARCH_RING => shuffle_deck(s, seat),
        F_AWAKEN => gain_food(s, seat, 1),
        _ => {}
    }
}

/// Resolve `action`, chosen at decision frame `frame` (the top of the stack).
pub fn resolve(s: &mut LedaState, frame: &Frame, action: Action) {
    let seat = seat_of(frame);
    let a0 = || action.args().first().map_or(0, |&v| usize::from(v));
    let a1 = || action.args().get(1).map_or(0, |&v| usize::from(v));
    let kind = action.kind();
    match frame.kind {
        F_MULLIGAN => {
            pop(s);
            if a0() == 0 {
                return;
            }
            let p = s.player_mut(seat);
            let n = p.hand.len();
            let mut deck = p.hand;
            for card in p.deck.iter() {
                deck.push(card);
            }
            p.hand = Default::default();
            p.deck = deck;
            forget(s, deck.to_set());
            push(s, F_SHUFFLE, seat, &[SHUFFLE_MULLIGAN, n as i32]);
        }
        F_ZONE => {
            pop(s);
            s.zone = a0() as i8;
        }
        F_ACTIVATE => {
            let sq = a0();
            pop(s);
            push(s, F_ACTIVATE, seat, &[frame.arg(0) & !(1 << sq)]);
            activate_square(s, seat, sq);
        }
        F_OR => {
            pop(s);
            let fx = if a0() == 1 {
                frame.arg(1)
            } else {
                frame.arg(0)
            };
            start_effect(s, seat, fx, frame.arg(2));
        }
        F_UPGRADE => {
            let sq = a0();
            pop(s);
            set_tile_face(s, seat, sq, 1);
            if frame.arg(0) == 1 {
                activate_tile(s, seat, sq);
            }
        }
        F_FLIP => {
            pop(s);
            set_tile_face(s, seat, a0(), 0);
        }
        F_ACT_TILE => {
            let sq = a0();
            pop(s);
            if frame.arg(0) == 1 {
                push(s, F_UPGRADE_SQ, seat, &[sq as i32]);
            }
            activate_tile(s, seat, sq);
        }
        F_DESERT_FX => {
            let fx = desert_reminder_fx(s, seat, a0());
            pop(s);
            start_effect(s, seat, fx, a0() as i32);
        }
        F_DOWNGRADE => {
            let sq = a0();
            let face = s.player(seat).grid[sq].face;
            pop(s);
            set_tile_face(s, seat, sq, 1 - face);
        }
        F_SWAP => {
            pop(s);
            swap_squares(s, seat, a0(), a1());
        }
        F_SPY_PILE => {
            let pile = a0() as i32;
            let top = pile_items(s, seat, pile).first().copied();
            pop(s);
            if let Some(item) = top {
                learn(s, seat, usize::from(item));
            }
            push(s, F_SPY_PUT, seat, &[pile, frame.arg(1)]);
        }
        F_SPY_PUT => {
            let (pile, more) = (frame.arg(0), frame.arg(1));
            pop(s);
            if a0() == 1 {
                match pile {
                    PILE_DECK => s.player_mut(seat).deck.first_to_end(),
                    PILE_ACTIONS => s.action_pile.first_to_end(),
                    _ => s.mv_pile.first_to_end(),
                }
            }
            if more != 0 {
                push(s, F_SPY_PILE, seat, &[pile, 0]);
            }
        }
        F_PLACE_TOKEN => {
            pop(s);
            s.player_mut(seat).grid[a0()].token = true;
        }
        F_RETRIGGER => {
            pop(s);
            start_effect(s, seat, MV_FX[a0() - MV_BASE], -1);
        }
        F_MV_UNDER => {
            let token = a0();
            pop(s);
            let p = s.player_mut(seat);
            while p.mv.remove_item(token) {}
            s.mv_pile.push(token);
            learn(s, 0, token);
            learn(s, 1, token);
            gain_mv_token(s, seat);
        }
        F_COPY => {
            let fx = board::live_fx(s.player(1 - seat), a0());
            pop(s);
            start_effect(s, seat, fx, frame.arg(0));
        }
        F_RING_REVEAL => {
            pop(s);
            if kind != A_SKIP {
                put_under_deck(s, seat, a0(), true);
                gain_mv_token(s, seat);
            }
        }
        F_SEARCH_RING => {
            if kind == A_SKIP {
                // No Ring left in the deck: it is still shuffled.
                resolve_none(s, frame);
                return;
            }
            let ring = a0();
            pop(s);
            let p = s.player_mut(seat);
            while p.deck.remove_item(ring) {}
            p.hand.push(ring);
            unlearn(s, seat, ring);
            learn(s, 1 - seat, ring);
            shuffle_deck(s, seat);
        }
        F_RING_ROTATE => {
            pop(s);
            if kind != A_SKIP {
                let sq = a0();
                if let Some(card) = s.player(seat).grid[sq].cards.last() {
                    s.player_mut(seat).rotated ^= 1 << card;
                }
            }
        }
        F_PAY => {
            let n = frame.arg(0);
            pop(s);
            put_under_deck(s, seat, a0(), false);
            if n > 1 {
                push(s, F_PAY, seat, &[n - 1]);
            }
        }
        F_RINGS => {
            if kind == A_DONE {
                pop(s);
            } else {
                place_card(s, seat, a0(), a1());
            }
        }
        F_AWAKEN => {
            if kind == A_FOOD {
                // No Silver (or Gold) in hand: the Awakening gives 1 Food.
                resolve_none(s, frame);
                return;
            }
            let (card, sq) = (a0(), a1());
            pop(s);
            return_to_hand(s, seat, sq);
            place_card(s, seat, card, sq);
        }
        F_QUEEN => {
            pop(s);
            activate_square(s, seat, a0());
        }
        F_DISCOUNT => {
            pop(s);
            if kind != A_SKIP {
                play_card(s, seat, a0(), a1(), frame.arg(0).max(0) as u32);
            }
        }
        F_ORG => {
            pop(s);
            match kind {
                A_PLAY => play_card(s, seat, a0(), a1(), 0),
                A_SWAP => {
                    swap_squares(s, seat, a0(), a1());
                    gain_food(s, seat, 1);
                }
                _ => gain_food(s, seat, 1),
            }
        }
        _ => {}
    }
}
