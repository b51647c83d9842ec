//! Small games for the search tests, ported from `tests/search/toy_games.py`. Each game's rules
//! implement [`ToyRules`]; [`Toy`] turns them into a full [`Game`] (codec included).
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)]

use std::fmt::Debug;
use std::hash::Hash;
use std::sync::atomic::{AtomicU64, Ordering};

use boardbot_rules::rng::{shuffle, weighted_index};
use boardbot_rules::{
    seeded_rng, ActionError, Featurize, Game, InvalidState, SeededRng, View, CHANCE, TERMINAL,
};
use rand_core::RngCore;
use serde_json::{json, Value};

/// The rules of one toy game; [`Toy`] supplies the rest of the [`Game`] trait.
pub trait ToyRules: Send + Sync {
    type State: Clone + Debug + PartialEq + Send + Sync;
    type Action: Copy + Debug + Eq + Ord + Hash + Send + Sync;

    fn name(&self) -> &'static str;
    fn players(&self) -> usize {
        2
    }
    fn start(&self, options: &Value, seed: u64) -> Self::State;
    /// The seat to move, CHANCE or TERMINAL.
    fn player(&self, state: &Self::State) -> i32;
    /// The winner once the game is over.
    fn winner(&self, state: &Self::State) -> i32;
    fn legal(&self, state: &Self::State) -> Vec<Self::Action>;
    fn apply(&self, state: &Self::State, action: Self::Action) -> Self::State;
    fn chance(&self, _state: &Self::State) -> Vec<(Self::Action, f64)> {
        Vec::new()
    }
    /// Perfect information by default.
    fn determinize(
        &self,
        state: &Self::State,
        _observer: usize,
        _rng: &mut SeededRng,
    ) -> Self::State {
        state.clone()
    }
    /// What `observer` sees (hidden parts zeroed); everything by default.
    fn view(&self, state: &Self::State, _observer: usize) -> Self::State {
        state.clone()
    }
    fn evaluate(&self, _state: &Self::State) -> Vec<f64> {
        vec![0.5; self.players()]
    }
    fn weights(&self, _state: &Self::State, actions: &[Self::Action]) -> Vec<f64> {
        vec![1.0; actions.len()]
    }
    /// Scores at the end; like the returns by default.
    fn final_scores(&self, state: &Self::State) -> Vec<f64> {
        self.returns_of(state)
    }
    /// Length of the view vector (none by default).
    fn feature_count(&self) -> usize {
        0
    }
    /// `seat`'s view as `feature_count()` values.
    fn view_features(&self, _state: &Self::State, _seat: usize) -> Vec<f32> {
        Vec::new()
    }
    /// Size of the action-feature space (none by default).
    fn action_feature_count(&self) -> usize {
        0
    }
    /// The action-feature indices of `action`.
    fn action_indices(&self, _action: Self::Action) -> Vec<u32> {
        Vec::new()
    }
    fn text(&self, action: Self::Action) -> String;
    fn encode(&self, state: &Self::State) -> Value;
    fn decode(&self, data: &Value) -> Option<Self::State>;

    fn returns_of(&self, state: &Self::State) -> Vec<f64> {
        let over = self.player(state) == TERMINAL;
        let winner = self.winner(state);
        (0..self.players())
            .map(|seat| f64::from(u8::from(over && seat as i32 == winner)))
            .collect()
    }
}

impl<R: ToyRules> Featurize for Toy<R> {
    const FEATURES_VERSION: u32 = 1;

    fn feature_size(&self, _players: usize) -> usize {
        self.0.feature_count()
    }
    fn features(&self, state: &R::State, seat: usize, out: &mut Vec<f32>) {
        out.clear();
        out.extend(self.0.view_features(state, seat));
    }
    fn action_feature_size(&self) -> usize {
        self.0.action_feature_count()
    }
    fn action_features(&self, _state: &R::State, action: R::Action, out: &mut Vec<u32>) {
        out.extend(self.0.action_indices(action));
    }
}

