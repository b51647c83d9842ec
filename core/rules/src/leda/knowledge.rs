//! What one seat knows (its view) and sampling full worlds consistent with it: the twin of
//! `engine/leda/knowledge.py`.
//!
//! Hidden from a seat: the opponent's hand and deck, its own deck and the Action and MV piles,
//! except the items it can place exactly ([`LedaState::known`]). A view ([`observe`]) keeps
//! those where they are, lists the opponent's known hand cards first, and fills every other
//! hidden position with the unknown items in ascending order: the state the seat's JSON view
//! decodes to, computed directly on the state (no JSON). Every player whose hand and deck come
//! out the same stays shared with the observed state.
//!
//! [`determinize`] samples a full world from a view: what the seat knows stays where it is,
//! every other hidden item is reshuffled consistently (the opponent's hand and unknown deck
//! cards as one pool; the seat's own deck, the Action pile and the MV pile each on its own), as
//! Python's `sample_world` does, with the native random stream.

use std::sync::Arc;

use rand_core::RngCore;

use super::state::{ItemList, ItemSet, LedaState};
use crate::rng::shuffle;
use crate::view::View;

/// `items` with every position not in `known` taken in turn from `fill`.
fn canonical<const N: usize>(
    items: &ItemList<N>,
    known: ItemSet,
    fill: &mut impl Iterator<Item = usize>,
) -> ItemList<N> {
    let mut out = ItemList::new();
    for item in items.iter() {
        let item = if known.contains(item) {
            item
        } else {
            fill.next().unwrap_or(item)
        };
        out.push(item);
    }
    out
}

/// The items of `sequences` not in `known`, in ascending order.
fn unknown(known: ItemSet, sequences: &[&[u8]]) -> std::vec::IntoIter<usize> {
    let mut items: Vec<usize> = sequences
        .iter()
        .flat_map(|seq| seq.iter().map(|&x| usize::from(x)))
        .filter(|&x| !known.contains(x))
        .collect();
    items.sort_unstable();
    items.into_iter()
}

/// `seat`'s view of `state`: hidden positions canonical, only `seat`'s own knowledge kept;
/// exactly the state `state_from_json(state_to_json(state, Some(seat)))` gives.
pub fn observe(state: &LedaState, seat: usize) -> View<LedaState> {
    let known = state.known[seat];
    let other = 1 - seat;
    let (own, opp) = (state.player(seat), state.player(other));
    let mut opp_fill = unknown(known, &[opp.hand.as_bytes(), opp.deck.as_bytes()]);
    let mut hand = ItemList::new();
    for card in opp.hand.iter().filter(|&c| known.contains(c)) {
        hand.push(card);
    }
    while hand.len() < opp.hand.len() {
        match opp_fill.next() {
            Some(card) => hand.push(card),
            None => break,
        };
    }
    let deck = canonical(&opp.deck, known, &mut opp_fill);
    let own_deck = canonical(
        &own.deck,
        known,
        &mut unknown(known, &[own.deck.as_bytes()]),
    );
    let mut still_known = ItemSet::EMPTY;
    for seq in [
        opp.hand.as_bytes(),
        opp.deck.as_bytes(),
        own.deck.as_bytes(),
        state.action_pile.as_bytes(),
        state.mv_pile.as_bytes(),
    ] {
        for item in seq.iter().map(|&x| usize::from(x)) {
            if known.contains(item) {
                still_known.insert(item);
            }
        }
    }
    let mut view = state.clone();
    if hand != opp.hand || deck != opp.deck {
        let mut changed = opp.clone();
        changed.hand = hand;
        changed.deck = deck;
        view.players[other] = Arc::new(changed);
    }
    if own_deck != own.deck {
        let mut changed = own.clone();
        changed.deck = own_deck;
        view.players[seat] = Arc::new(changed);
    }
    view.action_pile = canonical(
        &state.action_pile,
        known,
        &mut unknown(known, &[state.action_pile.as_bytes()]),
    );
    view.mv_pile = canonical(
        &state.mv_pile,
        known,
        &mut unknown(known, &[state.mv_pile.as_bytes()]),
    );
    view.known[seat] = still_known;
    view.known[other] = ItemSet::EMPTY;
    View::new(seat, view)
}

