// Shared helpers of the board renderers: a tiny DOM builder, hidden-part readers, highlight
// marking, and the readable names of both games' ids.
// Pure ES2020 module, no dependency. Nothing here touches the page outside the given root.

// ------------------------------------------------------------------------------- DOM helpers

/**
 * Build an element: el("div", {class: "x", title: "t", dataset: {kind: "card"}}, child, ...).
 * Children may be strings, numbers, nodes, arrays of those, or null/undefined/false (skipped).
 * Text is always set as text (never parsed as HTML).
 */
export function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  if (attrs) {
    for (const [key, value] of Object.entries(attrs)) {
      if (value === null || value === undefined || value === false) continue;
      if (key === "class") node.className = value;
      else if (key === "dataset") {
        for (const [k, v] of Object.entries(value)) {
          if (v !== null && v !== undefined) node.dataset[k] = String(v);
        }
      } else if (key === "style" && typeof value === "object") {
        for (const [k, v] of Object.entries(value)) node.style.setProperty(k, String(v));
      } else node.setAttribute(key, value === true ? "" : String(value));
    }
  }
  append(node, children);
  return node;
}

function append(node, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(node, child);
    else if (child instanceof Node) node.appendChild(child);
    else node.appendChild(document.createTextNode(String(child)));
  }
}

/** Attributes making an element highlightable and findable by tests. */
export function hook(kind, id) {
  return { kind, id: String(id) };
}

/** Key of an involved element, for set lookups. */
export function key(kind, id) {
  return `${kind}\u0000${id}`;
}

