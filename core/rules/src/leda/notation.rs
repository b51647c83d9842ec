//! Action notation: actions <-> JSON objects <-> short strings such as `play:shark-6@r2c2`,
//! the twin of `engine/leda/notation.py`, with the Python engine's exact strings and errors.
//!
//! A LEDA action reads the same in every state, so the renderers and parsers here take no
//! state. Python's `action_from_str` / `action_from_json` are [`action_from_str`] /
//! [`action_from_json`]: [`parse_action_text`] / [`parse_action_json`] (the form) followed by
//! the legality check, whose errors are [`text_not_legal`] / [`json_not_legal`] for a
//! decision, and [`shuffle_not_pending`] / [`shuffle_wrong_size`] for a shuffle outcome
//! (checked against the pending shuffle, not the legal actions, as Python does).

use serde_json::{Map, Value};

use super::actions::{
    is_permutation, Action, ActionArg, ACTION_ARGS, ACTION_NAMES, A_SHUFFLE, A_SWAP, SHUFFLE_MAX,
};
use super::data::{ITEM_NAMES, SQUARE_NAMES, ZONE_NAMES};
use super::frames::{F_SHUFFLE, PILE_NAMES, SHUFFLE_ACTIONS};
use super::rules::{current_player, legal_actions, shuffle_size};
use super::state::LedaState;
use crate::error::ActionError;
use crate::game::CHANCE;
use crate::jsonread::{JsonResult, Reader};
use crate::pyrepr::echo_str;

const PUT: [&str; 2] = ["top", "bottom"];
const BOOL: [&str; 2] = ["no", "yes"];

/// The names of an argument's values (`option` has none: it is written 1-based).
fn names(shape: ActionArg) -> &'static [&'static str] {
    match shape {
        ActionArg::Square => &SQUARE_NAMES,
        ActionArg::Card | ActionArg::Token => &ITEM_NAMES,
        ActionArg::Zone => &ZONE_NAMES,
        ActionArg::Pile => &PILE_NAMES,
        ActionArg::Put => &PUT,
        ActionArg::Bool => &BOOL,
        ActionArg::Option => &[],
    }
}

fn arg_text(shape: ActionArg, value: usize) -> String {
    match shape {
        ActionArg::Option => (value + 1).to_string(),
        _ => names(shape)[value].to_string(),
    }
}

fn shapes(action: &Action) -> &'static [ActionArg] {
    ACTION_ARGS[usize::from(action.kind())]
}

/// The short text form: `verb` or `verb:arg`, `verb:card@square`, `swap:r1c1-r2c2`,
/// `shuffle:2,0,1`.
pub fn action_to_str(action: &Action) -> String {
    let name = ACTION_NAMES[usize::from(action.kind())];
    if action.is_shuffle() {
        let order: Vec<String> = action.args().iter().map(u8::to_string).collect();
        return format!("{name}:{}", order.join(","));
    }
    let shapes = shapes(action);
    if shapes.is_empty() {
        return name.to_string();
    }
    let parts: Vec<String> = shapes
        .iter()
        .enumerate()
        .map(|(i, &shape)| arg_text(shape, action.arg(i)))
        .collect();
    let sep = if action.kind() == A_SWAP { "-" } else { "@" };
    format!("{name}:{}", parts.join(sep))
}

/// The JSON field of an argument shape.
fn field(shape: ActionArg) -> &'static str {
    match shape {
        ActionArg::Square => "square",
        ActionArg::Card => "card",
        ActionArg::Token => "token",
        ActionArg::Zone => "zone",
        ActionArg::Pile => "pile",
        ActionArg::Put => "put",
        ActionArg::Bool => "redraw",
        ActionArg::Option => "option",
    }
}

/// The JSON object: `{"type": verb, field: value, ...}`.
pub fn action_to_json(action: &Action) -> Value {
    let mut out = Map::new();
    out.insert(
        "type".into(),
        ACTION_NAMES[usize::from(action.kind())].into(),
    );
    if action.is_shuffle() {
        let order = action.args().iter().map(|&v| Value::from(v)).collect();
        out.insert("order".into(), Value::Array(order));
        return Value::Object(out);
    }
    if action.kind() == A_SWAP {
        let pair = vec![
            SQUARE_NAMES[action.arg(0)].into(),
            SQUARE_NAMES[action.arg(1)].into(),
        ];
        out.insert("squares".into(), Value::Array(pair));
        return Value::Object(out);
    }
    for (i, &shape) in shapes(action).iter().enumerate() {
        let v = action.arg(i);
        let value = match shape {
            ActionArg::Bool => Value::Bool(v == 1),
            ActionArg::Option => Value::from(v + 1),
            _ => arg_text(shape, v).into(),
        };
        out.insert(field(shape).into(), value);
    }
    Value::Object(out)
}

