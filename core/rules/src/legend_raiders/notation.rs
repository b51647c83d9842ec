//! Readable move notation: JSON objects and short strings for every action (the Python
//! engine's `notation.py`; the table is in docs/legend_raiders/moves.md).
//!
//! Columns and face-up slots are numbered from 1, as on the Headquarters board: `prepare:3`,
//! `expedition:row2` / `expedition:deck` / `expedition:none`, `discard:olympus` /
//! `discard:shovel`, `complete:olympus`, `complete:mjollnir+torch=rope`, `stop`, `keep-roll`,
//! `die-card:coin` (diceless: `die-card:tools`, `die-card:torch`, `die-card:coin`), and the
//! chance outcomes `roll:coin`, `draw:map`, `reveal:olympus`, `reveal:die-1`.

use serde_json::{json, Map, Value};

use super::actions::{layout, Action, ActionKind, EFFECT_NAMES};
use super::chance::chance_outcomes;
use super::components::{components, FACE_KINDS};
use super::rules::legal_actions;
use super::state::{Phase, RaidersState};
use crate::error::ActionError;
use crate::jsonread::Reader;
use crate::pyrepr::echo_str;

/// The JSON object of an action.
pub fn action_json(action: Action, dice: bool) -> Value {
    let c = components();
    let a = layout();
    let arg = a.arg(action);
    match a.kind(action) {
        ActionKind::Prepare => json!({"type": "prepare", "column": arg + 1}),
        ActionKind::TakeRow => json!({"type": "expedition", "card": format!("row{}", arg + 1)}),
        ActionKind::TakeDeck => json!({"type": "expedition", "card": "deck"}),
        ActionKind::NoCard => json!({"type": "expedition", "card": "none"}),
        ActionKind::DiscardTile => json!({"type": "discard", "tile": c.tile_ids[arg]}),
        ActionKind::DiscardTool => json!({"type": "discard", "tool": c.tool_ids[arg]}),
        ActionKind::Complete => {
            let option = a.arg2(action);
            if option > 0 {
                json!({"type": "complete", "tile": c.tile_ids[arg], "torch": c.tool_ids[option - 1]})
            } else {
                json!({"type": "complete", "tile": c.tile_ids[arg]})
            }
        }
        ActionKind::Stop => json!({"type": "stop"}),
        ActionKind::KeepRoll => json!({"type": "keep-roll"}),
        ActionKind::DieCard => {
            if dice {
                json!({"type": "die-card", "face": FACE_KINDS[arg]})
            } else {
                json!({"type": "die-card", "effect": EFFECT_NAMES[arg]})
            }
        }
        ActionKind::RollFace => json!({"type": "roll", "face": FACE_KINDS[arg]}),
        ActionKind::DrawTool => json!({"type": "draw", "tool": c.tool_ids[arg]}),
        ActionKind::RevealTile => json!({"type": "reveal", "tile": c.tile_ids[arg]}),
        ActionKind::RevealCard => json!({"type": "reveal", "card": c.card_ids[arg]}),
    }
}

/// The short text of an action.
pub fn action_text(action: Action, dice: bool) -> String {
    let data = action_json(action, dice);
    let Value::Object(map) = data else {
        return String::new();
    };
    let kind = map.get("type").and_then(Value::as_str).unwrap_or_default();
    let field = |key: &str| match map.get(key) {
        Some(Value::String(s)) => s.clone(),
        Some(other) => other.to_string(),
        None => String::new(),
    };
    if kind == "complete" && map.contains_key("torch") {
        return format!("complete:{}+torch={}", field("tile"), field("torch"));
    }
    match map.iter().find(|(k, _)| k.as_str() != "type") {
        None => kind.to_string(),
        Some((key, _)) => format!("{kind}:{}", field(key)),
    }
}

const KINDS: [&str; 10] = [
    "prepare",
    "expedition",
    "discard",
    "complete",
    "stop",
    "keep-roll",
    "die-card",
    "roll",
    "draw",
    "reveal",
];

fn ids(names: &[String]) -> Vec<&str> {
    names.iter().map(String::as_str).collect()
}