/// A toy game's rules as a full [`Game`].
#[derive(Debug, Default)]
pub struct Toy<R>(pub R);

impl<R: ToyRules> Game for Toy<R> {
    type State = R::State;
    type Action = R::Action;

    fn name(&self) -> &'static str {
        self.0.name()
    }
    fn min_players(&self) -> usize {
        self.0.players()
    }
    fn max_players(&self) -> usize {
        self.0.players()
    }
    fn describe_options(&self) -> Value {
        json!({})
    }
    fn new_state(&self, options: &Value, seed: u64) -> Result<R::State, InvalidState> {
        Ok(self.0.start(options, seed))
    }
    fn num_players(&self, _state: &R::State) -> usize {
        self.0.players()
    }
    fn current_player(&self, state: &R::State) -> i32 {
        self.0.player(state)
    }
    fn legal_actions(&self, state: &R::State, out: &mut Vec<R::Action>) {
        out.clear();
        if self.0.player(state) >= 0 {
            out.extend(self.0.legal(state));
        }
    }
    fn apply(&self, state: &R::State, action: R::Action) -> R::State {
        self.0.apply(state, action)
    }
    fn chance_outcomes(&self, state: &R::State) -> Option<Vec<(R::Action, f64)>> {
        Some(self.0.chance(state))
    }
    fn sample_chance<G: RngCore + ?Sized>(
        &self,
        state: &R::State,
        rng: &mut G,
    ) -> Option<R::Action> {
        let outcomes = self.0.chance(state);
        if outcomes.is_empty() {
            return None;
        }
        let weights: Vec<f64> = outcomes.iter().map(|(_, p)| *p).collect();
        Some(outcomes[weighted_index(rng, &weights)].0)
    }
    fn observe(&self, state: &R::State, seat: usize) -> View<R::State> {
        View::new(seat, self.0.view(state, seat))
    }
    fn determinize<G: RngCore + ?Sized>(&self, view: &View<R::State>, rng: &mut G) -> R::State {
        let mut own = seeded_rng(rng.next_u64());
        self.0.determinize(view.state(), view.seat(), &mut own)
    }
    fn evaluate(&self, state: &R::State, out: &mut Vec<f64>) {
        out.clear();
        if self.0.player(state) == TERMINAL {
            out.extend(self.0.returns_of(state));
        } else {
            out.extend(self.0.evaluate(state));
        }
    }
    fn policy_weights(&self, state: &R::State, actions: &[R::Action], out: &mut Vec<f64>) {
        out.clear();
        out.extend(self.0.weights(state, actions));
    }
    fn returns(&self, state: &R::State) -> Vec<f64> {
        self.0.returns_of(state)
    }
    fn scores(&self, state: &R::State) -> Vec<f64> {
        self.0.final_scores(state)
    }
    fn state_from_json(&self, data: &Value) -> Result<R::State, InvalidState> {
        self.0
            .decode(data)
            .ok_or_else(|| InvalidState::new("$", "not a state of this game"))
    }
    fn state_to_json(&self, state: &R::State, observer: Option<usize>) -> Value {
        match observer {
            Some(seat) => self.0.encode(&self.0.view(state, seat)),
            None => self.0.encode(state),
        }
    }
    fn action_to_str(&self, _state: &R::State, action: R::Action) -> String {
        self.0.text(action)
    }
    fn action_from_str(&self, state: &R::State, text: &str) -> Result<R::Action, ActionError> {
        let mut legal = Vec::new();
        self.legal_actions(state, &mut legal);
        legal
            .into_iter()
            .find(|a| self.0.text(*a) == text)
            .ok_or_else(|| ActionError::Illegal {
                path: "$".into(),
                reason: format!("'{text}' is not legal here"),
            })
    }
    fn action_to_json(&self, _state: &R::State, action: R::Action) -> Value {
        json!({"move": self.0.text(action)})
    }
    fn action_from_json(&self, state: &R::State, data: &Value) -> Result<R::Action, ActionError> {
        match data.get("move").and_then(Value::as_str) {
            Some(text) => self.action_from_str(state, text),
            None => Err(ActionError::Invalid {
                path: "$.move".into(),
                reason: "expected a string".into(),
            }),
        }
    }
}

