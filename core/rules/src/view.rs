//! [`View`]: what one seat knows of a game, as a value.
//!
//! The twin of `View` in `engine/api.py`. A view is the seat plus the seat's *information
//! state*: a playable game state in which every part hidden from the seat has been erased to a
//! canonical form (for a game with a JSON codec, exactly the state the seat's JSON view decodes
//! to). Two worlds the seat cannot tell apart have equal views, so a search that only ever holds
//! a view cannot peek.
//!
//! Views are made by [`Game::observe`](crate::Game::observe) and turned back into full worlds by
//! [`Game::determinize`](crate::Game::determinize).

use std::fmt::Debug;
use std::sync::Arc;

/// One seat's view of a game: the seat and its information state (immutable, cheap to clone:
/// the state is shared behind an [`Arc`]; `Send + Sync` whenever the state is).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct View<S> {
    seat: usize,
    state: Arc<S>,
}

impl<S> View<S> {
    /// The view of `seat` whose information state is `state`.
    ///
    /// For [`Game::observe`](crate::Game::observe) implementations: `state` must already be
    /// the seat's information state (every hidden part canonical), as `observe` would give.
    /// Wrapping a full state here makes a view that peeks.
    pub fn new(seat: usize, state: S) -> Self {
        Self {
            seat,
            state: Arc::new(state),
        }
    }

    /// The observing seat.
    #[inline]
    pub fn seat(&self) -> usize {
        self.seat
    }

    /// The information state: a playable state (the seat's legal moves are read from it) with
    /// every part hidden from the seat canonical.
    #[inline]
    pub fn state(&self) -> &S {
        &self.state
    }
}

impl<S: Clone> View<S> {
    /// The information state by value (no copy when this is the last handle).
    pub fn into_state(self) -> S {
        Arc::try_unwrap(self.state).unwrap_or_else(|shared| (*shared).clone())
    }
}

impl<S> AsRef<S> for View<S> {
    fn as_ref(&self) -> &S {
        &self.state
    }
}
