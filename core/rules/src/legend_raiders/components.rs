//! The component data (`engine/legend_raiders/components.json`, the one data file shared with
//! the Python engine): loaded and validated into lookup tables.
//!
//! The file is a reconstructed component set; every number the rules use comes from it, so
//! replacing it (and rebuilding) is enough to play with another set. Errors name the JSON path
//! in the data file, e.g. `$.tiles[3].cost[1]`.

use std::sync::OnceLock;

use serde_json::Value;

use crate::jsonread::{JsonError, Reader};

/// The data file, embedded at build time from the Python engine's package.
pub const DATA: &str = include_str!("../../../../engine/legend_raiders/components.json");

/// Most tool types the native engine supports (tool counts are fixed arrays of this size).
pub const MAX_TOOL_TYPES: usize = 8;
/// Most tile symbols the native engine supports.
pub const MAX_SYMBOLS: usize = 8;
/// Most tiles and most Expedition cards (sets of them are 64-bit masks).
pub const MAX_ITEMS: usize = 60;
/// Most Headquarters columns and most face-up cards (the data file's own bound).
pub const MAX_SLOTS: usize = 8;
/// Most completed tiles a player can hold (the end trigger plus a last turn's completions).
pub const MAX_COMPLETED: usize = 32;
/// The longest id of a tool, tile or card (and of a character's name): a bound of the state.
pub const ID_CHARS_MAX: usize = 40;
/// Number of character boards.
pub const BOARDS: usize = 4;

/// Counts per tool type (indices beyond the data's tool types stay 0).
pub type Tools = [u8; MAX_TOOL_TYPES];
/// Counts per tile symbol.
pub type SymbolCounts = [u8; MAX_SYMBOLS];

/// The three die effects the rules know, in face-index order.
pub const FACE_KINDS: [&str; 3] = ["tool", "torch", "coin"];
/// Die face / diceless effect index: draw tools.
pub const FACE_TOOL: u8 = 0;
/// Die face / diceless effect index: the torch.
pub const FACE_TORCH: u8 = 1;
/// Die face / diceless effect index: the coin bonus.
pub const FACE_COIN: u8 = 2;

/// The kind of an Expedition card.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CardKind {
    /// A Die card.
    Die,
    /// A Discovery card (one symbol for Missions).
    Discovery,
    /// A Mission card (required symbols, points).
    Mission,
}

const CARD_KINDS: [&str; 3] = ["die", "discovery", "mission"];

