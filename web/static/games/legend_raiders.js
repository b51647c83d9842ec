// Legend Raiders board renderer: draws a Legend Raiders state JSON (full state or a seat's view)
// into an element. Pure ES2020 module, no dependency. Styles: boards.css (classes prefixed "rb-").
//
// Highlightable elements carry data-kind / data-id:
//   column    "1".."4"                   an HQ column
//   tile      "<tile id>"                a Discovery tile (HQ, prepared, completed)
//   tool      "<owner>:<tool id>"        owner = a seat number (backpack), "hq<c>" (under column c) or "bag"
//   backpack  "<seat>"                   a player's backpack
//   torch     "<seat>"                   a player's torch
//   points    "<seat>"                   a player's points
//   slot      "row1".."row4"             a face-up Expedition slot
//   card      "<card id>"                an Expedition card that is shown (face-up row, taken cards)
//   blind     "<seat>"                   a player's cards taken blind (hidden or shown)
//   deck      "deck"                     the Expedition deck
//   stack     "stack"                    the Discovery tile stack
//   bag       "bag"                      the tool bag
//   die       "die"                      the die
//   face      "tool" | "torch" | "coin"  a die face
//   bonus     "coin"                     this turn's coin bonus

import {
  clear,
  el,
  hook,
  markInvolved,
  normCtx,
  ordinal,
  plural,
  readHidden,
  seatLabel,
  titleize,
  uniqueItems,
} from "./dom.js";
import { lrData } from "./lr_data.js";

export const gameName = "legend_raiders";

const CHANCE_PHASES = ["roll", "draw-tool", "refill-tile", "refill-tools", "reveal-card", "blind-card"];

// What each die face does, and each diceless use of a Die card (the rules, in words).
const FACE_TEXT = {
  tool: "draw 1 tool from the bag",
  torch: "every player flips their torch",
  coin: "+1 point per discovery completed this turn",
};

function dicelessEffects() {
  return {
    tools: `draw ${plural(R.dicelessTools, "tool")}`,
    torch: "relight the torch",
    coin: "+1 point per discovery this turn",
  };
}

/** The lookups over Legend Raiders' component data (`useComponents`), or null before it came. */
let R = null;

/** Take the component data the gateway serves (GET /api/games/legend_raiders/components). */
export function useComponents(data) {
  R = lrData(data);
}

// --------------------------------------------------------------------------- state reading

function players(state) {
  return state && Array.isArray(state.players) ? state.players : [];
}

function turn(state) {
  return state && state.turn && typeof state.turn === "object" ? state.turn : {};
}

function tools(obj) {
  const out = {};
  for (const t of R.toolIds) out[t] = obj && typeof obj[t] === "number" ? obj[t] : 0;
  if (obj && typeof obj === "object") {
    for (const [k, v] of Object.entries(obj)) if (!(k in out) && typeof v === "number") out[k] = v;
  }
  return out;
}

function toolTotal(obj) {
  return Object.values(tools(obj)).reduce((a, b) => a + b, 0);
}

function list(x) {
  return Array.isArray(x) ? x : [];
}

function isOver(state) {
  return turn(state).phase === "over";
}

function seatToMove(state, ctx) {
  if (typeof ctx.toMove === "number") return ctx.toMove;
  const t = turn(state);
  if (t.phase === "over") return -2;
  if (CHANCE_PHASES.includes(t.phase)) return -1;
  return typeof t.player === "number" ? t.player : -2;
}

function coinsVisible(player) {
  if (typeof player.coins_visible === "number") return player.coins_visible;
  const prepared = list(player.prepared).length;
  const completed = list(player.completed);
  let coins = R.coinsPerEmptySpace * Math.max(0, R.maxPrepared - prepared);
  coins += R.completedCoinsFrom(completed.length);
  for (const t of completed) coins += R.tileInfo(t).coins;
  return coins;
}

/** The cards of a player that this state shows: [{card, blind}], and the hidden count. */
function shownCards(player) {
  const out = list(player.cards_face_up).map((c) => ({ card: c, blind: false }));
  const blind = readHidden(player.cards_blind);
  if (blind.visible) for (const c of blind.items) out.push({ card: c, blind: true });
  return { cards: out, hidden: blind.visible ? 0 : blind.count, blind };
}