fn int(data: &Value, key: &str) -> Option<i64> {
    data.get(key)?.as_i64()
}

// ---------------------------------------------------------------------------------------------
// Nim

/// Stones left and the seat to move; whoever takes the last stone wins.
#[derive(Clone, Debug, PartialEq)]
pub struct NimState {
    pub stones: u32,
    pub player: i32,
    pub winner: i32,
}

/// Take 1 to 3 stones; taking the last stone wins (a multiple of 4 left is lost).
#[derive(Debug, Default)]
pub struct NimRules {
    /// Counts `policy_weights` calls and answers [1, 2, 3] when set (the heuristic-rollout test).
    pub counting: bool,
    /// Panics in `evaluate` (a buggy game, for the worker-failure test).
    pub panicking: bool,
    pub weights_calls: AtomicU64,
    pub evaluations: AtomicU64,
}

pub type NimGame = Toy<NimRules>;

pub fn nim() -> NimGame {
    Toy(NimRules::default())
}

pub fn panicking_nim() -> NimGame {
    Toy(NimRules {
        panicking: true,
        ..NimRules::default()
    })
}

pub fn counting_nim() -> NimGame {
    Toy(NimRules {
        counting: true,
        ..NimRules::default()
    })
}

impl NimRules {
    pub fn state(stones: u32) -> NimState {
        NimState {
            stones,
            player: 0,
            winner: -1,
        }
    }
}

impl ToyRules for NimRules {
    type State = NimState;
    type Action = u8;

    fn name(&self) -> &'static str {
        "toy-nim"
    }
    fn start(&self, options: &Value, _seed: u64) -> NimState {
        Self::state(int(options, "stones").unwrap_or(10) as u32)
    }
    fn player(&self, s: &NimState) -> i32 {
        s.player
    }
    fn winner(&self, s: &NimState) -> i32 {
        s.winner
    }
    fn legal(&self, s: &NimState) -> Vec<u8> {
        (1..=3).filter(|&n| u32::from(n) <= s.stones).collect()
    }
    fn apply(&self, s: &NimState, action: u8) -> NimState {
        assert!(self.legal(s).contains(&action), "cannot take {action}");
        let left = s.stones - u32::from(action);
        if left == 0 {
            return NimState {
                stones: 0,
                player: TERMINAL,
                winner: s.player,
            };
        }
        NimState {
            stones: left,
            player: 1 - s.player,
            winner: -1,
        }
    }
    fn evaluate(&self, _s: &NimState) -> Vec<f64> {
        assert!(!self.panicking, "a buggy evaluation");
        if self.counting {
            self.evaluations.fetch_add(1, Ordering::Relaxed);
        }
        vec![0.5, 0.5]
    }
    fn weights(&self, _s: &NimState, actions: &[u8]) -> Vec<f64> {
        if self.counting {
            self.weights_calls.fetch_add(1, Ordering::Relaxed);
            return [1.0, 2.0, 3.0][..actions.len()].to_vec();
        }
        vec![1.0; actions.len()]
    }
    fn text(&self, action: u8) -> String {
        action.to_string()
    }
    fn encode(&self, s: &NimState) -> Value {
        json!({"stones": s.stones, "player": s.player, "winner": s.winner})
    }
    fn decode(&self, d: &Value) -> Option<NimState> {
        Some(NimState {
            stones: u32::try_from(int(d, "stones")?).ok()?,
            player: i32::try_from(int(d, "player")?).ok()?,
            winner: i32::try_from(int(d, "winner")?).ok()?,
        })
    }
}

// ---------------------------------------------------------------------------------------------
// Guess

/// A move of the guessing game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum GuessAction {
    Coin,
    Guess(u8),
    Heads,
    Tails,
}

/// Seat 0 guesses seat 1's hidden card or takes a coin flip.
#[derive(Clone, Debug, PartialEq)]
pub struct GuessState {
    pub hands: [u8; 2],
    pub deck: [u8; 2],
    pub player: i32,
    pub winner: i32,
}

