//! LEDA's component data (`engine/leda/components.json`) as Rust constants: every record read,
//! every reference between records resolved (effects, zones, squares, clans, tile kinds) and
//! written out for `src/leda/data.rs`, which adds the names the rules use and the derived tables.
//! The op and Panda level vocabularies stay in `data.rs`: the code names them (`op_kind("spy")`,
//! `level_named("gold")`), so a name the engine does not know fails the build there.

use std::collections::HashSet;
use std::fmt::Display;

use serde_json::Value;

use crate::node::{Node, Result};

/// Fields of the file's root object.
const ROOT_FIELDS: [&str; 11] = [
    "about",
    "grid",
    "setup",
    "clans",
    "zones",
    "action_tiles",
    "effects",
    "tile_kinds",
    "tiles",
    "mv_tokens",
    "cards",
];

/// Squares in every zone (`ZONE_SQUARES` is an array of 4-square arrays).
const ZONE_SIZE: usize = 4;

/// Most squares of a grid: the state holds sets of squares as 16-bit masks.
const MAX_SQUARES: i64 = 16;

/// Most records of one kind (far above the real counts; keeps every index small).
const MAX_RECORDS: usize = 128;

/// Rust source under construction: documented constants, in order.
#[derive(Default)]
struct Code(String);

impl Code {
    /// Add `pub const name: ty = value;` with its doc line.
    fn item(&mut self, doc: &str, name: &str, ty: &str, value: impl Display) {
        self.0
            .push_str(&format!("/// {doc}\npub const {name}: {ty} = {value};\n"));
    }
}

/// A Rust array expression of `items` (one item a line when long).
fn array<T: Display>(items: impl IntoIterator<Item = T>) -> String {
    let parts: Vec<String> = items.into_iter().map(|x| x.to_string()).collect();
    let short = parts.iter().map(|p| p.len() + 2).sum::<usize>() <= 80;
    match short {
        true => format!("[{}]", parts.join(", ")),
        false => format!("[\n    {},\n]", parts.join(",\n    ")),
    }
}

/// A Rust string literal.
fn lit(text: &str) -> String {
    format!("{text:?}")
}

/// A Rust `Option` of an already written expression.
fn option(value: Option<String>) -> String {
    value.map_or_else(|| "None".into(), |v| format!("Some({v})"))
}