function symbolCounts(player) {
  const counts = {};
  for (const s of R.symbols) counts[s] = 0;
  for (const t of list(player.completed)) {
    const sym = R.tileInfo(t).symbol;
    if (sym) counts[sym] = (counts[sym] || 0) + 1;
  }
  for (const { card } of shownCards(player).cards) {
    const info = R.cardInfo(card);
    if (info.kind === "discovery" && info.symbol) counts[info.symbol] = (counts[info.symbol] || 0) + 1;
  }
  return counts;
}

function missionMet(info, counts) {
  const need = {};
  for (const s of info.requires) need[s] = (need[s] || 0) + 1;
  return Object.entries(need).every(([s, n]) => (counts[s] || 0) >= n);
}

/** Tools short of a tile's cost, and whether the lit torch covers the gap. */
function affordability(player, tile) {
  const have = tools(player.tools);
  const need = {};
  for (const t of R.tileInfo(tile).cost) need[t] = (need[t] || 0) + 1;
  let short = 0;
  for (const [t, n] of Object.entries(need)) short += Math.max(0, n - (have[t] || 0));
  if (short === 0) return "ready";
  if (short === 1 && player.torch_lit === true) return "torch";
  return null;
}

// ------------------------------------------------------------------------------ phase text

function phaseText(state) {
  const t = turn(state);
  const done = typeof t.completed_this_turn === "number" ? t.completed_this_turn : 0;
  const draws = typeof t.tool_draws_left === "number" ? t.tool_draws_left : 0;
  switch (t.phase) {
    case "roll":
      return "rolling the die";
    case "die-card":
      return "may discard a Die card to set the die to another face, or keep the roll";
    case "draw-tool":
      return `drawing ${plural(draws || 1, "tool")} from the bag into the backpack`;
    case "discard-tool":
      return `puts a tool back in the bag (backpack holds ${R.backpack} at most)`;
    case "action":
      return state.variant === "diceless"
        ? "chooses an action: prepare (take an HQ column) or go on an Expedition (or use a Die card)"
        : "chooses an action: prepare (take an HQ column) or go on an Expedition";
    case "discard-tile":
      return `discards a prepared tile (${R.maxPrepared} at most)`;
    case "refill-tile":
      return `refilling HQ column ${t.column ?? "?"} with the stack's top tile`;
    case "refill-tools":
      return `refilling HQ column ${t.column ?? "?"} with ${plural(draws || 1, "tool")} from the bag`;
    case "reveal-card":
      return `revealing a new face-up card into slot ${t.row_slot ?? "?"}`;
    case "blind-card":
      return "taking the Expedition deck's top card blind";
    case "complete":
      return `may complete a prepared discovery (${done}/${R.completionsPerTurn} this turn), or stop`;
    case "finish":
      return `may use a Die card (${Object.values(dicelessEffects()).join(", ")}), or end the turn`;
    case "over":
      return "game over";
    default:
      return t.phase ? String(t.phase).replace(/-/g, " ") : "—";
  }
}

// ------------------------------------------------------------------------------ involved()