impl GuessState {
    pub fn new(hands: [u8; 2], deck: [u8; 2]) -> Self {
        Self {
            hands,
            deck,
            player: 0,
            winner: -1,
        }
    }
}

/// Cards 1-4, one per seat; seat 0 may `guess-k` (wins iff seat 1 holds k) or `coin`.
///
/// Under seat 0's information set a guess wins 1/3 and the coin 1/2: `coin` is right. A
/// search that saw seat 1's card would guess it instead: with `peeking`, the view shows
/// everything and every world is the true state.
///
/// With `order_sensitive`, `determinize` deals the unseen cards from the order they are stored
/// in (ascending when the state holds none, as a view does): a legal but careless
/// determinization whose worlds depend on hidden orders, which only the search's use of the
/// seat's view (`observe` zeroes the hidden cards) keeps from leaking.
#[derive(Debug, Default)]
pub struct GuessRules {
    pub peeking: bool,
    pub order_sensitive: bool,
}

pub type GuessGame = Toy<GuessRules>;

pub fn guess() -> GuessGame {
    Toy(GuessRules::default())
}

pub fn peeking_guess() -> GuessGame {
    Toy(GuessRules {
        peeking: true,
        ..GuessRules::default()
    })
}

pub fn order_sensitive_guess() -> GuessGame {
    Toy(GuessRules {
        order_sensitive: true,
        ..GuessRules::default()
    })
}

impl ToyRules for GuessRules {
    type State = GuessState;
    type Action = GuessAction;

    fn name(&self) -> &'static str {
        "toy-guess"
    }
    fn start(&self, _options: &Value, seed: u64) -> GuessState {
        let mut cards = [1, 2, 3, 4];
        shuffle(&mut seeded_rng(seed), &mut cards);
        GuessState::new([cards[0], cards[1]], [cards[2], cards[3]])
    }
    fn player(&self, s: &GuessState) -> i32 {
        s.player
    }
    fn winner(&self, s: &GuessState) -> i32 {
        s.winner
    }
    fn legal(&self, s: &GuessState) -> Vec<GuessAction> {
        if s.player != 0 {
            return Vec::new();
        }
        let mut moves = vec![GuessAction::Coin];
        moves.extend((1..=4).map(GuessAction::Guess));
        moves
    }
    fn apply(&self, s: &GuessState, action: GuessAction) -> GuessState {
        let mut next = s.clone();
        next.player = TERMINAL;
        match action {
            GuessAction::Heads => next.winner = 0,
            GuessAction::Tails => next.winner = 1,
            GuessAction::Coin => next.player = CHANCE,
            GuessAction::Guess(k) => next.winner = if k == s.hands[1] { 0 } else { 1 },
        }
        next
    }
    fn chance(&self, s: &GuessState) -> Vec<(GuessAction, f64)> {
        if s.player != CHANCE {
            return Vec::new();
        }
        vec![(GuessAction::Heads, 0.5), (GuessAction::Tails, 0.5)]
    }
    fn determinize(&self, s: &GuessState, observer: usize, rng: &mut SeededRng) -> GuessState {
        if self.peeking {
            return s.clone();
        }
        let own = s.hands[observer];
        let stored = [s.hands[1 - observer], s.deck[0], s.deck[1]];
        let mut unseen: Vec<u8> = if self.order_sensitive && !stored.contains(&0) {
            stored.to_vec()
        } else {
            (1..=4).filter(|&c| c != own).collect()
        };
        shuffle(rng, &mut unseen);
        let mut next = s.clone();
        next.hands[1 - observer] = unseen[0];
        next.deck = [unseen[1], unseen[2]];
        next
    }
    fn view(&self, s: &GuessState, observer: usize) -> GuessState {
        if self.peeking {
            return s.clone();
        }
        let mut seen = s.clone();
        seen.hands[1 - observer] = 0;
        seen.deck = [0, 0];
        seen
    }
    fn text(&self, action: GuessAction) -> String {
        match action {
            GuessAction::Coin => "coin".into(),
            GuessAction::Guess(k) => format!("guess-{k}"),
            GuessAction::Heads => "heads".into(),
            GuessAction::Tails => "tails".into(),
        }
    }
    fn encode(&self, s: &GuessState) -> Value {
        json!({"hands": s.hands, "deck": s.deck, "player": s.player, "winner": s.winner})
    }
    fn decode(&self, d: &Value) -> Option<GuessState> {
        let pair = |key: &str| -> Option<[u8; 2]> {
            let items = d.get(key)?.as_array()?;
            let values: Vec<u8> = items
                .iter()
                .map(|v| v.as_u64().and_then(|n| u8::try_from(n).ok()))
                .collect::<Option<_>>()?;
            values.try_into().ok()
        };
        Some(GuessState {
            hands: pair("hands")?,
            deck: pair("deck")?,
            player: i32::try_from(int(d, "player")?).ok()?,
            winner: i32::try_from(int(d, "winner")?).ok()?,
        })
    }
}