/// The action described by a JSON object (not yet checked for legality).
pub fn parse_action_json(data: &Value, dice: bool) -> Result<Action, ActionError> {
    let c = components();
    let a = layout();
    let r = Reader::document(data, "$")?;
    r.obj(None)?;
    let kind = r.get("type")?.as_str(Some(&KINDS))?;
    let tiles = ids(&c.tile_ids);
    let tools = ids(&c.tool_ids);
    match kind {
        "prepare" => {
            r.obj(Some(&["type", "column"]))?;
            let col = r.get("column")?.as_count(1, a.n_columns)?;
            Ok(a.prepare_base + (col - 1) as Action)
        }
        "expedition" => {
            r.obj(Some(&["type", "card"]))?;
            let rows: Vec<String> = (1..=a.n_row).map(|k| format!("row{k}")).collect();
            let mut choices: Vec<&str> = rows.iter().map(String::as_str).collect();
            choices.extend(["deck", "none"]);
            let card = r.get("card")?.as_choice(&choices)?;
            Ok(if card == a.n_row {
                a.take_deck
            } else if card == a.n_row + 1 {
                a.no_card
            } else {
                a.row_base + card as Action
            })
        }
        "discard" => {
            r.obj(Some(&["type", "tile", "tool"]))?;
            if r.has("tile") == r.has("tool") {
                return Err(r
                    .fail("a discard names exactly one of 'tile' or 'tool'")
                    .into());
            }
            if r.has("tile") {
                let i = r.get("tile")?.as_choice(&tiles)?;
                return Ok(a.discard_tile_base + i as Action);
            }
            let t = r.get("tool")?.as_choice(&tools)?;
            Ok(a.discard_tool_base + t as Action)
        }
        "complete" => {
            r.obj(Some(&["type", "tile", "torch"]))?;
            let tile = r.get("tile")?.as_choice(&tiles)?;
            let mut option = 0;
            if let Some(torch) = r.opt("torch")? {
                option = 1 + torch.as_choice(&tools)?;
            }
            Ok(a.complete(tile, option))
        }
        "stop" | "keep-roll" => {
            r.obj(Some(&["type"]))?;
            Ok(if kind == "stop" { a.stop } else { a.keep_roll })
        }
        "die-card" => {
            if dice {
                r.obj(Some(&["type", "face"]))?;
                let f = r.get("face")?.as_choice(&FACE_KINDS)?;
                Ok(a.die_base + f as Action)
            } else {
                r.obj(Some(&["type", "effect"]))?;
                let f = r.get("effect")?.as_choice(&EFFECT_NAMES)?;
                Ok(a.die_base + f as Action)
            }
        }
        "roll" => {
            r.obj(Some(&["type", "face"]))?;
            let f = r.get("face")?.as_choice(&FACE_KINDS)?;
            Ok(a.roll_base + f as Action)
        }
        "draw" => {
            r.obj(Some(&["type", "tool"]))?;
            let t = r.get("tool")?.as_choice(&tools)?;
            Ok(a.tool_base + t as Action)
        }
        _ => {
            r.obj(Some(&["type", "tile", "card"]))?;
            if r.has("tile") == r.has("card") {
                return Err(r
                    .fail("a reveal names exactly one of 'tile' or 'card'")
                    .into());
            }
            if r.has("tile") {
                let i = r.get("tile")?.as_choice(&tiles)?;
                return Ok(a.tile_base + i as Action);
            }
            let j = r.get("card")?.as_choice(&ids(&c.card_ids))?;
            Ok(a.card_base + j as Action)
        }
    }
}

/// Python's `str.strip()`: Unicode whitespace and the information separators.
fn py_strip(text: &str) -> &str {
    text.trim_matches(|ch: char| ch.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&ch))
}

/// The action described by a short text (not yet checked for legality).
pub fn parse_action_text(text: &str, dice: bool) -> Result<Action, ActionError> {
    let c = components();
    let stripped = py_strip(text);
    let (kind, sep, value) = match stripped.split_once(':') {
        Some((k, v)) => (k, true, v),
        None => (stripped, false, ""),
    };
    let mut data = Map::new();
    data.insert("type".into(), Value::String(kind.into()));
    if kind == "complete" && value.contains("+torch=") {
        let (tile, torch) = value.split_once("+torch=").unwrap_or((value, ""));
        data.insert("tile".into(), Value::String(tile.into()));
        data.insert("torch".into(), Value::String(torch.into()));
    } else if sep {
        let mut key = match kind {
            "prepare" => Some("column"),
            "expedition" => Some("card"),
            "die-card" => Some(if dice { "face" } else { "effect" }),
            "roll" => Some("face"),
            "draw" => Some("tool"),
            "complete" => Some("tile"),
            _ => None,
        };
        if kind == "discard" || kind == "reveal" {
            let is_tile = c.tile_ids.iter().any(|t| t == value);
            let is_tool = c.tool_ids.iter().any(|t| t == value);
            key = Some(if is_tile {
                "tile"
            } else if is_tool {
                "tool"
            } else {
                "card"
            });
            if kind == "discard" && key == Some("card") {
                return Err(ActionError::invalid(
                    "$",
                    format!("unknown tile or tool {}", echo_str(value)),
                ));
            }
        }
        let Some(key) = key else {
            return Err(ActionError::invalid(
                "$",
                format!("unknown move {}", echo_str(text)),
            ));
        };
        if key == "column" {
            let digits = !value.is_empty() && value.chars().all(|ch| ch.is_ascii_digit());
            if !(digits && value.len() <= 2) {
                return Err(ActionError::invalid(
                    "$.column",
                    format!("expected a column number, got {}", echo_str(value)),
                ));
            }
            let number: u64 = value.parse().unwrap_or_default();
            data.insert(key.into(), Value::from(number));
        } else {
            data.insert(key.into(), Value::String(value.into()));
        }
    }
    parse_action_json(&Value::Object(data), dice)
}

/// `action` if it is legal in `s` (a decision of the player to move or a chance outcome).
pub fn check_legal(s: &RaidersState, action: Action) -> Result<Action, ActionError> {
    if s.phase == Phase::Over {
        return Err(ActionError::illegal("the game is over"));
    }
    if s.phase.is_chance() {
        if !chance_outcomes(s).iter().any(|(o, _)| *o == action) {
            return Err(ActionError::illegal(format!(
                "{} is not a possible outcome of this chance step",
                action_text(action, s.dice)
            )));
        }
        return Ok(action);
    }
    let mut legal = Vec::new();
    legal_actions(s, &mut legal);
    if !legal.contains(&action) {
        return Err(ActionError::illegal(format!(
            "{} is not legal now",
            action_text(action, s.dice)
        )));
    }
    Ok(action)
}