/** The board elements a move touches: [{kind, id}]. Unknown moves give []. */
export function involved(state, move) {
  if (!move || typeof move !== "object" || typeof move.type !== "string") return [];
  const t = turn(state);
  const seat = typeof t.player === "number" ? t.player : 0;
  const player = players(state)[seat] || {};
  const hq = list(state && state.hq);
  const row = list(state && state.row);
  const out = [];
  const push = (kind, id) => {
    if (id !== null && id !== undefined) out.push({ kind, id: String(id) });
  };
  const dieCard = () => {
    const up = list(player.cards_face_up).find((c) => R.cardInfo(c).kind === "die");
    if (up) return push("card", up);
    const blind = readHidden(player.cards_blind);
    const shown = blind.visible ? blind.items.find((c) => R.cardInfo(c).kind === "die") : null;
    if (shown) push("card", shown);
    else push("blind", seat);
  };
  switch (move.type) {
    case "prepare": {
      const c = Number(move.column);
      if (!Number.isInteger(c) || c < 1 || c > R.hqColumns) break;
      push("column", c);
      const col = hq[c - 1];
      if (col && typeof col.tile === "string") push("tile", col.tile);
      break;
    }
    case "expedition": {
      const m = /^row(\d)$/.exec(String(move.card));
      if (m) {
        push("slot", `row${m[1]}`);
        const card = row[Number(m[1]) - 1];
        if (typeof card === "string") push("card", card);
      } else if (move.card === "deck") push("deck", "deck");
      break;
    }
    case "discard":
      if (typeof move.tile === "string") push("tile", move.tile);
      else if (typeof move.tool === "string") push("tool", `${seat}:${move.tool}`);
      break;
    case "complete": {
      if (typeof move.tile !== "string") break;
      push("tile", move.tile);
      const cost = R.tileInfo(move.tile).cost;
      const torch = typeof move.torch === "string" ? move.torch : null;
      let replaced = false;
      const used = new Set();
      for (const tool of cost) {
        if (!replaced && tool === torch) {
          replaced = true;
          continue;
        }
        used.add(tool);
      }
      for (const tool of used) push("tool", `${seat}:${tool}`);
      if (torch) push("torch", seat);
      push("points", seat);
      break;
    }
    case "keep-roll":
      push("die", "die");
      if (typeof t.die === "string") push("face", t.die);
      break;
    case "die-card":
      dieCard();
      if (typeof move.face === "string") {
        push("die", "die");
        push("face", move.face);
      } else if (move.effect === "tools") push("bag", "bag");
      else if (move.effect === "torch") push("torch", seat);
      else if (move.effect === "coin") push("bonus", "coin");
      break;
    case "roll":
      push("die", "die");
      if (typeof move.face === "string") push("face", move.face);
      break;
    case "draw":
      if (typeof move.tool !== "string") break;
      push("tool", `bag:${move.tool}`);
      if (t.phase === "refill-tools" && typeof t.column === "number") push("column", t.column);
      else push("backpack", seat);
      break;
    case "reveal":
      if (typeof move.tile === "string") {
        push("stack", "stack");
        if (typeof t.column === "number") push("column", t.column);
      } else if (typeof move.card === "string") {
        push("deck", "deck");
        if (t.phase === "reveal-card" && typeof t.row_slot === "number") push("slot", `row${t.row_slot}`);
        else push("blind", seat);
      }
      break;
    default:
      break;
  }
  return uniqueItems(out);
}

// --------------------------------------------------------------------------------- drawing

function toolChip(tool, count, hookAttrs, opts = {}) {
  const known = R.isTool(tool);
  const cls = `rb-tool rb-tool-${known ? tool : "other"}${count === 0 ? " rb-zero" : ""}${opts.fav ? " rb-fav" : ""}`;
  return el(
    "span",
    { class: cls, dataset: hookAttrs, title: `${R.toolName(tool)}${count === null ? "" : ` × ${count}`}${opts.fav ? " (favourite tool: +1 point when used)" : ""}` },
    el("span", { class: "rb-tool-icon" }, R.toolShort(tool)),
    opts.label ? el("span", { class: "rb-tool-name" }, R.toolName(tool)) : null,
    count === null ? null : el("b", { class: "rb-tool-count" }, `×${count}`),
  );
}

function costEl(tile) {
  return el("span", { class: "rb-cost" },
    R.tileInfo(tile).cost.map((t) => el("span", { class: `rb-tool-icon rb-tool-${R.isTool(t) ? t : "other"}`, title: R.toolName(t) }, R.toolShort(t))));
}

function tileEl(tile, opts = {}) {
  const info = R.tileInfo(tile);
  const sym = info.symbol || "unknown";
  const costText = info.cost.map(R.toolName).join(" + ");
  const title = `${info.name} — ${R.symbolName(info.symbol || "?")}${info.coins ? ` (its back shows ${plural(info.coins, "coin")})` : ""}; cost: ${costText || "?"}`;
  const badge = opts.ready === "ready" ? el("span", { class: "rb-ready", title: "the backpack pays it" }, "✓ ready")
    : opts.ready === "torch" ? el("span", { class: "rb-ready rb-ready-torch", title: "payable with the lit torch" }, "✓ with torch") : null;
  return el(
    "div",
    { class: `rb-tile rb-sym-${sym}${opts.done ? " rb-tile-done" : ""}`, dataset: hook("tile", tile), title },
    el("div", { class: "rb-tile-name" }, info.name),
    el("div", { class: "rb-tile-meta" },
      el("span", { class: "rb-sym" }, R.symbolName(info.symbol || "?")),
      opts.done ? (info.coins ? el("span", { class: "rb-coin", title: "1 coin on its back" }, "1") : null) : costEl(tile)),
    badge,
  );
}

