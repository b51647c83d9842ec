// LEDA's components for the board: lookups by id over the component data the gateway serves
// (GET /api/games/leda/components, engine/leda/components.json: the file both engines read).
// Pure ES2020 module; every name and number shown comes from that file, none is kept here.

import { plural, titleize } from "./dom.js";

/** Records of a list keyed by their `key` field (`id` unless said). */
function index(records, key = "id") {
  return new Map((Array.isArray(records) ? records : []).map((r) => [r[key], r]));
}

/** The square names of a grid, row-major: the state's square numbers index them. */
function squareNames(grid) {
  const out = [];
  for (let r = 1; r <= grid.rows; r += 1) for (let c = 1; c <= grid.columns; c += 1) out.push(`r${r}c${c}`);
  return out;
}

/** A card's label: its Ring, Portal or Panda level (and Gold role), or null. */
function cardLabel(card) {
  if (card.ring) return `${titleize(card.ring)} Ring`;
  if (card.portal) return `Portal P${card.portal}`;
  if (card.level && card.level !== "none") return [card.level, card.role].filter(Boolean).map(titleize).join(" ");
  return null;
}

/** The lookups the LEDA board draws with, built from a component data document. */
export function ledaData(data) {
  const clans = index(data.clans);
  const effects = index(data.effects, "number");
  const effectById = index(data.effects);
  const cards = index(data.cards);
  const zones = index(data.zones);
  const actions = index(data.action_tiles);
  const kinds = index(data.tile_kinds);
  const tokens = index(data.mv_tokens);
  const items = index([...data.cards, ...data.action_tiles, ...data.mv_tokens], "number");
  const squares = squareNames(data.grid);
  const { rows, columns } = data.grid;
  const tileNames = new Map();
  for (const kind of kinds.keys()) {
    const same = data.tiles.filter((t) => t.kind === kind);
    same.forEach((t, k) => tileNames.set(t.id, same.length > 1 ? `${kinds.get(kind).name} ${k + 1}` : kinds.get(kind).name));
  }
  const faceText = (effectId) => {
    const fx = effectById.get(effectId);
    return fx ? fx.details || fx.text : null;
  };
  const withField = (field) => data.cards.filter((c) => c[field]);

  const L = {
    /** Square names, row-major (a square number of the state indexes them). */
    squares,
    /** The four corner squares (numbers). */
    corners: [0, columns - 1, (rows - 1) * columns, rows * columns - 1],
    /** Shark tokens in the Sharks' supply. */
    sharkTokens: data.setup.shark_tokens,
    /** The Rings, in card order (red, blue, purple, orange: the order of the Ring masks). */
    rings: withField("ring").map((c) => c.id),
    /** The Portals, P1 first. */
    portals: withField("portal").sort((a, b) => a.portal - b.portal).map((c) => c.id),
    /** The Action tile ids. */
    actionTiles: data.action_tiles.map((t) => t.id),
    /** The Gold Pandas a Panda clan victory needs (King, Queen). */
    golds: withField("role").map((c) => c.id),

    /** The orthogonal neighbours of a square number. */
    neighbours(i) {
      const r = Math.floor(i / columns);
      const c = i % columns;
      const out = [];
      if (r > 0) out.push(i - columns);
      if (r < rows - 1) out.push(i + columns);
      if (c > 0) out.push(i - 1);
      if (c < columns - 1) out.push(i + 1);
      return out;
    },

    /** {name, singular, mv, goal} of a clan id, or null. */
    clan(id) {
      const c = clans.get(id);
      return c ? { name: c.name, singular: c.singular, mv: c.mv_threshold, goal: c.goal } : null;
    },

    clanName(id) {
      const c = clans.get(id);
      return c ? c.name : titleize(id || "clan");
    },

    /** The text of an effect number (the pending frames' effect ids). */
    effectText(number) {
      const fx = effects.get(number);
      return fx ? fx.text : `effect ${number}`;
    },

    /** The id of an item number (cards, Action tiles, MV tokens), or null. */
    itemId(number) {
      const item = items.get(number);
      return item ? item.id : null;
    },

    /** The clan id of a card id, or null. */
    cardClan(card) {
      const c = cards.get(card);
      return c ? c.clan : null;
    },

    /** Readable short name: "Shark 7", "Cat 10 (Red Ring)", "Panda 10 (Gold King)". */
    cardName(card) {
      const c = cards.get(card);
      const m = /^([a-z]+)-(\d+)$/.exec(String(card));
      if (!c || !m) return titleize(card);
      const base = `${clans.get(c.clan) ? clans.get(c.clan).singular : titleize(m[1])} ${m[2]}`;
      const label = cardLabel(c);
      return label ? `${base} (${label})` : base;
    },

    /** {cost, faces: [a, b], label} of a card (a null face is blank). */
    cardInfo(card) {
      const c = cards.get(card);
      if (!c) return { cost: null, faces: [null, null], label: null };
      const cost = c.cost_text || (typeof c.food_cost === "number" ? `${c.food_cost} Food`
        : c.card_cost ? plural(c.card_cost, "card") : null);
      return { cost, faces: c.faces.map((f) => (f ? faceText(f) : null)), label: cardLabel(c) };
    },

    /** Long description for a title attribute. */
    cardTitle(card) {
      const clan = L.cardClan(card);
      const { cost, faces } = L.cardInfo(card);
      const parts = [L.cardName(card)];
      if (cost) parts.push(`cost: ${cost}`);
      const blank = "— (blank)";
      if (clan === "sharks") {
        parts.push(`normal: ${faces[0] || blank}`, `Pack: ${faces[1] || blank}`);
      } else if (clan === "cats" && !L.rings.includes(card)) {
        parts.push(`face 1: ${faces[0] || blank}`, `face 2: ${faces[1] || blank}`);
      } else {
        parts.push(faces[0] || blank);
      }
      return parts.join(" · ");
    },

    /** {name, kind, permanent, front, back} of a tile id (back null: the Desert). */
    tileInfo(tile) {
      const t = data.tiles.find((x) => x.id === tile);
      const kind = t ? kinds.get(t.kind) : null;
      if (!kind) return { name: titleize(tile), kind: null, permanent: true, front: "", back: "" };
      return {
        name: tileNames.get(tile), kind: kind.id, permanent: kind.permanent,
        front: faceText(kind.front), back: kind.back ? faceText(kind.back) : null,
      };
    },

    /** The square numbers of a zone id, or null. */
    zoneSquares(zone) {
      const z = zones.get(zone);
      return z ? z.squares.map((s) => squares.indexOf(s)) : null;
    },

    zoneName(zone) {
      const z = zones.get(zone);
      return z ? z.name : titleize(zone);
    },

    /** The zone ids an Action tile offers. */
    actionZones(tile) {
      const t = actions.get(tile);
      return t ? t.zones.slice() : [];
    },

    actionName(tile) {
      const t = actions.get(tile);
      return t ? t.name : titleize(tile);
    },

    /** "row 1, column 2" for a square name. */
    squareName(sq) {
      const m = /^r(\d+)c(\d+)$/.exec(String(sq));
      return m ? `row ${m[1]}, column ${m[2]}` : String(sq);
    },

    /** {symbols, effect} of an MV token id (effect null when it has none). */
    mvInfo(token) {
      const t = tokens.get(token);
      if (!t) return { symbols: 0, effect: null };
      const fx = effectById.get(t.effect);
      return { symbols: t.symbols, effect: fx && fx.ops.length ? fx.text : null };
    },

    mvName(token) {
      const { symbols, effect } = L.mvInfo(token);
      const m = /^mv-(\d+)$/.exec(String(token));
      return `MV ${m ? m[1] : token}: ${symbols}★${effect ? ` + ${effect}` : ""}`;
    },
  };
  return L;
}