/// Every component number of the game, as read from the data file.
#[derive(Clone, Debug)]
pub struct Components {
    /// The note that the set is reconstructed.
    pub about: String,
    /// Tool ids (`compass`, ...), in data order.
    pub tool_ids: Vec<String>,
    /// Tool display names.
    pub tool_names: Vec<String>,
    /// Tokens per tool type.
    pub tool_counts: Tools,
    /// Number of tool types.
    pub n_tools: usize,
    /// Per board: its character names (either side).
    pub board_names: Vec<Vec<String>>,
    /// Per board: the favourite tool type.
    pub board_favourite: Vec<usize>,
    /// Discovery spaces on a board (= most prepared tiles).
    pub discovery_spaces: usize,
    /// Coins shown by each empty discovery space.
    pub coins_per_empty_space: i32,
    /// Coins per completed space, in filling order.
    pub completed_space_coins: Vec<i32>,
    /// Backpack size (most tools held).
    pub backpack_size: usize,
    /// Tile symbols (`book`, ...).
    pub symbols: Vec<String>,
    /// Tile ids.
    pub tile_ids: Vec<String>,
    /// Tile display names.
    pub tile_names: Vec<String>,
    /// Per tile: its symbol.
    pub tile_symbol: Vec<usize>,
    /// Per tile: its cost in tools.
    pub tile_cost: Vec<Tools>,
    /// Per tile: coins on its back.
    pub tile_coins: Vec<i32>,
    /// Expedition card ids.
    pub card_ids: Vec<String>,
    /// Per card: its kind.
    pub card_kind: Vec<CardKind>,
    /// Per card: the symbol of a Discovery card.
    pub card_symbol: Vec<Option<usize>>,
    /// Per card: the symbols a Mission requires (zeros for other cards).
    pub mission_requires: Vec<SymbolCounts>,
    /// Per card: a Mission's points (0 for other cards).
    pub mission_points: Vec<i32>,
    /// The die's faces, as face-kind indices.
    pub die_faces: Vec<u8>,
    /// Headquarters columns.
    pub hq_columns: usize,
    /// Tools under each column.
    pub tools_per_column: usize,
    /// Face-up Expedition cards.
    pub face_up_cards: usize,
    /// Most prepared tiles.
    pub max_prepared: usize,
    /// Most completions in one turn.
    pub completions_per_turn: usize,
    /// Completed tiles that trigger the end.
    pub end_trigger: usize,
    /// End points per kept Die card.
    pub die_card_points: i32,
    /// Tools drawn by a diceless Die card.
    pub diceless_tools: usize,
    /// Tokens in the game.
    pub total_tools: usize,
    /// Coins still visible on the completed spaces when `k` of them are covered (index k).
    pub completed_coins_from: Vec<i32>,
    /// Per tile: the tool types its cost names, ascending.
    pub tile_cost_types: Vec<Vec<usize>>,
    /// Per tile: how many tools its cost has.
    pub tile_cost_total: Vec<u32>,
    /// The Die cards as a card mask.
    pub die_card_mask: u64,
    /// Mission cards as a card mask.
    pub mission_mask: u64,
    /// Discovery cards as a card mask.
    pub discovery_mask: u64,
    /// Number of Die cards.
    pub n_die_cards: usize,
}

impl Components {
    /// Number of tiles.
    pub fn n_tiles(&self) -> usize {
        self.tile_ids.len()
    }

    /// Number of Expedition cards.
    pub fn n_cards(&self) -> usize {
        self.card_ids.len()
    }

    /// Tile index by id.
    pub fn tile_index(&self, id: &str) -> Option<usize> {
        self.tile_ids.iter().position(|t| t == id)
    }

    /// Tool index by id.
    pub fn tool_index(&self, id: &str) -> Option<usize> {
        self.tool_ids.iter().position(|t| t == id)
    }

    /// Card index by id.
    pub fn card_index(&self, id: &str) -> Option<usize> {
        self.card_ids.iter().position(|c| c == id)
    }

    /// A board's characters as the JSON shows them (`Montana John / Lin Diana Jones`).
    pub fn character(&self, board: usize) -> String {
        self.board_names[board].join(" / ")
    }
}

/// A malformed or inconsistent component data file.
pub type ComponentDataError = JsonError;