fn parse_arg(r: &Reader, shape: ActionArg) -> JsonResult<usize> {
    match shape {
        ActionArg::Bool => Ok(usize::from(r.as_bool()?)),
        ActionArg::Option => Ok(r.as_count(1, 2)? - 1),
        _ => r.as_choice(names(shape)),
    }
}

/// The action of a JSON object, before the legality check (Python's `action_from_json` up to
/// `_check_legal`): exactly Python's error path and reason for a malformed object.
pub fn parse_action_json(data: &Value) -> Result<Action, ActionError> {
    let root = Reader::document(data, "$")?;
    root.obj(None)?;
    let kind = root.get("type")?.as_choice(&ACTION_NAMES)? as u8;
    if kind == A_SHUFFLE {
        root.obj(Some(&["type", "order"]))?;
        let entries = root.get("order")?.as_list(0, Some(SHUFFLE_MAX))?;
        let order = entries
            .iter()
            .map(|r| r.as_count(0, SHUFFLE_MAX - 1))
            .collect::<JsonResult<Vec<usize>>>()?;
        return match Action::shuffle(&order) {
            Some(action) => Ok(action),
            None => Err(root.get("order")?.fail("not a permutation").into()),
        };
    }
    let shapes = ACTION_ARGS[usize::from(kind)];
    let mut args = [0usize; 2];
    if kind == A_SWAP {
        root.obj(Some(&["type", "squares"]))?;
        let pair = root.get("squares")?.as_list(2, Some(2))?;
        for (slot, r) in args.iter_mut().zip(&pair) {
            *slot = parse_arg(r, ActionArg::Square)?;
        }
        args.sort_unstable();
    } else {
        let mut allowed = vec!["type"];
        allowed.extend(shapes.iter().map(|&s| field(s)));
        root.obj(Some(&allowed))?;
        for (slot, &shape) in args.iter_mut().zip(shapes) {
            *slot = parse_arg(&root.get(field(shape))?, shape)?;
        }
    }
    Action::decision(kind, &args[..shapes.len()])
        .ok_or_else(|| ActionError::invalid("$", "not an action"))
}

/// The text form is 1 or 2 ASCII digits.
fn small_number(text: &str) -> bool {
    !text.is_empty() && text.len() <= 2 && text.bytes().all(|b| b.is_ascii_digit())
}

/// The decision a text names when it is exactly the text form of one (swaps with the first
/// square not after the second, as the JSON parser gives them).
fn decision_of_text(kind: u8, text: &str) -> Option<Action> {
    let name = ACTION_NAMES[usize::from(kind)];
    let shapes = ACTION_ARGS[usize::from(kind)];
    if shapes.is_empty() {
        return (text == name)
            .then(|| Action::decision(kind, &[]))
            .flatten();
    }
    let rest = text.strip_prefix(name)?.strip_prefix(':')?;
    let lookup = |shape: ActionArg, part: &str| -> Option<usize> {
        if shape == ActionArg::Option {
            return ["1", "2"].iter().position(|t| *t == part);
        }
        names(shape).iter().position(|n| *n == part)
    };
    let action = match shapes {
        [one] => Action::decision(kind, &[lookup(*one, rest)?]),
        [a, b] => {
            let (x, y) = rest.split_once(if kind == A_SWAP { '-' } else { '@' })?;
            let args = [lookup(*a, x)?, lookup(*b, y)?];
            if kind == A_SWAP && args[0] > args[1] {
                return None;
            }
            Action::decision(kind, &args)
        }
        _ => None,
    }?;
    (action_to_str(&action) == text).then_some(action)
}

/// The action of a short text, before the legality check (Python's `action_from_str`, whose
/// verdict on a text no action renders to does not depend on the state): a malformed shuffle
/// or an unknown verb is invalid, any other text that is not an action's text form is
/// [`text_not_legal`].
pub fn parse_action_text(text: &str) -> Result<Action, ActionError> {
    if let Some(rest) = text.strip_prefix("shuffle:") {
        let parts: Vec<&str> = rest.split(',').collect();
        if parts.len() > SHUFFLE_MAX || !parts.iter().all(|p| small_number(p)) {
            return Err(ActionError::invalid(
                "$",
                format!("bad shuffle order {}", echo_str(text)),
            ));
        }
        let order: Vec<usize> = parts
            .iter()
            .map(|p| p.parse().unwrap_or(usize::MAX))
            .collect();
        if !is_permutation(&order) {
            return Err(ActionError::invalid("$", "not a permutation"));
        }
        return Action::shuffle(&order)
            .ok_or_else(|| ActionError::invalid("$", "not a permutation"));
    }
    let name = text.split_once(':').map_or(text, |(name, _)| name);
    let Some(kind) = ACTION_NAMES.iter().position(|n| *n == name) else {
        return Err(ActionError::invalid(
            "$",
            format!("unknown action {}", echo_str(text)),
        ));
    };
    let kind = kind as u8;
    if kind == A_SHUFFLE {
        return Err(text_not_legal(text));
    }
    decision_of_text(kind, text).ok_or_else(|| text_not_legal(text))
}

