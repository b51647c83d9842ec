//! What each seat knows, and determinization: a full world consistent with a seat's knowledge.
//!
//! Public: boards, tools, Headquarters, face-up row, scores, torches, Expedition cards taken
//! from the row, the bag's contents and the set of tiles in the stack (every other tile is in
//! sight). Hidden: cards taken blind (known to their owner only) and which cards are in the
//! Expedition deck. Stack and deck orders are not part of the state: every reveal is a chance
//! step.
//!
//! A seat's view ([`observe`]) deals the cards it cannot place canonically: the lowest ids to
//! the other players' blind hands, seat by seat, then to the deck (Die cards first into a deck
//! that can hold only used Die cards) — the state the seat's JSON view decodes to, computed
//! directly.

use rand_core::RngCore;

use super::components::components;
use super::rules::deck_holds_only_die_cards;
use super::state::{bits, Phase, RaidersState, MAX_PLAYERS};
use crate::rng::shuffle;
use crate::view::View;

/// Cards `observer` cannot place: the deck plus the other players' blind cards (a mask).
pub fn unknown_cards(s: &RaidersState, observer: usize) -> u64 {
    s.players
        .iter()
        .enumerate()
        .filter(|(seat, _)| *seat != observer)
        .fold(s.deck, |mask, (_, p)| mask | p.blind)
}

/// Deal `pool` (in its order) to the hidden hands (`None`: not hidden; `Some(size)`) and the
/// deck; returns each seat's hand (a mask, `None` where not hidden) and the deck (a mask).
///
/// When the deck can hold only used Die cards (`deck_only_die`, with `deck_size` cards), it
/// takes the first `deck_size` cards of the pool ordered Die cards first (pool order kept
/// within each kind) and the hands take the rest in seat order; otherwise the hands are dealt
/// first, in seat order, and the deck takes the rest. The twin of `deal_hidden` in
/// `knowledge.py`, shared by [`determinize`] and the decoder's placeholders.
pub fn deal_hidden(
    pool: &[usize],
    hand_sizes: &[Option<usize>],
    deck_size: usize,
    deck_only_die: bool,
) -> ([Option<u64>; MAX_PLAYERS], u64) {
    let deck_first = deck_only_die && deck_size > 0;
    let mut deck = 0u64;
    if deck_first {
        // Die cards first; a view whose counts leave too few of them still keeps its counts.
        let die = components().die_card_mask;
        let die_first = pool
            .iter()
            .filter(|&&j| die >> j & 1 != 0)
            .chain(pool.iter().filter(|&&j| die >> j & 1 == 0));
        deck = die_first.take(deck_size).fold(0u64, |m, &j| m | 1u64 << j);
    }
    let chosen = deck;
    let mut rest = pool.iter().filter(|&&j| chosen >> j & 1 == 0);
    let mut hands = [None; MAX_PLAYERS];
    for (hand, size) in hands.iter_mut().zip(hand_sizes) {
        if let Some(size) = *size {
            *hand = Some(rest.by_ref().take(size).fold(0u64, |m, &j| m | 1u64 << j));
        }
    }
    if !deck_first {
        deck = rest.fold(0u64, |m, &j| m | 1u64 << j);
    }
    (hands, deck)
}

/// `seat`'s view of `s`: the cards `seat` cannot place dealt canonically (ascending ids) to
/// the other players' blind hands and the deck, equal to the state its JSON view decodes to.
/// A finished game hides nothing. Players whose hand is unchanged stay shared with `s`.
pub fn observe(s: &RaidersState, seat: usize) -> View<RaidersState> {
    if s.phase == Phase::Over {
        return View::new(seat, s.clone());
    }
    let pool: Vec<usize> = bits(unknown_cards(s, seat)).collect();
    View::new(seat, deal(s, seat, &pool))
}

/// A full world the view's seat cannot tell from the truth: the cards it cannot place dealt at
/// random among the other players' blind hands (each keeping its size) and the deck (only Die
/// cards into a deck that can hold only used Die cards, see [`deck_holds_only_die_cards`]).
pub fn determinize<R: RngCore + ?Sized>(view: &View<RaidersState>, rng: &mut R) -> RaidersState {
    sample_world(view.state(), view.seat(), rng)
}

/// Deal the cards unknown to `observer` at random among the other players' blind hands and the
/// deck (see [`determinize`]). A finished game, or one where no other player holds a blind
/// card, is returned as it is.
pub fn sample_world<R: RngCore + ?Sized>(
    s: &RaidersState,
    observer: usize,
    rng: &mut R,
) -> RaidersState {
    if s.phase == Phase::Over {
        return s.clone();
    }
    let pool_mask = unknown_cards(s, observer);
    let others_hold_blind = s
        .players
        .iter()
        .enumerate()
        .any(|(seat, p)| seat != observer && p.blind != 0);
    if pool_mask == 0 || !others_hold_blind {
        return s.clone();
    }
    let mut pool: Vec<usize> = bits(pool_mask).collect();
    shuffle(rng, &mut pool);
    deal(s, observer, &pool)
}

/// `s` with `pool` (in its order) dealt to the other players' blind hands (each keeping its
/// size) and the deck; players whose hand comes out the same stay shared with `s`.
fn deal(s: &RaidersState, observer: usize, pool: &[usize]) -> RaidersState {
    let mut sizes = [None; MAX_PLAYERS];
    for (seat, p) in s.players.iter().enumerate() {
        if seat != observer {
            sizes[seat] = Some(p.blind.count_ones() as usize);
        }
    }
    let (hands, deck) = deal_hidden(
        pool,
        &sizes[..s.n_players()],
        s.deck.count_ones() as usize,
        deck_holds_only_die_cards(s),
    );
    let mut out = s.clone();
    for (seat, hand) in hands.iter().enumerate().take(s.n_players()) {
        if let Some(hand) = *hand {
            if hand != s.players[seat].blind {
                let mut changed = s.players[seat].clone();
                changed.blind = hand;
                out.players.set(seat, changed);
            }
        }
    }
    out.deck = deck;
    out
}