function cardEl(card, opts = {}) {
  const info = R.cardInfo(card);
  const kind = info.kind || "unknown";
  let status = null;
  if (info.kind === "mission" && opts.counts) {
    const met = missionMet(info, opts.counts);
    status = met ? el("span", { class: "rb-mission-met", title: "requirement met (with the symbols shown)" }, "✓") : null;
  }
  const body = info.kind === "mission"
    ? [el("div", { class: "rb-card-name" }, "Mission", status,
      info.points !== null ? el("b", { class: "rb-card-pts" }, `${info.points} pts`) : null),
    el("div", { class: "rb-card-req" }, info.requires.map((s) => el("span", { class: `rb-sym rb-sym-${s}` }, R.symbolName(s))))]
    : info.kind === "discovery"
      ? [el("div", { class: "rb-card-name" }, "Discovery"), el("div", { class: "rb-card-req" }, el("span", { class: `rb-sym rb-sym-${info.symbol}` }, R.symbolName(info.symbol)))]
      : info.kind === "die"
        ? [el("div", { class: "rb-card-name" }, info.name), el("div", { class: "rb-card-sub" }, "1 pt if kept")]
        : [el("div", { class: "rb-card-name" }, info.name)];
  return el(
    "div",
    { class: `rb-card rb-card-${kind}${opts.blind ? " rb-card-blind" : ""}`, dataset: hook("card", card), title: `${info.title}${opts.blind ? " (taken blind)" : ""}` },
    body,
  );
}

function backEl(count, label, hookAttrs, title) {
  return el(
    "div",
    { class: "rb-pile", dataset: hookAttrs, title },
    el("div", { class: "rb-back" }, el("span", { class: "rb-back-count" }, String(count))),
    el("div", { class: "rb-pile-label" }, label),
  );
}

function statusEl(state, ctx, toMove) {
  const t = turn(state);
  const rows = [];
  const over = isOver(state);
  const ps = players(state);
  if (over) {
    const finals = list(state.final_scores);
    const order = ps.map((_, s) => s).sort((a, b) => (finals[b] ?? 0) - (finals[a] ?? 0));
    const w = typeof state.winner === "number" ? state.winner : order[0];
    rows.push(el("div", { class: "rb-status-main rb-status-over" },
      el("b", null, "Game over — "), `winner: ${seatLabel(ctx, w)}${typeof finals[w] === "number" ? ` with ${finals[w]} points` : ""}`));
    if (finals.length) {
      rows.push(el("div", { class: "rb-finals" }, order.map((s) =>
        el("span", { class: `rb-final rb-seat${s}${s === w ? " rb-final-win" : ""}` }, `${seatLabel(ctx, s)}: ${finals[s] ?? "?"}`))));
    }
  } else {
    const seat = typeof t.player === "number" ? t.player : 0;
    const chance = toMove === -1 || CHANCE_PHASES.includes(t.phase);
    rows.push(el("div", { class: "rb-status-main" },
      el("span", { class: `rb-turn-dot rb-seat${seat}` }),
      el("b", null, `${chance ? "Chance" : seatLabel(ctx, seat)}: `),
      chance ? `${phaseText(state)} (${seatLabel(ctx, seat)}'s turn)` : phaseText(state)));
  }
  const chips = [];
  const dice = state.variant !== "diceless";
  chips.push(el("span", { class: "rb-chip" }, dice ? "Standard game (die)" : "Diceless variant"));
  if (!over && dice) {
    chips.push(el("span", { class: "rb-chip", title: t.die ? FACE_TEXT[t.die] : "not rolled yet" },
      `Die: ${t.die ? titleize(t.die) : "not rolled"}`));
  }
  if (!over) {
    const bonus = typeof t.coin_bonus === "number" ? t.coin_bonus : 0;
    chips.push(el("span", { class: `rb-chip${bonus ? " rb-chip-coin" : ""}`, dataset: hook("bonus", "coin"), title: "points added per discovery completed this turn" },
      `Coin bonus +${bonus}`));
    chips.push(el("span", { class: "rb-chip" }, `Completed this turn ${t.completed_this_turn ?? 0}/${R.completionsPerTurn}`));
  }
  if (state.end_triggered && !over) chips.push(el("span", { class: "rb-chip rb-chip-warn", title: "the round is being finished" }, "Last round"));
  if (typeof state.observer === "number") chips.push(el("span", { class: "rb-chip" }, `view of ${seatLabel(ctx, state.observer)}`));
  else chips.push(el("span", { class: "rb-chip" }, "full state"));
  rows.push(el("div", { class: "rb-chips" }, chips));
  return el("div", { class: "rb-status" }, rows);
}