// ---------------------------------------------------------------------------------------------
// Kingmaker

/// A move of the kingmaker game: seat 0 asks a seat, that seat crowns one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum KingAction {
    Ask(u8),
    Crown(u8),
}

/// Seat 0 picks who decides the winner; that seat then names seat 0 or seat 1.
#[derive(Clone, Debug, PartialEq)]
pub struct KingState {
    pub player: i32,
    pub winner: i32,
}

/// Three seats. Seat 0: `ask-1` or `ask-2`.
///
/// `ask-1`: seat 1 crowns seat 0 or seat 1 (it crowns itself: seat 0 gets 0).
/// `ask-2`: seat 2 crowns seat 0 or seat 1 (it is indifferent: seat 0 gets about 1/2).
/// A search that maximised seat 0's value at every node would pick `ask-1`.
#[derive(Debug, Default)]
pub struct KingRules;

pub type KingmakerGame = Toy<KingRules>;

pub fn kingmaker() -> KingmakerGame {
    Toy(KingRules)
}

impl ToyRules for KingRules {
    type State = KingState;
    type Action = KingAction;

    fn name(&self) -> &'static str {
        "toy-kingmaker"
    }
    fn players(&self) -> usize {
        3
    }
    fn start(&self, _options: &Value, _seed: u64) -> KingState {
        KingState {
            player: 0,
            winner: -1,
        }
    }
    fn player(&self, s: &KingState) -> i32 {
        s.player
    }
    fn winner(&self, s: &KingState) -> i32 {
        s.winner
    }
    fn legal(&self, s: &KingState) -> Vec<KingAction> {
        match s.player {
            0 => vec![KingAction::Ask(1), KingAction::Ask(2)],
            1 | 2 => vec![KingAction::Crown(0), KingAction::Crown(1)],
            _ => Vec::new(),
        }
    }
    fn apply(&self, _s: &KingState, action: KingAction) -> KingState {
        match action {
            KingAction::Ask(seat) => KingState {
                player: i32::from(seat),
                winner: -1,
            },
            KingAction::Crown(seat) => KingState {
                player: TERMINAL,
                winner: i32::from(seat),
            },
        }
    }
    fn text(&self, action: KingAction) -> String {
        match action {
            KingAction::Ask(seat) => format!("ask-{seat}"),
            KingAction::Crown(seat) => format!("crown-{seat}"),
        }
    }
    fn encode(&self, s: &KingState) -> Value {
        json!({"player": s.player, "winner": s.winner})
    }
    fn decode(&self, d: &Value) -> Option<KingState> {
        Some(KingState {
            player: i32::try_from(int(d, "player")?).ok()?,
            winner: i32::try_from(int(d, "winner")?).ok()?,
        })
    }
}

// ---------------------------------------------------------------------------------------------
// Dice

/// A move of the dice game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum DiceAction {
    Coin,
    Die,
    Ack,
    Sigh,
    Face(u8),
}