/** `items` ({kind, id}) without repeats, in their first order. */
export function uniqueItems(items) {
  const seen = new Set();
  return items.filter((it) => {
    const k = key(it.kind, it.id);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/**
 * Mark every element of `root` whose data-kind/data-id is in `items` with `cls`.
 * Returns the number of elements marked.
 */
export function markInvolved(root, items, cls) {
  if (!items || items.length === 0) return 0;
  const wanted = new Set(items.map((it) => key(it.kind, it.id)));
  let n = 0;
  for (const node of root.querySelectorAll("[data-kind]")) {
    if (wanted.has(key(node.dataset.kind, node.dataset.id))) {
      node.classList.add(cls);
      n += 1;
    }
  }
  return n;
}

/** Remove every child of `root`. */
export function clear(root) {
  while (root.firstChild) root.removeChild(root.firstChild);
}

// ------------------------------------------------------------------------- hidden parts

/**
 * A sequence that may be hidden. Accepts a list (everything visible), {count, known} (LEDA
 * views: known is a list of names for a hand, a list of {index, item} for piles), or a bare
 * count (Legend Raiders views). Returns {visible: bool, count, items: [names] | null,
 * known: [{index|null, item}]}.
 */
export function readHidden(value) {
  if (Array.isArray(value)) {
    return { visible: true, count: value.length, items: value.slice(), known: [] };
  }
  if (typeof value === "number") {
    return { visible: false, count: value, items: null, known: [] };
  }
  if (value && typeof value === "object") {
    const count = typeof value.count === "number" ? value.count : 0;
    const known = [];
    for (const entry of Array.isArray(value.known) ? value.known : []) {
      if (typeof entry === "string") known.push({ index: null, item: entry });
      else if (entry && typeof entry.item === "string") {
        known.push({ index: typeof entry.index === "number" ? entry.index : null, item: entry.item });
      }
    }
    known.sort((a, b) => (a.index ?? 0) - (b.index ?? 0));
    return { visible: false, count, items: null, known };
  }
  return { visible: true, count: 0, items: [], known: [] };
}

/** "1st", "2nd", ... for positions (0 = top). */
export function ordinal(index) {
  const n = index + 1;
  const s = n % 100 >= 11 && n % 100 <= 13 ? "th" : ({ 1: "st", 2: "nd", 3: "rd" }[n % 10] || "th");
  return `${n}${s}`;
}

/** Title-case an id: "el-dorado" -> "El Dorado". */
export function titleize(id) {
  return String(id)
    .split(/[-_]/)
    .filter(Boolean)
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join(" ");
}

/** "3 cards", "1 card". */
export function plural(n, word, many) {
  return `${n} ${n === 1 ? word : many || `${word}s`}`;
}

/** A label per seat from ctx.names, or "Seat N". */
export function seatLabel(ctx, seat) {
  const names = ctx && Array.isArray(ctx.names) ? ctx.names : [];
  const name = names[seat];
  return typeof name === "string" && name !== "" ? name : `Seat ${seat}`;
}

/** A safe ctx with defaults. */
export function normCtx(ctx) {
  const c = ctx && typeof ctx === "object" ? ctx : {};
  return {
    seat: typeof c.seat === "number" ? c.seat : null,
    names: Array.isArray(c.names) ? c.names : [],
    highlight: c.highlight && typeof c.highlight === "object" ? c.highlight : null,
    toMove: typeof c.toMove === "number" ? c.toMove : null,
  };
}

// =================================================================================== LEDA

export const LEDA_CLANS = {
  cats: { name: "Cats", one: "Cat", mv: 8, goal: "3 Rings in play, uncovered", special: "Draw 1" },
  pandas: {
    name: "Pandas", one: "Panda", mv: 7, goal: "both Gold Pandas (King and Queen) in play, uncovered",
    special: "1 Food or 1 Awakening",
  },
  sharks: { name: "Sharks", one: "Shark", mv: 9, goal: "all 9 Shark tokens on the grid", special: "2 Military" },
  scorpions: { name: "Scorpions", one: "Scorpion", mv: 6, goal: "Portals on all 4 corner squares", special: "Spy" },
};

export function ledaClanName(clan) {
  return (LEDA_CLANS[clan] && LEDA_CLANS[clan].name) || titleize(clan || "clan");
}

// The engine's effect table (engine/leda/data.py, EFFECTS), indexed by effect id.
export const LEDA_EFFECT_TEXT = [
  "1 Food", "2 Food", "1 Military", "2 Military", "Draw 1", "Draw 2", "Upgrade 1 tile", "Spy",
  "Special activation", "Special activation + 1 Food", "Flip one of your Deserts", "Steal 1 Food",
  "nothing", "1 Awakening", "Copy", "Search a Ring", "Activate a tile",
  "1 Military per card in hand", "1 Food per card in hand", "Spy; Draw 1", "Ring for an MV token",
  "1 Food; 1 Military", "Draw 1; 1 Food", "You may rotate one of your Cat cards",
  "Draw 1; Special activation", "1 Food or 1 Military", "1 Food; may play a Panda at 1 less",
  "Draw 1 or 1 Military", "1 Food; Spy", "1 Military; Upgrade", "Spy; may play a Panda at 2 less",
  "2 Military; draw an MV token", "Activate another Panda card", "Activate a tile, then upgrade it",
  "1 Military; retrigger an MV token", "MV token under the pile, draw one", "1 Military; Draw 1",
  "1 Military per adjacent Shark token", "Draw an MV token", "May play a card at 2 less",
  "1 Food per pair of MV tokens", "1 Food per MV token", "Place a Shark token",
  "1 Food per pair of Deserts", "1 Military per pair of Deserts", "Draw 1; 1 Food",
  "May play a card at 1 less per Desert pair", "Activate a Desert's reminded effect",
  "Upgrade a tile, then activate it", "1 Food; Portal bonuses", "Spy twice",
  "The opponent downgrades a tile", "Swap 2 of your squares", "No MV token this round",
  "1 Food or 1 Awakening",
];

export function ledaEffectText(id) {
  return typeof id === "number" && LEDA_EFFECT_TEXT[id] !== undefined ? LEDA_EFFECT_TEXT[id] : `effect ${id}`;
}

// card id -> [cost, face 1 (Cats: first face; Sharks: normal), face 2 (Cats: second face;
// Sharks: Pack) or null, extra label]. A null face is blank ("—").
const LEDA_CARDS = {
  "cat-1": ["3 cards", "Copy an opponent's square of the zone", "Draw 2"],
  "cat-2": ["2 Food", "Search your deck for a Ring", null],
  "cat-3": ["2 cards", "Upgrade 1 tile", "Activate one of your tiles"],
  "cat-4": ["7 Food", "1 Military per card in hand", "1 Food per card in hand"],
  "cat-5": ["4 Food", "Spy; Draw 1", null],
  "cat-6": ["5 Food", "May reveal a Ring, put it under the deck: draw an MV token", null],
  "cat-7": ["1 card", "1 Food; 1 Military", null],
  "cat-8": ["5 Food", "Draw 1; 1 Food", null],
  "cat-9": ["6 Food", "2 Military", "Upgrade 1 tile"],
  "cat-10": ["Ring", "May rotate another Cat card", null, "Red Ring"],
  "cat-11": ["Ring", "May rotate another Cat card", null, "Blue Ring"],
  "cat-12": ["Ring", "May rotate another Cat card", null, "Purple Ring"],
  "cat-13": ["Ring", "May rotate another Cat card", null, "Orange Ring"],
  "panda-1": ["5 Food", "Draw 1; Special activation", null],
  "panda-2": ["5 Food", "Upgrade 1 tile", null, "Bronze"],
  "panda-3": ["5 Food", "1 Food or 1 Military", null, "Bronze"],
  "panda-4": ["5 Food", "1 Food; may play a Panda at 1 less", null, "Bronze"],
  "panda-5": ["5 Food", "Draw 1 or 1 Military", null, "Bronze"],
  "panda-6": ["5 Food", "1 Food; Spy", null, "Bronze"],
  "panda-7": ["Awakening", "2 Military", null, "Silver"],
  "panda-8": ["Awakening", "1 Military; Upgrade 1 tile", null, "Silver"],
  "panda-9": ["Awakening", "Spy; may play a Panda at 2 less", null, "Silver"],
  "panda-10": ["Awakening", "2 Military; draw an MV token", null, "Gold King"],
  "panda-11": ["Awakening", "Activate another uncovered Panda card", null, "Gold Queen"],
  "shark-1": ["6 Food", "Upgrade 1 tile", "Activate a tile, then upgrade it"],
  "shark-2": ["6 Food", "Spy", "1 Military; retrigger an MV token"],
  "shark-3": ["3 Food", null, "Put an MV token under the pile, draw one"],
  "shark-4": ["5 Food", "1 Military", "2 Military"],
  "shark-5": ["4 Food", "1 Military", "1 Military; Draw 1"],
  "shark-6": ["7 Food", "2 Military", "1 Military per adjacent Shark token"],
  "shark-7": ["7 Food", null, "Draw an MV token"],
  "shark-8": ["5 Food", "1 Food", "May play a card at 2 less"],
  "shark-9": ["7 Food", "1 Food per pair of MV tokens", "1 Food per MV token"],
  "shark-10": ["3 Food", null, "Place a Shark token"],
  "shark-11": ["3 Food", null, "Spy"],
  "scorpion-1": ["3 Food", "1 Food per pair of Deserts", null],
  "scorpion-2": ["3 Food", "1 Military per pair of Deserts", null],
  "scorpion-3": ["3 Food", "Draw 1; 1 Food", null],
  "scorpion-4": ["3 Food", "May play a card at 1 less per pair of Deserts", null],
  "scorpion-5": ["3 Food", "Activate a Desert's reminded effect", null],
  "scorpion-6": ["4 Food", "Upgrade a tile, then activate it", null],
  "scorpion-7": ["2 Food", "1 Food; with 1/2/3 Portals also Spy / 1 Military / a Desert", null],
  "scorpion-8": ["9 − cards in hand", "Spy twice (2 different piles)", null, "Portal P1"],
  "scorpion-9": ["9 − upgraded tiles", "The opponent downgrades a tile", null, "Portal P2"],
  "scorpion-10": ["9 − Portals in play", "Swap 2 of your squares", null, "Portal P3"],
  "scorpion-11": ["9 − MV tokens owned", "No MV token this round", null, "Portal P4"],
};

export const LEDA_RINGS = ["cat-10", "cat-11", "cat-12", "cat-13"];
export const LEDA_PORTALS = ["scorpion-8", "scorpion-9", "scorpion-10", "scorpion-11"];
export const LEDA_GOLDS = ["panda-10", "panda-11"];

/** The clan of a card id ("shark-7" -> "sharks"). */
export function ledaCardClan(card) {
  const m = /^([a-z]+)-\d+$/.exec(String(card));
  return m ? `${m[1]}s` : null;
}

/** Readable short name: "Shark 7", "Cat 10 (Red Ring)", "Panda 10 (Gold King)". */
export function ledaCardName(card) {
  const m = /^([a-z]+)-(\d+)$/.exec(String(card));
  if (!m) return titleize(card);
  const base = `${titleize(m[1])} ${m[2]}`;
  const info = LEDA_CARDS[card];
  return info && info[3] ? `${base} (${info[3]})` : base;
}

/** {cost, faces: [a, b]} of a card (faces may be null = blank). */
export function ledaCardInfo(card) {
  const info = LEDA_CARDS[card];
  if (!info) return { cost: null, faces: [null, null], label: null };
  return { cost: info[0], faces: [info[1], info[2]], label: info[3] || null };
}

/** Long description for a title attribute. */
export function ledaCardTitle(card) {
  const clan = ledaCardClan(card);
  const { cost, faces } = ledaCardInfo(card);
  const parts = [ledaCardName(card)];
  if (cost) parts.push(`cost: ${cost}`);
  const blank = "— (blank)";
  if (clan === "sharks") {
    parts.push(`normal: ${faces[0] || blank}`, `Pack: ${faces[1] || blank}`);
  } else if (clan === "cats" && !LEDA_RINGS.includes(card)) {
    parts.push(`face 1: ${faces[0] || blank}`, `face 2: ${faces[1] || blank}`);
  } else {
    parts.push(faces[0] || blank);
  }
  return parts.join(" · ");
}

// Tiles. kind -> [name, front effect, back effect (null = Desert), permanent]
const LEDA_TILE_KINDS = {
  food: ["Food", "+1 Food", "+2 Food", true],
  military: ["Military", "+1 Military", "+2 Military", true],
  draw: ["Draw", "Draw 1", "Draw 2", true],
  special: ["Special", "Special activation", "Special + 1 Food", true],
  "temp-food": ["Temp. Food", "+1 Food", null, false],
  "temp-military": ["Temp. Military", "+1 Military", null, false],
  "temp-draw": ["Temp. Draw", "Draw 1", null, false],
  "temp-upgrade": ["Temp. Upgrade", "Upgrade 1 tile", null, false],
  "temp-special": ["Temp. Special", "Special activation", null, false],
};

/** {name, kind, permanent, front, back} of a tile id ("temp-food-3"). */
export function ledaTileInfo(tile) {
  const m = /^(.*?)(?:-(\d+))?$/.exec(String(tile));
  const kind = m && LEDA_TILE_KINDS[m[1]] ? m[1] : null;
  if (!kind) {
    return { name: titleize(tile), kind: null, permanent: true, front: "", back: "" };
  }
  const [name, front, back, permanent] = LEDA_TILE_KINDS[kind];
  return { name: m[2] ? `${name} ${m[2]}` : name, kind, permanent, front, back };
}

export const LEDA_ZONES = {
  row1: [0, 1, 2, 3], row2: [4, 5, 6, 7], row3: [8, 9, 10, 11], row4: [12, 13, 14, 15],
  col1: [0, 4, 8, 12], col2: [1, 5, 9, 13], col3: [2, 6, 10, 14], col4: [3, 7, 11, 15],
  "square-tl": [0, 1, 4, 5], "square-tr": [2, 3, 6, 7], "square-bl": [8, 9, 12, 13],
  "square-br": [10, 11, 14, 15], corners: [0, 3, 12, 15], centre: [5, 6, 9, 10],
};

export const LEDA_ACTION_ZONES = {
  "action-1": ["row1", "col1", "square-tl"],
  "action-2": ["row2", "col2", "square-tr"],
  "action-3": ["row3", "col3", "square-bl"],
  "action-4": ["row4", "col4", "square-br"],
  "action-5": ["corners", "centre"],
};

export function ledaZoneName(zone) {
  const m = /^(row|col)(\d)$/.exec(String(zone));
  if (m) return `${m[1] === "row" ? "Row" : "Column"} ${m[2]}`;
  return (
    {
      "square-tl": "Top-left 2×2", "square-tr": "Top-right 2×2", "square-bl": "Bottom-left 2×2",
      "square-br": "Bottom-right 2×2", corners: "4 corners", centre: "4 centre squares",
    }[zone] || titleize(zone)
  );
}

export function ledaActionName(tile) {
  const m = /^action-(\d+)$/.exec(String(tile));
  return m ? `Action ${m[1]}` : titleize(tile);
}

export const LEDA_SQUARES = [];
for (let r = 1; r <= 4; r += 1) for (let c = 1; c <= 4; c += 1) LEDA_SQUARES.push(`r${r}c${c}`);

export function ledaSquareName(sq) {
  const m = /^r(\d)c(\d)$/.exec(String(sq));
  return m ? `row ${m[1]}, column ${m[2]}` : String(sq);
}

// MV tokens: [symbols, extra effect or null] for mv-1 .. mv-18.
const LEDA_MV = [
  [1, null], [1, null], [1, null], [2, null], [2, null], [1, "Spy"], [1, "Spy"],
  [1, "Flip a Desert"], [1, "Flip a Desert"], [1, "Upgrade"], [1, "Upgrade"], [1, "Upgrade"],
  [1, "Gain 1 Food"], [1, "Gain 1 Food"], [1, "Steal 1 Food"], [1, "Steal 1 Food"], [1, "Draw 1"], [1, "Draw 1"],
];

/** {symbols, effect} of an MV token id. */
export function ledaMvInfo(token) {
  const m = /^mv-(\d+)$/.exec(String(token));
  const entry = m ? LEDA_MV[Number(m[1]) - 1] : null;
  return entry ? { symbols: entry[0], effect: entry[1] } : { symbols: 0, effect: null };
}

export function ledaMvName(token) {
  const { symbols, effect } = ledaMvInfo(token);
  const m = /^mv-(\d+)$/.exec(String(token));
  const num = m ? m[1] : token;
  return `MV ${num}: ${symbols}★${effect ? ` + ${effect}` : ""}`;
}

// ======================================================================== LEGEND RAIDERS

export const LR_TOOLS = {
  compass: { name: "Compass", short: "C" },
  map: { name: "Map", short: "M" },
  shovel: { name: "Shovel", short: "S" },
  rope: { name: "Rope", short: "R" },
};
export const LR_TOOL_IDS = ["compass", "map", "shovel", "rope"];

export function lrToolName(tool) {
  return (LR_TOOLS[tool] && LR_TOOLS[tool].name) || titleize(tool);
}

export const LR_SYMBOLS = {
  book: "Book", weapon: "Weapon", idol: "Idol", treasure: "Treasure", place: "Place",
};

export function lrSymbolName(symbol) {
  return LR_SYMBOLS[symbol] || titleize(symbol);
}

// The shipped (reconstructed) component set, engine/legend_raiders/components.json.
// tile id -> [name, symbol, cost tools]
const LR_TILES = {
  "clavicola-salomonis": ["Clavicola Salomonis", "book", ["compass", "map"]],
  "grand-grimoire": ["Grand Grimoire", "book", ["map", "map"]],
  necronomicon: ["Necronomicon", "book", ["shovel", "rope"]],
  "oracula-sibyllina": ["Oracula Sibyllina", "book", ["compass", "shovel"]],
  prophetica: ["Prophetica", "book", ["map", "rope"]],
  aegis: ["Aegis", "weapon", ["shovel", "shovel"]],
  excalibur: ["Excalibur", "weapon", ["compass", "rope"]],
  "lancea-longini": ["Lancea Longini", "weapon", ["map", "shovel"]],
  mjollnir: ["Mjöllnir", "weapon", ["shovel", "rope"]],
  poseidon: ["Poseidon", "weapon", ["compass", "compass"]],
  adam: ["Adam", "idol", ["rope", "rope"]],
  horus: ["Horus", "idol", ["compass", "map"]],
  mater: ["Mater", "idol", ["map", "map"]],
  uroboros: ["Uroboros", "idol", ["compass", "rope"]],
  "wen-dae-ke": ["Wen-dae-ke", "idol", ["shovel", "shovel"]],
  "agua-de-vida": ["Agua de vida", "treasure", ["compass", "shovel"]],
  draconite: ["Draconite", "treasure", ["rope", "rope"]],
  eden: ["Eden", "treasure", ["map", "shovel"]],
  "lapis-philosophorum": ["Lapis Philosophorum", "treasure", ["compass", "compass"]],
  pandora: ["Pandora", "treasure", ["map", "rope"]],
  agartha: ["Agartha", "place", ["shovel", "shovel", "map"]],
  alexandria: ["Alexandria", "place", ["compass", "compass", "rope"]],
  atlantis: ["Atlantis", "place", ["rope", "rope", "map"]],
  babel: ["Babel", "place", ["rope", "rope", "compass"]],
  babylon: ["Babylon", "place", ["map", "map", "shovel"]],
  "el-dorado": ["El Dorado", "place", ["map", "map", "compass"]],
  olympus: ["Olympus", "place", ["shovel", "shovel", "rope"]],
  "shangri-la": ["Shangri-La", "place", ["compass", "compass", "shovel"]],
};

/** {name, symbol, cost: [tool ids], coins} of a tile (unknown ids: name from the id). */
export function lrTileInfo(tile) {
  const t = LR_TILES[tile];
  if (!t) return { name: titleize(tile), symbol: null, cost: [], coins: 0 };
  return { name: t[0], symbol: t[1], cost: t[2].slice(), coins: t[1] === "place" ? 1 : 0 };
}

const LR_MISSION_POINTS = {
  "mission-book-book": 3, "mission-weapon-weapon": 3, "mission-idol-idol": 3,
  "mission-treasure-treasure": 3, "mission-place-place": 4, "mission-book-weapon-place": 5,
  "mission-idol-treasure-place": 5, "mission-book-idol-treasure": 5,
  "mission-weapon-idol-treasure": 5, "mission-book-weapon-treasure": 5,
  "mission-book-book-place": 5, "mission-weapon-weapon-place": 5, "mission-idol-idol-place": 5,
  "mission-treasure-treasure-place": 5, "mission-place-place-place": 7,
  "mission-book-weapon-idol-treasure": 8,
};

/** {kind: "die"|"discovery"|"mission"|null, symbol, requires, points, name, title} of a card. */
export function lrCardInfo(card) {
  const id = String(card);
  let m = /^die-(\d+)$/.exec(id);
  if (m) {
    return {
      kind: "die", symbol: null, requires: [], points: 1, name: `Die card ${m[1]}`,
      title: `Die card ${m[1]}: set the die to any face (diceless: 2 tools, relight the torch or +1 per discovery); 1 point if kept`,
    };
  }
  m = /^discovery-([a-z]+)-(\d+)$/.exec(id);
  if (m) {
    const sym = lrSymbolName(m[1]);
    return {
      kind: "discovery", symbol: m[1], requires: [], points: 0, name: `Discovery: ${sym}`,
      title: `Discovery card (${sym} ${m[2]}): counts as one ${sym} for Missions`,
    };
  }
  m = /^mission-([a-z-]+)$/.exec(id);
  if (m) {
    const requires = m[1].split("-");
    const points = LR_MISSION_POINTS[id];
    const need = requires.map(lrSymbolName).join(" + ");
    return {
      kind: "mission", symbol: null, requires, points: points === undefined ? null : points,
      name: `Mission: ${need}`,
      title: `Mission: ${need}${points === undefined ? "" : ` → ${points} points`} at the end`,
    };
  }
  return { kind: null, symbol: null, requires: [], points: 0, name: titleize(id), title: titleize(id) };
}

export const LR_CHARACTERS = {
  1: { names: "Montana John / Lin Diana Jones", favourite: "rope" },
  2: { names: "Joe Manjee / June Manjill", favourite: "map" },
  3: { names: "Lamar Croft / Lana Soft", favourite: "shovel" },
  4: { names: "Lawrence Ovaraby / Florence Ovaraby", favourite: "compass" },
};

export const LR_FACES = {
  tool: { name: "Tool", text: "draw 1 tool from the bag" },
  torch: { name: "Torch", text: "every player flips their torch" },
  coin: { name: "Coin", text: "+1 point per discovery completed this turn" },
};

export const LR_DICELESS_EFFECTS = {
  tools: "draw 2 tools",
  torch: "relight the torch",
  coin: "+1 point per discovery this turn",
};