function dieEl(state) {
  const t = turn(state);
  if (state.variant === "diceless") return null;
  const kinds = [...new Set(R.dieFaces)];
  const faces = kinds.map((f) => `${R.dieFaces.filter((x) => x === f).length} ${titleize(f)}`).join(", ");
  return el("div", { class: "rb-die", dataset: hook("die", "die"), title: `the die: ${faces} faces` },
    el("div", { class: "rb-mini-label" }, "Die"),
    el("div", { class: "rb-faces" }, kinds.map((f) =>
      el("span", { class: `rb-face${t.die === f ? " rb-face-on" : ""}`, dataset: hook("face", f), title: `${titleize(f)}: ${FACE_TEXT[f] || f}` }, titleize(f)))));
}

function commonEl(state) {
  const t = turn(state);
  const hq = list(state.hq);
  const columns = [];
  for (let c = 0; c < R.hqColumns; c += 1) {
    const col = hq[c] || {};
    const colTools = tools(col.tools);
    const toolEls = [];
    for (const [tool, n] of Object.entries(colTools)) {
      if (n > 0) toolEls.push(toolChip(tool, n > 1 ? n : null, hook("tool", `hq${c + 1}:${tool}`), { label: true }));
    }
    const pendingRefill = t.column === c + 1 && ["refill-tile", "refill-tools", "discard-tile", "discard-tool", "draw-tool"].includes(t.phase);
    columns.push(el("div", { class: `rb-column${pendingRefill ? " rb-column-refill" : ""}`, dataset: hook("column", c + 1) },
      el("div", { class: "rb-column-head" }, `Column ${c + 1}`, pendingRefill ? el("span", { class: "rb-refill" }, "taken") : null),
      typeof col.tile === "string" ? tileEl(col.tile) : el("div", { class: "rb-tile rb-tile-empty" }, "no tile"),
      el("div", { class: "rb-column-tools" }, toolEls.length ? toolEls : el("span", { class: "rb-empty" }, "no tools"))));
  }

  const row = list(state.row);
  const slots = [];
  for (let k = 0; k < R.faceUpCards; k += 1) {
    const card = row[k];
    slots.push(el("div", { class: `rb-slot${t.phase === "reveal-card" && t.row_slot === k + 1 ? " rb-column-refill" : ""}`, dataset: hook("slot", `row${k + 1}`) },
      typeof card === "string" ? cardEl(card) : el("div", { class: "rb-card rb-card-empty" }, "empty")));
  }
  const deck = readHidden(state.deck);
  const stack = list(state.stack);
  const bag = tools(state.bag);
  const removedTiles = list(state.removed_tiles);
  const removedCards = list(state.removed_cards);

  return el("div", { class: "rb-common" },
    el("div", { class: "rb-block rb-hq" },
      el("div", { class: "rb-section-label" }, "Headquarters"),
      el("div", { class: "rb-columns" }, columns)),
    el("div", { class: "rb-block rb-expedition" },
      el("div", { class: "rb-section-label" }, "Expedition cards (face up)"),
      el("div", { class: "rb-row" }, slots)),
    el("div", { class: "rb-block rb-supply" },
      backEl(deck.count, "Expedition deck", hook("deck", "deck"), `Expedition deck: ${plural(deck.count, "card")}, order unknown`),
      backEl(stack.length, "Tile stack", hook("stack", "stack"), `Discovery stack: ${plural(stack.length, "tile")}, order unknown`),
      el("div", { class: "rb-bag", dataset: hook("bag", "bag"), title: `Bag: ${plural(toolTotal(bag), "tool")} (public)` },
        el("div", { class: "rb-mini-label" }, `Bag (${toolTotal(bag)})`),
        el("div", { class: "rb-bag-tools" }, Object.entries(bag).map(([tool, n]) => toolChip(tool, n, hook("tool", `bag:${tool}`))))),
      dieEl(state)),
    removedTiles.length || removedCards.length
      ? el("div", { class: "rb-removed", title: "removed tiles and used Die cards" },
        el("b", null, "Out of the game: "),
        removedTiles.map((x) => R.tileInfo(x).name).concat(removedCards.map((x) => R.cardInfo(x).name)).join(", "))
      : null);
}