/// Seat 0 picks a gamble; a chance step settles it; seat 1 then has a dummy turn.
#[derive(Clone, Debug, PartialEq)]
pub struct DiceState {
    pub die: bool,
    pub roll: u8,
    pub player: i32,
    pub winner: i32,
}

/// Seat 0: `coin` (wins 1/2) or `die` (wins on 3-6, 2/3). Then seat 1 `ack`s the result.
///
/// The chance step sits between two decisions, exercising open-loop chance handling.
#[derive(Debug, Default)]
pub struct DiceRules;

pub type DiceGame = Toy<DiceRules>;

pub fn dice() -> DiceGame {
    Toy(DiceRules)
}

impl ToyRules for DiceRules {
    type State = DiceState;
    type Action = DiceAction;

    fn name(&self) -> &'static str {
        "toy-dice"
    }
    fn start(&self, _options: &Value, _seed: u64) -> DiceState {
        DiceState {
            die: false,
            roll: 0,
            player: 0,
            winner: -1,
        }
    }
    fn player(&self, s: &DiceState) -> i32 {
        s.player
    }
    fn winner(&self, s: &DiceState) -> i32 {
        s.winner
    }
    fn legal(&self, s: &DiceState) -> Vec<DiceAction> {
        match s.player {
            0 => vec![DiceAction::Coin, DiceAction::Die],
            1 => vec![DiceAction::Ack, DiceAction::Sigh],
            _ => Vec::new(),
        }
    }
    fn apply(&self, s: &DiceState, action: DiceAction) -> DiceState {
        let mut next = s.clone();
        match action {
            DiceAction::Face(face) => {
                next.roll = face;
                next.player = 1;
            }
            DiceAction::Coin | DiceAction::Die => {
                next.die = action == DiceAction::Die;
                next.player = CHANCE;
            }
            DiceAction::Ack | DiceAction::Sigh => {
                let won = if s.die { s.roll >= 3 } else { s.roll == 1 };
                next.player = TERMINAL;
                next.winner = if won { 0 } else { 1 };
            }
        }
        next
    }
    fn chance(&self, s: &DiceState) -> Vec<(DiceAction, f64)> {
        if s.player != CHANCE {
            return Vec::new();
        }
        let faces: u8 = if s.die { 6 } else { 2 };
        (1..=faces)
            .map(|face| (DiceAction::Face(face), 1.0 / f64::from(faces)))
            .collect()
    }
    fn text(&self, action: DiceAction) -> String {
        match action {
            DiceAction::Coin => "coin".into(),
            DiceAction::Die => "die".into(),
            DiceAction::Ack => "ack".into(),
            DiceAction::Sigh => "sigh".into(),
            DiceAction::Face(face) => face.to_string(),
        }
    }
    fn encode(&self, s: &DiceState) -> Value {
        json!({"die": s.die, "roll": s.roll, "player": s.player, "winner": s.winner})
    }
    fn decode(&self, d: &Value) -> Option<DiceState> {
        Some(DiceState {
            die: d.get("die")?.as_bool()?,
            roll: u8::try_from(int(d, "roll")?).ok()?,
            player: i32::try_from(int(d, "player")?).ok()?,
            winner: i32::try_from(int(d, "winner")?).ok()?,
        })
    }
}

// ---------------------------------------------------------------------------------------------
// Margin

/// A win by a small or a large margin.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum MarginAction {
    Small,
    Big,
}

/// Seat 0 wins either way; the final scores depend on its move.
#[derive(Clone, Debug, PartialEq)]
pub struct MarginState {
    pub chosen: Option<MarginAction>,
}

/// Seat 0: `small` (wins 11 to 10) or `big` (wins 20 to 2): only the margin tells them apart.
#[derive(Debug, Default)]
pub struct MarginRules;

pub type MarginGame = Toy<MarginRules>;

pub fn margin() -> MarginGame {
    Toy(MarginRules)
}

impl ToyRules for MarginRules {
    type State = MarginState;
    type Action = MarginAction;