fn ids(items: &[Reader<'_>], what: &str) -> Result<Vec<String>, JsonError> {
    let mut out: Vec<String> = Vec::with_capacity(items.len());
    for item in items {
        let id_r = item.get("id")?;
        let id = id_r.as_str(None)?;
        if !(1..=ID_CHARS_MAX).contains(&id.chars().count()) {
            return Err(id_r.fail(format!("an id has 1 to {ID_CHARS_MAX} characters")));
        }
        if out.iter().any(|x| x == id) {
            return Err(id_r.fail(format!(
                "duplicate {what} id {}",
                crate::pyrepr::str_repr(id)
            )));
        }
        out.push(id.to_string());
    }
    Ok(out)
}

fn index_in(r: &Reader<'_>, names: &[String]) -> Result<usize, JsonError> {
    let choices: Vec<&str> = names.iter().map(String::as_str).collect();
    r.as_choice(&choices)
}

fn small(r: &Reader<'_>, lo: i64, hi: i64) -> Result<usize, JsonError> {
    Ok(usize::try_from(r.as_int(Some(lo), Some(hi))?).unwrap_or_default())
}

/// Validate decoded component data and build the tables the engine uses.
pub fn parse_components(data: &Value) -> Result<Components, ComponentDataError> {
    let root = Reader::new(data, "$");
    root.obj(Some(&[
        "about",
        "tools",
        "characters",
        "board",
        "symbols",
        "tiles",
        "expedition_cards",
        "die",
        "limits",
    ]))?;
    let about = root.get("about")?.as_str(None)?.to_string();

    let tools = root.get("tools")?.as_list(1, Some(MAX_TOOL_TYPES))?;
    let tool_ids = ids(&tools, "tool")?;
    let mut tool_names = Vec::new();
    let mut tool_counts: Tools = [0; MAX_TOOL_TYPES];
    for tool in &tools {
        tool_names.push(tool.get("name")?.as_str(None)?.to_string());
    }
    for (t, tool) in tools.iter().enumerate() {
        tool_counts[t] = small(&tool.get("count")?, 1, 36)? as u8;
    }
    let total: usize = tool_counts.iter().map(|&n| usize::from(n)).sum();
    if total != 36 {
        return Err(root
            .get("tools")?
            .fail(format!("tool counts add up to {total}, expected 36")));
    }

    let chars = root.get("characters")?.as_list(BOARDS, Some(BOARDS))?;
    let mut board_names = Vec::new();
    let mut board_favourite = Vec::new();
    let mut boards = Vec::new();
    for c in &chars {
        boards.push(small(&c.get("board")?, 1, BOARDS as i64)?);
    }
    for (i, (c, &board)) in chars.iter().zip(&boards).enumerate() {
        if board != i + 1 {
            return Err(c
                .get("board")?
                .fail(format!("boards must be listed in order 1..4, got {board}")));
        }
    }
    for c in &chars {
        let mut list = Vec::new();
        for n in c.get("names")?.as_list(1, Some(2))? {
            let name = n.as_str(None)?;
            if !(1..=ID_CHARS_MAX).contains(&name.chars().count()) {
                return Err(n.fail(format!("a name has 1 to {ID_CHARS_MAX} characters")));
            }
            list.push(name.to_string());
        }
        board_names.push(list);
    }
    for c in &chars {
        board_favourite.push(index_in(&c.get("favourite")?, &tool_ids)?);
    }

    let board = root.get("board")?;
    board.obj(Some(&[
        "discovery_spaces",
        "coins_per_empty_discovery_space",
        "completed_space_coins",
        "backpack_size",
    ]))?;
    let discovery_spaces = small(&board.get("discovery_spaces")?, 1, 6)?;
    let coins_per_empty_space = small(&board.get("coins_per_empty_discovery_space")?, 0, 5)? as i32;
    let mut completed_space_coins = Vec::new();
    for c in board.get("completed_space_coins")?.as_list(1, None)? {
        completed_space_coins.push(small(&c, 0, 5)? as i32);
    }
    let backpack_size = small(&board.get("backpack_size")?, 1, 20)?;

    let symbols_r = root.get("symbols")?;
    let mut symbols: Vec<String> = Vec::new();
    for s in symbols_r.as_list(1, Some(MAX_SYMBOLS))? {
        symbols.push(s.as_str(None)?.to_string());
    }
    for (i, s) in symbols.iter().enumerate() {
        if symbols[..i].contains(s) {
            return Err(symbols_r.fail("duplicate symbol"));
        }
    }

    let tiles = root.get("tiles")?.as_list(1, Some(MAX_ITEMS))?;
    let tile_ids = ids(&tiles, "tile")?;
    if tile_ids.iter().any(|t| tool_ids.contains(t)) {
        return Err(root
            .get("tiles")?
            .fail("tile ids must differ from tool ids"));
    }
    let mut tile_symbol = Vec::new();
    let mut tile_cost = Vec::new();
    for t in &tiles {
        t.obj(Some(&["id", "name", "symbol", "cost", "coins"]))?;
        tile_symbol.push(index_in(&t.get("symbol")?, &symbols)?);
        let mut counts: Tools = [0; MAX_TOOL_TYPES];
        for c in t.get("cost")?.as_list(1, Some(backpack_size))? {
            counts[index_in(&c, &tool_ids)?] += 1;
        }
        tile_cost.push(counts);
    }
    let mut tile_names = Vec::new();
    let mut tile_coins = Vec::new();
    for t in &tiles {
        tile_names.push(t.get("name")?.as_str(None)?.to_string());
    }
    for t in &tiles {
        tile_coins.push(small(&t.get("coins")?, 0, 5)? as i32);
    }

    let cards = root.get("expedition_cards")?.as_list(1, Some(MAX_ITEMS))?;
    let card_ids = ids(&cards, "card")?;
    if card_ids
        .iter()
        .any(|c| tile_ids.contains(c) || tool_ids.contains(c))
    {
        return Err(root
            .get("expedition_cards")?
            .fail("card ids must differ from tile and tool ids"));
    }
    let mut card_kind = Vec::new();
    let mut card_symbol = Vec::new();
    let mut mission_requires = Vec::new();
    let mut mission_points = Vec::new();
    for c in &cards {
        let kind = c.get("kind")?.as_choice(&CARD_KINDS)?;
        let mut symbol = None;
        let mut requires: SymbolCounts = [0; MAX_SYMBOLS];
        let mut points = 0;
        match kind {
            0 => {
                c.obj(Some(&["id", "kind"]))?;
                card_kind.push(CardKind::Die);
            }
            1 => {
                c.obj(Some(&["id", "kind", "symbol"]))?;
                symbol = Some(index_in(&c.get("symbol")?, &symbols)?);
                card_kind.push(CardKind::Discovery);
            }
            _ => {
                c.obj(Some(&["id", "kind", "requires", "points"]))?;
                for s in c.get("requires")?.as_list(1, Some(255))? {
                    requires[index_in(&s, &symbols)?] += 1;
                }
                points = small(&c.get("points")?, 0, 100)? as i32;
                card_kind.push(CardKind::Mission);
            }
        }
        card_symbol.push(symbol);
        mission_requires.push(requires);
        mission_points.push(points);
    }

    let die = root.get("die")?;
    die.obj(Some(&["faces"]))?;
    let mut die_faces = Vec::new();
    for f in die.get("faces")?.as_list(1, None)? {
        die_faces.push(f.as_choice(&FACE_KINDS)? as u8);
    }

    let limits = root.get("limits")?;
    limits.obj(Some(&[
        "hq_columns",
        "tools_per_column",
        "face_up_cards",
        "max_prepared",
        "completions_per_turn",
        "end_trigger_completions",
        "die_card_points",
        "diceless_die_card_tools",
    ]))?;
    let hq_columns = small(&limits.get("hq_columns")?, 1, MAX_SLOTS as i64)?;
    let tools_per_column = small(&limits.get("tools_per_column")?, 0, 6)?;
    let face_up_cards = small(&limits.get("face_up_cards")?, 1, MAX_SLOTS as i64)?;
    let max_prepared = small(&limits.get("max_prepared")?, 1, 6)?;
    let completions_per_turn = small(&limits.get("completions_per_turn")?, 1, 8)?;
    let end_trigger = small(&limits.get("end_trigger_completions")?, 1, 20)?;
    let die_card_points = small(&limits.get("die_card_points")?, 0, 10)? as i32;
    let diceless_tools = small(&limits.get("diceless_die_card_tools")?, 0, 6)?;

    if max_prepared != discovery_spaces {
        return Err(limits
            .get("max_prepared")?
            .fail("must equal board.discovery_spaces"));
    }
    if tile_ids.len() < hq_columns || card_ids.len() < face_up_cards {
        return Err(root.fail("not enough tiles or cards to set up the HQ and the face-up row"));
    }
    if hq_columns * tools_per_column > total {
        return Err(limits
            .get("tools_per_column")?
            .fail("more HQ tools than tools in the game"));
    }

    let n_tiles = tile_ids.len();
    let completed_coins_from = (0..=n_tiles)
        .map(|k| completed_space_coins.iter().skip(k).sum())
        .collect();
    let tile_cost_types = tile_cost
        .iter()
        .map(|cost| (0..tool_ids.len()).filter(|&t| cost[t] > 0).collect())
        .collect();
    let tile_cost_total = tile_cost
        .iter()
        .map(|cost| cost.iter().map(|&n| u32::from(n)).sum())
        .collect();
    let mask_of = |kind: CardKind| -> u64 {
        card_kind
            .iter()
            .enumerate()
            .filter(|(_, k)| **k == kind)
            .map(|(j, _)| 1u64 << j)
            .sum()
    };
    let die_card_mask = mask_of(CardKind::Die);
    let mission_mask = mask_of(CardKind::Mission);
    let discovery_mask = mask_of(CardKind::Discovery);
    Ok(Components {
        about,
        n_tools: tool_ids.len(),
        tool_ids,
        tool_names,
        tool_counts,
        board_names,
        board_favourite,
        discovery_spaces,
        coins_per_empty_space,
        completed_space_coins,
        backpack_size,
        symbols,
        tile_ids,
        tile_names,
        tile_symbol,
        tile_cost,
        tile_coins,
        card_ids,
        card_kind,
        card_symbol,
        mission_requires,
        mission_points,
        die_faces,
        hq_columns,
        tools_per_column,
        face_up_cards,
        max_prepared,
        completions_per_turn,
        end_trigger,
        die_card_points,
        diceless_tools,
        total_tools: total,
        completed_coins_from,
        tile_cost_types,
        tile_cost_total,
        die_card_mask,
        mission_mask,
        discovery_mask,
        n_die_cards: die_card_mask.count_ones() as usize,
    })
}

/// Parse and validate a component data file's text.
pub fn load_components(text: &str) -> Result<Components, ComponentDataError> {
    let data: Value = serde_json::from_str(text).map_err(|e| JsonError {
        path: "$".into(),
        reason: format!("not JSON: {e}"),
    })?;
    parse_components(&data)
}

static COMPONENTS: OnceLock<Components> = OnceLock::new();

/// The component set the engine plays with (the embedded data file, validated once).
///
/// The file is part of the build, not input: a broken file fails the crate's own tests
/// (`the_data_file_loads`), so reaching the panic here means a broken build.
#[allow(clippy::expect_used)]
pub fn components() -> &'static Components {
    COMPONENTS.get_or_init(|| {
        load_components(DATA).expect("engine/legend_raiders/components.json is invalid")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_data_file_loads() {
        let c = load_components(DATA).unwrap();
        assert_eq!(c.n_tools, 4);
        assert_eq!(c.n_tiles(), 28);
        assert_eq!(c.n_cards(), 28);
        assert_eq!(c.total_tools, 36);
        assert_eq!(c.board_favourite, vec![3, 1, 2, 0]);
        assert_eq!(c.completed_coins_from[..8], [1, 1, 1, 1, 1, 1, 0, 0]);
        assert_eq!(c.n_die_cards, 4);
        assert_eq!(
            c.tile_cost[c.tile_index("olympus").unwrap()][..4],
            [0, 0, 2, 1]
        );
    }

    #[test]
    fn errors_name_the_path_in_the_data_file() {
        let mut data: Value = serde_json::from_str(DATA).unwrap();
        data["tiles"][3]["cost"][1] = Value::String("hammer".into());
        let err = parse_components(&data).unwrap_err();
        assert_eq!(err.path, "$.tiles[3].cost[1]");
        let mut data: Value = serde_json::from_str(DATA).unwrap();
        data["tools"][0]["count"] = Value::from(8);
        let err = parse_components(&data).unwrap_err();
        assert_eq!(
            (err.path.as_str(), err.reason.as_str()),
            ("$.tools", "tool counts add up to 35, expected 36")
        );
    }
}