function playerEl(state, ctx, seat, toMove) {
  const p = players(state)[seat] || {};
  const t = turn(state);
  const over = isOver(state);
  const board = typeof p.board === "number" ? p.board : null;
  const known = R.character(board) || {};
  const character = typeof p.character === "string" ? p.character : known.names || "?";
  const fav = typeof p.favourite === "string" ? p.favourite : known.favourite;
  const backpack = tools(p.tools);
  const nTools = toolTotal(p.tools);
  const prepared = list(p.prepared);
  const completed = list(p.completed);
  const counts = symbolCounts(p);
  const { cards, hidden } = shownCards(p);
  const turnOf = !over && t.player === seat;
  const winner = over && state.winner === seat;
  const finals = list(state.final_scores);

  const chips = [];
  if (state.first_player === seat) chips.push(el("span", { class: "rb-chip", title: "first player (turn order goes up from here)" }, "1st"));
  if (turnOf) chips.push(el("span", { class: "rb-chip rb-chip-turn" }, toMove === seat ? "To move" : "Their turn"));
  if (winner) chips.push(el("span", { class: "rb-chip rb-chip-win" }, "Winner"));
  if (state.observer === seat) chips.push(el("span", { class: "rb-chip" }, "View"));

  const prepSpaces = [];
  for (let k = 0; k < Math.max(R.maxPrepared, prepared.length); k += 1) {
    const tile = prepared[k];
    prepSpaces.push(typeof tile === "string"
      ? tileEl(tile, { ready: affordability(p, tile) })
      : el("div", { class: "rb-space", title: `empty discovery space: shows ${plural(R.coinsPerEmptySpace, "coin")}` },
        el("span", { class: "rb-coin" }, String(R.coinsPerEmptySpace))));
  }
  const doneSpaces = [];
  for (let k = 0; k < Math.max(R.completedSpaces, completed.length); k += 1) {
    const tile = completed[k];
    if (typeof tile === "string") doneSpaces.push(tileEl(tile, { done: true }));
    else {
      const coins = R.completedSpaceCoins(k);
      doneSpaces.push(el("div", { class: "rb-space rb-space-small", title: coins ? `${ordinal(k)} completed space: ${plural(coins, "coin")} until covered` : `completed space ${k + 1}` },
        coins ? el("span", { class: "rb-coin" }, String(coins)) : el("span", { class: "rb-space-num" }, String(k + 1))));
    }
  }

  const cardEls = cards.filter((x) => !x.blind).map((x) => cardEl(x.card, { counts }));
  const blindShown = cards.filter((x) => x.blind);
  const blindEl = el("div", { class: "rb-blind", dataset: hook("blind", seat), title: "cards taken blind from the deck" },
    hidden > 0
      ? el("div", { class: "rb-card rb-card-back", title: `${plural(hidden, "card")} taken blind, hidden from you` },
        el("b", null, `×${hidden}`), el("span", null, "blind"))
      : null,
    !hidden && !blindShown.length ? el("span", { class: "rb-empty rb-blind-none" }, "no blind cards") : null,
    blindShown.map((x) => cardEl(x.card, { counts, blind: true })));

  const symbols = Object.entries(counts).filter(([, n]) => n > 0);
  let finalLine = null;
  if (over && typeof finals[seat] === "number") {
    const extra = finals[seat] - (p.points || 0);
    finalLine = el("div", { class: "rb-finalline" }, `Final ${finals[seat]} = ${p.points || 0} in play + ${extra} (Missions and kept Die cards)`);
  }

  return el("section", {
    class: `rb-player rb-seat${seat}${turnOf ? " rb-player-turn" : ""}${winner ? " rb-player-win" : ""}`,
    dataset: { seat },
  },
  el("header", { class: "rb-player-head" },
    el("div", { class: "rb-player-id" },
      el("b", null, seatLabel(ctx, seat)),
      el("span", { class: "rb-character", title: `board ${board ?? "?"}: ${character}` }, `${character.split(" / ")[0]} · board ${board ?? "?"}`)),
    el("div", { class: "rb-player-chips" }, chips),
    el("div", { class: "rb-points", dataset: hook("points", seat), title: "points scored in play" },
      el("b", null, String(typeof p.points === "number" ? p.points : 0)), el("span", null, "pts"))),
  finalLine,
  el("div", { class: "rb-player-stats" },
    el("span", { class: `rb-torch ${p.torch_lit ? "rb-torch-lit" : "rb-torch-out"}`, dataset: hook("torch", seat), title: p.torch_lit ? "torch lit: may replace one tool once" : "torch unlit" },
      el("span", { class: "rb-flame" }), p.torch_lit ? "Torch lit" : "Torch unlit"),
    el("span", { class: "rb-stat", title: "coins now visible on the board (1 point each per completion)" }, el("span", { class: "rb-coin" }, String(coinsVisible(p))), "coins visible"),
    fav ? el("span", { class: "rb-stat", title: "favourite tool: +1 point per token used" }, "Favourite ", toolChip(fav, null, null, { label: true, fav: true })) : null),
  el("div", { class: "rb-backpack", dataset: hook("backpack", seat), title: `backpack: ${nTools}/${R.backpack} tools` },
    el("span", { class: "rb-mini-label rb-inline-label" }, `Backpack ${nTools}/${R.backpack}`),
    el("div", { class: "rb-backpack-tools" }, Object.entries(backpack).map(([tool, n]) => toolChip(tool, n, hook("tool", `${seat}:${tool}`), { label: true, fav: tool === fav })))),
  el("div", { class: "rb-area" },
    el("div", { class: "rb-mini-label" }, `Prepared ${prepared.length}/${R.maxPrepared}`),
    el("div", { class: "rb-prepared" }, prepSpaces)),
  el("div", { class: "rb-area" },
    el("div", { class: "rb-mini-label" }, `Completed ${completed.length}/${R.completedSpaces}`,
      symbols.length ? el("span", { class: "rb-symbols" }, symbols.map(([s, n]) => el("span", { class: `rb-sym rb-sym-${s}` }, `${R.symbolName(s)} ${n}`))) : null),
    el("div", { class: "rb-completed" }, doneSpaces)),
  el("div", { class: "rb-area" },
    el("div", { class: "rb-mini-label" }, `Expedition cards (${cards.length + hidden})`),
    el("div", { class: "rb-cards" }, cardEls, blindEl)));
}

