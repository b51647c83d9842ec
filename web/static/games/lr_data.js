// Legend Raiders' components for the board: lookups by id over the component data the gateway
// serves (GET /api/games/legend_raiders/components, engine/legend_raiders/components.json: the
// file both engines read). Pure ES2020 module; every name and number shown comes from that file.

import { plural, titleize } from "./dom.js";

/** The lookups the Legend Raiders board draws with, built from a component data document. */
export function lrData(data) {
  const tools = new Map(data.tools.map((t) => [t.id, t]));
  const tiles = new Map(data.tiles.map((t) => [t.id, t]));
  const cards = new Map(data.expedition_cards.map((c) => [c.id, c]));
  const limits = data.limits;
  const board = data.board;
  const symbolName = (symbol) => titleize(symbol);
  // "Die card 2", "Book 1": a card's number among the cards of its kind (and symbol).
  const numbers = new Map();
  const seen = new Map();
  for (const card of data.expedition_cards) {
    const group = `${card.kind}:${card.symbol || ""}`;
    seen.set(group, (seen.get(group) || 0) + 1);
    numbers.set(card.id, seen.get(group));
  }

  const R = {
    /** Tool ids, in the data's order. */
    toolIds: data.tools.map((t) => t.id),
    /** Symbol ids, in the data's order. */
    symbols: data.symbols.slice(),
    /** Most prepared tiles (the discovery spaces). */
    maxPrepared: limits.max_prepared,
    /** Spaces for completed tiles on a player's board. */
    completedSpaces: board.completed_space_coins.length,
    /** Tools a backpack holds at most. */
    backpack: board.backpack_size,
    /** Headquarters columns. */
    hqColumns: limits.hq_columns,
    /** Face-up Expedition cards. */
    faceUpCards: limits.face_up_cards,
    /** Completions allowed in one turn. */
    completionsPerTurn: limits.completions_per_turn,
    /** Coins an empty discovery space shows. */
    coinsPerEmptySpace: board.coins_per_empty_discovery_space,
    /** Tools a diceless Die card draws. */
    dicelessTools: limits.diceless_die_card_tools,
    /** The die's faces, as face kinds. */
    dieFaces: data.die.faces.slice(),

    isTool(id) {
      return tools.has(id);
    },

    toolName(id) {
      const t = tools.get(id);
      return t ? t.name : titleize(id);
    },

    /** One letter for a tool chip: its name's first. */
    toolShort(id) {
      const t = tools.get(id);
      return t ? t.name.charAt(0) : "?";
    },

    symbolName,

    /** Coins the completed spaces still show when `covered` of them are covered. */
    completedCoinsFrom(covered) {
      return board.completed_space_coins.slice(covered).reduce((a, b) => a + b, 0);
    },

    /** Coins the completed space `k` (from 0) shows while uncovered. */
    completedSpaceCoins(k) {
      return board.completed_space_coins[k] || 0;
    },

    /** {name, symbol, cost: [tool ids], coins} of a tile (unknown ids: name from the id). */
    tileInfo(tile) {
      const t = tiles.get(tile);
      if (!t) return { name: titleize(tile), symbol: null, cost: [], coins: 0 };
      return { name: t.name, symbol: t.symbol, cost: t.cost.slice(), coins: t.coins };
    },

    /** {kind: "die"|"discovery"|"mission"|null, symbol, requires, points, name, title} of a card. */
    cardInfo(card) {
      const c = cards.get(card);
      const n = numbers.get(card);
      if (c && c.kind === "die") {
        const pts = plural(limits.die_card_points, "point");
        return {
          kind: "die", symbol: null, requires: [], points: limits.die_card_points, name: `Die card ${n}`,
          title: `Die card ${n}: set the die to any face (diceless: ${plural(limits.diceless_die_card_tools, "tool")}, relight the torch or +1 per discovery); ${pts} if kept`,
        };
      }
      if (c && c.kind === "discovery") {
        const sym = symbolName(c.symbol);
        return {
          kind: "discovery", symbol: c.symbol, requires: [], points: 0, name: `Discovery: ${sym}`,
          title: `Discovery card (${sym} ${n}): counts as one ${sym} for Missions`,
        };
      }
      if (c && c.kind === "mission") {
        const need = c.requires.map(symbolName).join(" + ");
        return {
          kind: "mission", symbol: null, requires: c.requires.slice(), points: c.points,
          name: `Mission: ${need}`, title: `Mission: ${need} → ${c.points} points at the end`,
        };
      }
      return { kind: null, symbol: null, requires: [], points: 0, name: titleize(card), title: titleize(card) };
    },

    /** {names: "A / B", favourite: tool id} of a character board (1..), or null. */
    character(boardNumber) {
      const c = data.characters.find((x) => x.board === boardNumber);
      return c ? { names: c.names.join(" / "), favourite: c.favourite } : null;
    },
  };
  return R;
}