    fn name(&self) -> &'static str {
        "toy-margin"
    }
    fn start(&self, _options: &Value, _seed: u64) -> MarginState {
        MarginState { chosen: None }
    }
    fn player(&self, s: &MarginState) -> i32 {
        if s.chosen.is_some() {
            TERMINAL
        } else {
            0
        }
    }
    fn winner(&self, _s: &MarginState) -> i32 {
        0
    }
    fn legal(&self, _s: &MarginState) -> Vec<MarginAction> {
        vec![MarginAction::Small, MarginAction::Big]
    }
    fn apply(&self, _s: &MarginState, action: MarginAction) -> MarginState {
        MarginState {
            chosen: Some(action),
        }
    }
    fn final_scores(&self, s: &MarginState) -> Vec<f64> {
        match s.chosen {
            Some(MarginAction::Small) => vec![11.0, 10.0],
            Some(MarginAction::Big) => vec![20.0, 2.0],
            None => vec![0.0, 0.0],
        }
    }
    fn text(&self, action: MarginAction) -> String {
        match action {
            MarginAction::Small => "small".into(),
            MarginAction::Big => "big".into(),
        }
    }
    fn encode(&self, s: &MarginState) -> Value {
        json!({"chosen": s.chosen.map(|a| self.text(a))})
    }
    fn decode(&self, d: &Value) -> Option<MarginState> {
        let chosen = match d.get("chosen")? {
            Value::Null => None,
            Value::String(text) if text == "small" => Some(MarginAction::Small),
            Value::String(text) if text == "big" => Some(MarginAction::Big),
            _ => return None,
        };
        Some(MarginState { chosen })
    }
}

// ---------------------------------------------------------------------------------------------
// Helpers

/// Everything in a result except the wall-clock time.
pub fn figures<A: Clone>(
    result: &boardbot_search::SearchResult<A>,
) -> boardbot_search::SearchResult<A> {
    boardbot_search::SearchResult {
        elapsed: std::time::Duration::ZERO,
        ..result.clone()
    }
}

/// The statistics of the root move written `notation`.
pub fn by_notation<'r, A>(
    result: &'r boardbot_search::SearchResult<A>,
    notation: &str,
) -> &'r boardbot_search::MoveStats<A> {
    result
        .moves
        .iter()
        .find(|m| m.notation == notation)
        .unwrap_or_else(|| panic!("no root move {notation}"))
}

// ---------------------------------------------------------------------------------------------
// Hidden options

/// A move of the hidden-options game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum OptionAction {
    Left,
    Right,
    Always,
    Odd,
    Even,
}

/// Seat 1 holds a card seat 0 cannot see; the card decides one of seat 1's options.
#[derive(Clone, Debug, PartialEq)]
pub struct OptionState {
    pub card: u8,
    pub player: i32,
    pub winner: i32,
}

/// Seat 0: `left` or `right` (the same). Seat 1 then has `always` and, by its hidden card,
/// `odd` or `even`: from seat 0's information set, `always` is available in every world and
/// `odd` / `even` in half of them each.
#[derive(Debug, Default)]
pub struct OptionRules;

pub type OptionGame = Toy<OptionRules>;

pub fn hidden_options() -> OptionGame {
    Toy(OptionRules)
}

impl ToyRules for OptionRules {
    type State = OptionState;
    type Action = OptionAction;