/// Python's `_check_legal`: a shuffle against the pending shuffle, a decision against the
/// legal actions (`not_legal` gives the error).
fn check_legal(
    state: &LedaState,
    action: Action,
    not_legal: impl FnOnce() -> ActionError,
) -> Result<Action, ActionError> {
    if action.is_shuffle() {
        if current_player(state) != CHANCE {
            return Err(shuffle_not_pending());
        }
        let size = shuffle_size(state);
        if action.args().len() != size {
            return Err(shuffle_wrong_size(size));
        }
        return Ok(action);
    }
    let mut legal = Vec::new();
    legal_actions(state, &mut legal);
    if legal.contains(&action) {
        Ok(action)
    } else {
        Err(not_legal())
    }
}

/// How to write the outcome of the pending shuffle, an order of the pile's items (Python's
/// `chance_form`); None when no shuffle is pending.
pub fn chance_form(state: &LedaState) -> Option<String> {
    let frame = state
        .stack
        .last()
        .filter(|f| state.winner < 0 && f.kind == F_SHUFFLE)?;
    let n = shuffle_size(state);
    let pile = if frame.arg(0) == SHUFFLE_ACTIONS {
        "Action tiles".to_owned()
    } else {
        format!("cards (seat {}'s deck)", frame.seat)
    };
    let first: Vec<String> = (0..n.min(3)).map(|i| i.to_string()).collect();
    Some(format!(
        "shuffle of {n} {pile}: {{\"type\":\"shuffle\",\"order\":[...]}} with order a \
         permutation of 0..{}, item i of the new pile being item order[i] of the old \
         (notation shuffle:{},...)",
        n as i64 - 1,
        first.join(",")
    ))
}

/// Parse the short text form and check it is legal in `state` (Python's `action_from_str`).
pub fn action_from_str(state: &LedaState, text: &str) -> Result<Action, ActionError> {
    let action = parse_action_text(text)?;
    check_legal(state, action, || text_not_legal(text))
}

/// Parse a JSON action and check it is legal in `state` (Python's `action_from_json`).
pub fn action_from_json(state: &LedaState, data: &Value) -> Result<Action, ActionError> {
    let action = parse_action_json(data)?;
    check_legal(state, action, || json_not_legal(&action))
}

/// Python's error for a well-formed move text that is not legal in the state.
pub fn text_not_legal(text: &str) -> ActionError {
    ActionError::illegal(format!("{} is not legal here", echo_str(text)))
}

/// Python's error for a well-formed JSON decision that is not legal in the state (a shuffle
/// fails on the pending shuffle instead: `no shuffle is pending`, or at `$.order` `the shuffle
/// orders N items`).
pub fn json_not_legal(action: &Action) -> ActionError {
    let shown = if action.kind() == A_SWAP {
        ACTION_NAMES[usize::from(A_SWAP)].to_string()
    } else {
        action_to_str(action)
    };
    ActionError::illegal(format!("{shown} is not legal here"))
}

/// Python's error for a shuffle outcome when the game is over or no shuffle is pending.
pub fn shuffle_not_pending() -> ActionError {
    ActionError::illegal("no shuffle is pending")
}

/// Python's error for a shuffle order of the wrong length (`size` items are shuffled).
pub fn shuffle_wrong_size(size: usize) -> ActionError {
    ActionError::Illegal {
        path: "$.order".into(),
        reason: format!("the shuffle orders {size} items"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn renders_and_parses_the_forms() {
        let play = Action::decision(super::super::actions::A_PLAY, &[5, 9]).unwrap();
        let text = action_to_str(&play);
        assert_eq!(parse_action_text(&text), Ok(play));
        assert_eq!(parse_action_json(&action_to_json(&play)), Ok(play));
        let swap =
            parse_action_json(&json!({"type": "swap", "squares": ["r2c2", "r1c1"]})).unwrap();
        assert_eq!(action_to_str(&swap), "swap:r1c1-r2c2");
        assert_eq!(json_not_legal(&swap).reason(), "swap is not legal here");
        assert_eq!(
            parse_action_text("shuffle:2,0,1").map(|a| action_to_json(&a)),
            Ok(json!({"type": "shuffle", "order": [2, 0, 1]}))
        );
        let err = shuffle_wrong_size(4);
        assert_eq!(
            (err.path(), err.reason()),
            ("$.order", "the shuffle orders 4 items")
        );
        assert_eq!(
            parse_action_text("swap:r2c2-r1c1"),
            Err(text_not_legal("swap:r2c2-r1c1"))
        );
    }
}