/// A full world the view's seat cannot tell from the truth (see [`sample_world`]).
pub fn determinize<R: RngCore + ?Sized>(view: &View<LedaState>, rng: &mut R) -> LedaState {
    sample_world(view.state(), view.seat(), rng)
}

/// `items` with every entry not in `keep` replaced by the next entry popped from `pool`.
fn refill<const N: usize>(
    items: &ItemList<N>,
    keep: ItemSet,
    pool: &mut Vec<usize>,
) -> ItemList<N> {
    let mut out = ItemList::new();
    for item in items.iter() {
        let item = if keep.contains(item) {
            item
        } else {
            pool.pop().unwrap_or(item)
        };
        out.push(item);
    }
    out
}

/// `items` with the entries not in `keep` shuffled among their positions (no draw from `rng`
/// when fewer than two).
fn reshuffle<const N: usize, R: RngCore + ?Sized>(
    items: &ItemList<N>,
    keep: ItemSet,
    rng: &mut R,
) -> ItemList<N> {
    let mut pool: Vec<usize> = items.iter().filter(|&x| !keep.contains(x)).collect();
    if pool.len() < 2 {
        return *items;
    }
    shuffle(rng, &mut pool);
    refill(items, keep, &mut pool)
}

/// The sequences whose unknown positions determinization resamples, in a fixed order.
fn hidden_piles(state: &LedaState, observer: usize) -> [&[u8]; 5] {
    let (opp, own) = (state.player(1 - observer), state.player(observer));
    [
        opp.hand.as_bytes(),
        opp.deck.as_bytes(),
        own.deck.as_bytes(),
        state.action_pile.as_bytes(),
        state.mv_pile.as_bytes(),
    ]
}

/// Keep what `observer` knows where it is; reshuffle every other hidden item consistently.
///
/// The opponent's hand and the unknown part of their deck are one pool (the observer sees only
/// their sizes); the observer's own deck, the Action pile and the MV pile are each reshuffled
/// among their unknown positions. The opponent keeps the knowledge the observer knows they
/// share, and the positions they know (now holding the resampled items). Players that come out
/// the same stay shared with `state`.
pub fn sample_world<R: RngCore + ?Sized>(
    state: &LedaState,
    observer: usize,
    rng: &mut R,
) -> LedaState {
    let known = state.known[observer];
    let other = 1 - observer;
    let theirs = state.known[other];
    // Positions the opponent can place but the observer cannot (only a full state records
    // them): which item lies there is resampled, that the opponent knows it is not.
    let their_spots: Vec<Vec<usize>> = hidden_piles(state, observer)
        .iter()
        .map(|seq| {
            seq.iter()
                .enumerate()
                .filter(|&(_, &x)| {
                    theirs.contains(usize::from(x)) && !known.contains(usize::from(x))
                })
                .map(|(i, _)| i)
                .collect()
        })
        .collect();
    let (opp, own) = (state.player(other), state.player(observer));
    let mut pool: Vec<usize> = opp
        .hand
        .iter()
        .chain(opp.deck.iter())
        .filter(|&c| !known.contains(c))
        .collect();
    shuffle(rng, &mut pool);
    let hand = refill(&opp.hand, known, &mut pool);
    let deck = refill(&opp.deck, known, &mut pool);
    let own_deck = reshuffle(&own.deck, known, rng);
    let mut out = state.clone();
    if hand != opp.hand || deck != opp.deck {
        let mut changed = opp.clone();
        changed.hand = hand;
        changed.deck = deck;
        out.players[other] = Arc::new(changed);
    }
    if own_deck != own.deck {
        let mut changed = own.clone();
        changed.deck = own_deck;
        out.players[observer] = Arc::new(changed);
    }
    out.action_pile = reshuffle(&state.action_pile, known, rng);
    out.mv_pile = reshuffle(&state.mv_pile, known, rng);
    let mut shared = ItemSet(theirs.0 & known.0);
    for card in out.player(observer).hand.iter() {
        if theirs.contains(card) {
            shared.insert(card);
        }
    }
    for (seq, spots) in hidden_piles(&out, observer).iter().zip(&their_spots) {
        for &i in spots {
            shared.insert(usize::from(seq[i]));
        }
    }
    for card in out.player(other).hand.iter() {
        shared.remove(card);
    }
    out.known[other] = shared;
    out
}