    fn name(&self) -> &'static str {
        "toy-options"
    }
    fn start(&self, _options: &Value, seed: u64) -> OptionState {
        OptionState {
            card: 1 + (seed % 4) as u8,
            player: 0,
            winner: -1,
        }
    }
    fn player(&self, s: &OptionState) -> i32 {
        s.player
    }
    fn winner(&self, s: &OptionState) -> i32 {
        s.winner
    }
    fn legal(&self, s: &OptionState) -> Vec<OptionAction> {
        match s.player {
            0 => vec![OptionAction::Left, OptionAction::Right],
            1 if s.card % 2 == 1 => vec![OptionAction::Always, OptionAction::Odd],
            1 => vec![OptionAction::Always, OptionAction::Even],
            _ => Vec::new(),
        }
    }
    fn apply(&self, s: &OptionState, action: OptionAction) -> OptionState {
        let mut next = s.clone();
        match action {
            OptionAction::Left | OptionAction::Right => next.player = 1,
            OptionAction::Always => {
                next.player = TERMINAL;
                next.winner = 0;
            }
            OptionAction::Odd | OptionAction::Even => {
                next.player = TERMINAL;
                next.winner = 1;
            }
        }
        next
    }
    fn determinize(&self, s: &OptionState, _observer: usize, rng: &mut SeededRng) -> OptionState {
        let mut world = s.clone();
        world.card = 1 + boardbot_rules::rng::below(rng, 4) as u8;
        world
    }
    fn view(&self, s: &OptionState, _observer: usize) -> OptionState {
        OptionState {
            card: 0,
            ..s.clone()
        }
    }
    fn text(&self, action: OptionAction) -> String {
        format!("{action:?}").to_lowercase()
    }
    fn encode(&self, s: &OptionState) -> Value {
        json!({"card": s.card, "player": s.player, "winner": s.winner})
    }
    fn decode(&self, d: &Value) -> Option<OptionState> {
        Some(OptionState {
            card: u8::try_from(int(d, "card")?).ok()?,
            player: i32::try_from(int(d, "player")?).ok()?,
            winner: i32::try_from(int(d, "winner")?).ok()?,
        })
    }
}

// ---------------------------------------------------------------------------------------------
// Needle

/// Seat 0 picks one of `moves` actions; only the needle wins.
#[derive(Clone, Debug, PartialEq)]
pub struct NeedleState {
    pub moves: u8,
    pub needle: u8,
    pub chosen: Option<u8>,
}

/// Seat 0 picks `m0` .. `m<moves-1>`; `m<needle>` wins, every other move loses. The policy
/// weights point at the needle (10, the others 1): priors expand it first.
#[derive(Debug, Default)]
pub struct NeedleRules;

pub type NeedleGame = Toy<NeedleRules>;

pub fn needle() -> NeedleGame {
    Toy(NeedleRules)
}

impl NeedleRules {
    pub fn state(moves: u8, needle: u8) -> NeedleState {
        NeedleState {
            moves,
            needle,
            chosen: None,
        }
    }
}

impl ToyRules for NeedleRules {
    type State = NeedleState;
    type Action = u8;

    fn name(&self) -> &'static str {
        "toy-needle"
    }
    fn start(&self, options: &Value, _seed: u64) -> NeedleState {
        let moves = int(options, "moves").unwrap_or(20) as u8;
        let needle = int(options, "needle").unwrap_or(13) as u8;
        Self::state(moves, needle)
    }
    fn player(&self, s: &NeedleState) -> i32 {
        if s.chosen.is_some() {
            TERMINAL
        } else {
            0
        }
    }
    fn winner(&self, s: &NeedleState) -> i32 {
        i32::from(s.chosen != Some(s.needle))
    }
    fn legal(&self, s: &NeedleState) -> Vec<u8> {
        (0..s.moves).collect()
    }
    fn apply(&self, s: &NeedleState, action: u8) -> NeedleState {
        NeedleState {
            chosen: Some(action),
            ..s.clone()
        }
    }
    fn weights(&self, s: &NeedleState, actions: &[u8]) -> Vec<f64> {
        actions
            .iter()
            .map(|&a| if a == s.needle { 10.0 } else { 1.0 })
            .collect()
    }
    fn text(&self, action: u8) -> String {
        format!("m{action}")
    }
    fn encode(&self, s: &NeedleState) -> Value {
        json!({"moves": s.moves, "needle": s.needle, "chosen": s.chosen})
    }
    fn decode(&self, d: &Value) -> Option<NeedleState> {
        Some(NeedleState {
            moves: u8::try_from(int(d, "moves")?).ok()?,
            needle: u8::try_from(int(d, "needle")?).ok()?,
            chosen: match d.get("chosen")? {
                Value::Null => None,
                other => Some(u8::try_from(other.as_i64()?).ok()?),
            },
        })
    }
}