/**
 * A full state seen by `seat`, the way the server's view makes it (codec.state_to_json with an
 * observer): the other players' blind cards and the deck become counts (nothing is hidden once
 * the game is over). A state that is already a view is returned as it is.
 */
function viewFor(state, seat) {
  if (!state || typeof state !== "object" || typeof state.observer === "number") return state;
  if (typeof seat !== "number" || seat < 0 || seat >= players(state).length) return state;
  if (isOver(state)) return { ...state, observer: seat };
  return {
    ...state,
    observer: seat,
    deck: Array.isArray(state.deck) ? state.deck.length : state.deck,
    players: players(state).map((p, i) => (i !== seat && Array.isArray(p.cards_blind) ? { ...p, cards_blind: p.cards_blind.length } : p)),
  };
}

/** Clear `root` and draw the board of `state` into it. */
export function render(root, state, ctx) {
  if (!R) throw new Error("the Legend Raiders board draws with the game's component data: call useComponents first");
  const c = normCtx(ctx);
  clear(root);
  // A full state drawn from a seat's point of view shows only what that seat sees.
  const s = viewFor(state && typeof state === "object" ? state : {}, c.seat);
  const toMove = seatToMove(s, c);
  const n = players(s).length;
  const board = el("div", { class: `rb-board rb-players-${n}`, dataset: { board: "legend_raiders" } },
    statusEl(s, c, toMove),
    commonEl(s),
    el("div", { class: "rb-players" }, players(s).map((_, seat) => playerEl(s, c, seat, toMove))));
  root.appendChild(board);
  // The best candidate stays marked while the position is analysed; the hovered move on top.
  if (c.best) markInvolved(board, involved(s, c.best), "rb-best");
  if (c.highlight) markInvolved(board, involved(s, c.highlight), "rb-hl");
  return board;
}