/// The ids of `items` (each an object with a new, non-empty `id`).
fn ids(items: &[Node<'_>], what: &str) -> Result<Vec<String>> {
    let mut out: Vec<String> = Vec::with_capacity(items.len());
    for item in items {
        let id = item.get("id")?;
        let text = id.str()?;
        if text.is_empty() || out.iter().any(|seen| seen == text) {
            return Err(id.fail(format!("a {what} id must be new and not empty")));
        }
        out.push(text.to_string());
    }
    Ok(out)
}

/// Check that each item's `number` is its place in the id space, counting from `first`.
fn numbered(items: &[Node<'_>], first: usize) -> Result<()> {
    for (i, item) in items.iter().enumerate() {
        let expected = (first + i) as i64;
        item.get("number")?.int(expected, expected)?;
    }
    Ok(())
}

/// An effect reference, or -1 for a blank face (`null`).
fn effect_or_blank(node: &Node<'_>, effects: &[String]) -> Result<i32> {
    if node.is_null() {
        Ok(-1)
    } else {
        Ok(node.choice(effects)? as i32)
    }
}

/// The Rust constants of the whole data file.
pub fn tables(data: &Value) -> Result<String> {
    let root = Node::root(data);
    root.obj(&ROOT_FIELDS)?;
    root.get("about")?.str()?;
    let mut code = Code::default();
    let squares = grid(&root, &mut code)?;
    let effects = effects(&root, &mut code)?;
    clans(&root, squares.len(), &effects, &mut code)?;
    let zones = zones(&root, &squares, &mut code)?;
    items(&root, &zones, &effects, &mut code)?;
    tiles(&root, squares.len(), &effects, &mut code)?;
    Ok(code.0)
}

/// The grid's size, square names and neighbours (geometry, as `engine/leda/data.py` computes
/// it); returns the square names.
fn grid(root: &Node<'_>, code: &mut Code) -> Result<Vec<String>> {
    let grid = root.get("grid")?;
    grid.obj(&["rows", "columns"])?;
    let rows = grid.get("rows")?.int(2, 8)? as usize;
    let columns = grid.get("columns")?.int(2, 8)? as usize;
    if (rows * columns) as i64 > MAX_SQUARES {
        return Err(grid.fail(format!("at most {MAX_SQUARES} squares")));
    }
    let names: Vec<String> = (1..=rows)
        .flat_map(|r| (1..=columns).map(move |c| format!("r{r}c{c}")))
        .collect();
    let neighbours = (0..rows * columns).map(|sq| {
        let (r, c) = (sq / columns, sq % columns);
        let mut out = Vec::new();
        if r > 0 {
            out.push(sq - columns);
        }
        if r + 1 < rows {
            out.push(sq + columns);
        }
        if c > 0 {
            out.push(sq - 1);
        }
        if c + 1 < columns {
            out.push(sq + 1);
        }
        format!("&{}", array(out))
    });
    code.item("Rows of a grid.", "GRID_ROWS", "usize", rows);
    code.item("Columns of a grid.", "GRID_COLUMNS", "usize", columns);
    code.item(
        "Squares of a grid (row-major).",
        "SQUARES",
        "usize",
        rows * columns,
    );
    let quoted = names.iter().map(|n| lit(n));
    code.item(
        "Square names (`r1c1`, `r1c2`, ...), row-major.",
        "SQUARE_NAMES",
        "[&str; SQUARES]",
        array(quoted),
    );
    code.item(
        "The orthogonal neighbours of each square (up, down, left, right when on the grid).",
        "NEIGHBOURS",
        "[&[usize]; SQUARES]",
        array(neighbours),
    );
    Ok(names)
}

/// The effects (their ops with named arguments); returns the effect ids.
fn effects(root: &Node<'_>, code: &mut Code) -> Result<Vec<String>> {
    let items = root.get("effects")?.list(1, MAX_RECORDS)?;
    let ids = ids(&items, "effect")?;
    numbered(&items, 0)?;
    let mut out = Vec::with_capacity(items.len());
    for (item, id) in items.iter().zip(&ids) {
        item.obj(&["id", "number", "text", "details", "ops"])?;
        let text = item.get("text")?.str()?;
        if item.has("details") {
            item.get("details")?.str()?;
        }
        let mut ops = Vec::new();
        for op in item.get("ops")?.list(0, 8)? {
            ops.push(effect_op(&op, &ids)?);
        }
        out.push(format!(
            "Effect {{ id: {}, ops: &{}, text: {} }}",
            lit(id),
            array(ops),
            lit(text)
        ));
    }
    code.item(
        "Effects in the data file.",
        "EFFECT_COUNT",
        "usize",
        ids.len(),
    );
    code.item(
        "Every effect by id (its `number` in the data file).",
        "EFFECTS",
        "[Effect; EFFECT_COUNT]",
        array(out),
    );
    Ok(ids)
}

/// One op: its kind by name and its arguments in the order of the engines' op tuples.
fn effect_op(op: &Node<'_>, effects: &[String]) -> Result<String> {
    let name = op.get("op")?.str()?;
    let arg_names: &[&str] = match name {
        "food" | "military" | "draw" => &["amount"],
        "or" => &["either"],
        "play-discount" => &["amount", "pandas_only"],
        _ => &[],
    };
    let mut fields = vec!["op"];
    fields.extend(arg_names);
    op.obj(&fields)
        .map_err(|e| op.fail(format!("{}; op {name:?} takes {arg_names:?}", e.reason)))?;
    let mut args: Vec<i64> = Vec::new();
    for &arg in arg_names {
        let value = op.get(arg)?;
        match arg {
            "either" => {
                for choice in value.list(2, 2)? {
                    args.push(choice.choice(effects)? as i64);
                }
            }
            "pandas_only" => args.push(i64::from(value.bool()?)),
            _ => args.push(value.int(1, 9)?),
        }
    }
    Ok(format!(
        "Op {{ kind: op_kind({}), args: &{} }}",
        lit(name),
        array(args)
    ))
}

/// The starting amounts and the clans.
fn clans(root: &Node<'_>, squares: usize, effects: &[String], code: &mut Code) -> Result<()> {
    let setup = root.get("setup")?;
    setup.obj(&["starting_hand", "starting_food", "shark_tokens"])?;
    let hand = setup.get("starting_hand")?.int(0, 13)?;
    let food = setup.get("starting_food")?.int(0, 99)?;
    let tokens = setup.get("shark_tokens")?.int(1, squares as i64)?;
    code.item(
        "Cards dealt to each player's starting hand.",
        "STARTING_HAND",
        "usize",
        hand,
    );
    code.item(
        "Food each player starts with.",
        "STARTING_FOOD",
        "u32",
        food,
    );
    code.item(
        "Shark tokens in the Sharks' supply (placing all of them wins).",
        "SHARK_TOKENS",
        "usize",
        tokens,
    );
    let clans = root.get("clans")?.list(1, 8)?;
    let ids = ids(&clans, "clan")?;
    let mut thresholds = Vec::new();
    let mut specials = Vec::new();
    for clan in &clans {
        clan.obj(&["id", "name", "singular", "mv_threshold", "special", "goal"])?;
        for text in ["name", "singular", "goal"] {
            clan.get(text)?.str()?;
        }
        thresholds.push(clan.get("mv_threshold")?.int(1, 99)?);
        specials.push(clan.get("special")?.choice(effects)?);
    }
    code.item("Clans.", "CLAN_COUNT", "usize", ids.len());
    let quoted = ids.iter().map(|n| lit(n));
    code.item(
        "Clan names, by clan index.",
        "CLAN_NAMES",
        "[&str; CLAN_COUNT]",
        array(quoted),
    );
    code.item(
        "MV symbols a clan needs to win, by clan index.",
        "MV_THRESHOLD",
        "[u32; CLAN_COUNT]",
        array(thresholds),
    );
    code.item(
        "The clan special activation (crystal) effect, by clan.",
        "SPECIAL_FX",
        "[i32; CLAN_COUNT]",
        array(specials),
    );
    Ok(())
}

/// The zones; returns their ids.
fn zones(root: &Node<'_>, squares: &[String], code: &mut Code) -> Result<Vec<String>> {
    let zones = root.get("zones")?.list(1, MAX_RECORDS)?;
    let ids = ids(&zones, "zone")?;
    let mut out = Vec::new();
    for zone in &zones {
        zone.obj(&["id", "name", "squares"])?;
        zone.get("name")?.str()?;
        let listed = zone.get("squares")?;
        let mut found = Vec::new();
        for square in listed.list(ZONE_SIZE, ZONE_SIZE)? {
            found.push(square.choice(squares)?);
        }
        if found.iter().collect::<HashSet<_>>().len() != found.len() {
            return Err(listed.fail("a square is listed twice"));
        }
        out.push(array(found));
    }
    code.item("Zones.", "ZONE_COUNT", "usize", ids.len());
    let quoted = ids.iter().map(|n| lit(n));
    code.item(
        "Zone names, by zone index.",
        "ZONE_NAMES",
        "[&str; ZONE_COUNT]",
        array(quoted),
    );
    code.item(
        "The squares of each zone.",
        "ZONE_SQUARES",
        "[[usize; 4]; ZONE_COUNT]",
        array(out),
    );
    Ok(ids)
}

/// The one id space of hidden items: the clan cards, the Action tiles, the MV tokens.
fn items(root: &Node<'_>, zones: &[String], effects: &[String], code: &mut Code) -> Result<()> {
    let cards = root.get("cards")?.list(1, MAX_RECORDS)?;
    let actions = root.get("action_tiles")?.list(1, MAX_RECORDS)?;
    let tokens = root.get("mv_tokens")?.list(1, MAX_RECORDS)?;
    let mut names = ids(&cards, "card")?;
    names.extend(ids(&actions, "Action tile")?);
    names.extend(ids(&tokens, "MV token")?);
    if names.iter().collect::<HashSet<_>>().len() != names.len() {
        return Err(
            root.fail("cards, Action tiles and MV tokens share one id space: ids must differ")
        );
    }
    numbered(&cards, 0)?;
    numbered(&actions, cards.len())?;
    numbered(&tokens, cards.len() + actions.len())?;
    code.item(
        "Clan cards (ids 0.. of the item id space).",
        "CARD_COUNT",
        "usize",
        cards.len(),
    );
    code.item(
        "The id of the first Action tile.",
        "ACTION_TILE_BASE",
        "usize",
        "CARD_COUNT",
    );
    code.item("Action tiles.", "ACTION_TILE_COUNT", "usize", actions.len());
    code.item(
        "The id of the first MV token.",
        "MV_BASE",
        "usize",
        "ACTION_TILE_BASE + ACTION_TILE_COUNT",
    );
    code.item("MV tokens.", "MV_TOKEN_COUNT", "usize", tokens.len());
    code.item(
        "Items in the one id space of hidden things (cards, Action tiles, MV tokens).",
        "ITEM_COUNT",
        "usize",
        "MV_BASE + MV_TOKEN_COUNT",
    );
    let quoted = names.iter().map(|n| lit(n));
    code.item(
        "Item names in the one id space: the cards, then the Action tiles, then the MV tokens.",
        "ITEM_NAMES",
        "[&str; ITEM_COUNT]",
        array(quoted),
    );
    let mut tile_zones = Vec::new();
    for action in &actions {
        action.obj(&["id", "number", "name", "zones"])?;
        action.get("name")?.str()?;
        let mut found = Vec::new();
        for zone in action.get("zones")?.list(1, zones.len())? {
            found.push(zone.choice(zones)?);
        }
        tile_zones.push(format!("&{}", array(found)));
    }
    code.item(
        "The zones each Action tile offers, by tile index (the first Action tile first).",
        "ACTION_TILE_ZONES",
        "[&[usize]; ACTION_TILE_COUNT]",
        array(tile_zones),
    );
    let mut symbols = Vec::new();
    let mut token_fx = Vec::new();
    for token in &tokens {
        token.obj(&["id", "number", "symbols", "effect"])?;
        symbols.push(token.get("symbols")?.int(1, 9)?);
        token_fx.push(token.get("effect")?.choice(effects)?);
    }
    code.item(
        "MV symbols of each token (the first MV token first).",
        "MV_SYMBOLS",
        "[u32; MV_TOKEN_COUNT]",
        array(symbols),
    );
    code.item(
        "The effect of each MV token (the first MV token first).",
        "MV_FX",
        "[i32; MV_TOKEN_COUNT]",
        array(token_fx),
    );
    let clans: Vec<String> = root
        .get("clans")?
        .list(1, 8)?
        .iter()
        .map(|clan| clan.get("id")?.str().map(str::to_string))
        .collect::<Result<_>>()?;
    let mut out = Vec::new();
    for card in &cards {
        out.push(clan_card(card, &clans, effects)?);
    }
    code.item(
        "The clan cards by id, clan by clan.",
        "CARDS",
        "[Card; CARD_COUNT]",
        array(out),
    );
    Ok(())
}

/// One clan card as a `Card` expression.
fn clan_card(card: &Node<'_>, clans: &[String], effects: &[String]) -> Result<String> {
    card.obj(&[
        "id",
        "number",
        "clan",
        "ring",
        "level",
        "role",
        "portal",
        "food_cost",
        "card_cost",
        "cost_text",
        "faces",
        "text",
    ])?;
    let faces = card.get("faces")?.list(2, 2)?;
    let food_cost = match card.has("food_cost") {
        true => card.get("food_cost")?.int(0, 99)?,
        false => -1,
    };
    let card_cost = match card.has("card_cost") {
        true => card.get("card_cost")?.int(0, 9)?,
        false => 0,
    };
    if card.has("cost_text") {
        card.get("cost_text")?.str()?;
    }
    let text_of = |key: &str| -> Result<Option<String>> {
        match card.has(key) {
            true => Ok(Some(lit(card.get(key)?.str()?))),
            false => Ok(None),
        }
    };
    let level = text_of("level")?.map(|name| format!("level_named({name})"));
    let portal = match card.has("portal") {
        true => Some(card.get("portal")?.int(1, 9)?.to_string()),
        false => None,
    };
    Ok(format!(
        "Card {{ name: {}, clan: {}, faces: [{}, {}], food_cost: {food_cost}, card_cost: \
         {card_cost}, text: {}, ring: {}, level: {}, role: {}, portal: {} }}",
        lit(card.get("id")?.str()?),
        card.get("clan")?.choice(clans)?,
        effect_or_blank(&faces[0], effects)?,
        effect_or_blank(&faces[1], effects)?,
        lit(card.get("text")?.str()?),
        option(text_of("ring")?),
        option(level),
        option(text_of("role")?),
        option(portal),
    ))
}

/// The tile kinds (both faces' effects) and the tiles of a grid.
fn tiles(root: &Node<'_>, squares: usize, effects: &[String], code: &mut Code) -> Result<()> {
    let kinds = root.get("tile_kinds")?.list(1, MAX_RECORDS)?;
    let kind_ids = ids(&kinds, "tile kind")?;
    let mut fx = Vec::new();
    let mut permanent = Vec::new();
    for kind in &kinds {
        kind.obj(&["id", "name", "permanent", "front", "back"])?;
        kind.get("name")?.str()?;
        let back = kind.get("back")?;
        let lasting = kind.get("permanent")?.bool()?;
        if lasting == back.is_null() {
            return Err(back.fail("null (the Desert) exactly when the kind is temporary"));
        }
        let front = kind.get("front")?.choice(effects)?;
        fx.push(format!("[{front}, {}]", effect_or_blank(&back, effects)?));
        permanent.push(lasting);
    }
    let tiles = root.get("tiles")?.list(squares, squares)?;
    let tile_ids = ids(&tiles, "tile")?;
    let mut tile_kind = Vec::new();
    for tile in &tiles {
        tile.obj(&["id", "kind"])?;
        tile_kind.push(tile.get("kind")?.choice(&kind_ids)?);
    }
    code.item("Tile kinds.", "TILE_KIND_COUNT", "usize", kind_ids.len());
    let quoted = kind_ids.iter().map(|n| lit(n));
    code.item(
        "Tile kind names.",
        "TILE_KIND_NAMES",
        "[&str; TILE_KIND_COUNT]",
        array(quoted),
    );
    code.item(
        "(front, back) effect of each tile kind; the back of a temporary tile is the Desert (`NONE`).",
        "TILE_KIND_FX",
        "[[i32; 2]; TILE_KIND_COUNT]",
        array(fx),
    );
    code.item(
        "Whether each tile kind is permanent (else temporary: its back is a Desert).",
        "TILE_KIND_PERMANENT",
        "[bool; TILE_KIND_COUNT]",
        array(permanent),
    );
    code.item(
        "The kind of each of the tiles of a grid (tile ids 0.., one tile per square).",
        "TILE_KIND",
        "[usize; SQUARES]",
        array(tile_kind),
    );
    let quoted = tile_ids.iter().map(|n| lit(n));
    code.item(
        "Tile names, by tile id.",
        "TILE_NAMES",
        "[&str; SQUARES]",
        array(quoted),
    );
    Ok(())
}
