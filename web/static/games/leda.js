// LEDA board renderer: draws a LEDA state JSON (full state or a seat's view) into an element.
// Pure ES2020 module, no dependency. Styles: boards.css (classes prefixed "lb-").
//
// Highlightable elements carry data-kind / data-id:
//   square  "<seat>:r<row>c<col>"   a square of a seat's grid
//   card    "<card id>"             a clan card in a hand (or known in a hidden hand) or the top card of a square
//   zone    "<zone id>"             a zone of the current Action tile (chips; the zone's squares are outlined)
//   action  "<action tile id>"      a revealed Action tile
//   pile    "actions" | "mv" | "<seat>:deck"
//   hand    "<seat>"                a seat's hand
//   food    "<seat>"                a seat's Food
//   mv      "<mv token id>"         an MV token won by a player
//   option  "1" | "2"               the branches of a pending "A or B" choice

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
  uniqueItems,
} from "./dom.js";
import { ledaData } from "./leda_data.js";

export const gameName = "leda";

const PILE_NAMES = ["deck", "actions", "mv"];

/** The lookups over LEDA's component data (`useComponents`), or null before it came. */
let L = null;

/** Take the component data the gateway serves (GET /api/games/leda/components). */
export function useComponents(data) {
  L = ledaData(data);
}

// --------------------------------------------------------------------------- state reading

function players(state) {
  return state && Array.isArray(state.players) ? state.players : [];
}

function pending(state) {
  return state && Array.isArray(state.pending) ? state.pending : [];
}

function topFrame(state) {
  const p = pending(state);
  return p.length ? p[p.length - 1] : null;
}

function frameArgs(frame) {
  return frame && Array.isArray(frame.args) ? frame.args : [];
}

function grid(player) {
  const g = player && Array.isArray(player.grid) ? player.grid : [];
  const out = [];
  for (let i = 0; i < L.squares.length; i += 1) {
    const sq = g[i] || {};
    out.push({
      tile: typeof sq.tile === "string" ? sq.tile : "?",
      face: sq.face === "back" ? "back" : "front",
      cards: Array.isArray(sq.cards) ? sq.cards : [],
      token: sq.shark_token === true,
    });
  }
  return out;
}

function topCard(square) {
  return square.cards.length ? square.cards[square.cards.length - 1] : null;
}

function packAwake(squares, i) {
  if (!squares[i].token) return false;
  return L.neighbours(i).filter((n) => squares[n].token).length >= 2;
}

function mvSymbols(player) {
  const tokens = player && Array.isArray(player.mv_tokens) ? player.mv_tokens : [];
  return tokens.reduce((sum, t) => sum + L.mvInfo(t).symbols, 0);
}

/** Each victory condition of a player: [{label, have, need, detail}], MV first. */
function victoryProgress(player) {
  const clan = player && player.clan;
  const info = L.clan(clan) || { mv: 0 };
  const squares = grid(player);
  const tops = squares.map(topCard);
  const out = [{ label: "MV symbols", have: mvSymbols(player), need: info.mv, detail: "Military victory" }];
  if (clan === "cats") {
    const rings = tops.filter((c) => L.rings.includes(c));
    out.push({ label: "Rings in play", have: rings.length, need: 3, detail: info.goal });
  } else if (clan === "pandas") {
    const golds = L.golds.filter((c) => tops.includes(c));
    const names = golds.map((c) => L.cardInfo(c).label);
    out.push({
      label: "Gold Pandas", have: golds.length, need: L.golds.length,
      detail: `${info.goal}${names.length ? ` (in play: ${names.join(", ")})` : ""}`,
    });
  } else if (clan === "sharks") {
    const tokens = squares.filter((s) => s.token).length;
    const left = L.sharkTokens - tokens;
    out.push({ label: "Shark tokens", have: tokens, need: L.sharkTokens, detail: `${info.goal} (${left} left in supply)` });
  } else if (clan === "scorpions") {
    const portals = L.corners.filter((i) => L.portals.includes(tops[i])).length;
    out.push({ label: "Corner Portals", have: portals, need: L.corners.length, detail: info.goal });
  }
  return out;
}

function deserts(player) {
  return grid(player).filter((s) => !s.cards.length && s.face === "back" && !L.tileInfo(s.tile).permanent).length;
}

function upgraded(player) {
  return grid(player).filter((s) => !s.cards.length && s.face === "back" && L.tileInfo(s.tile).permanent).length;
}

function clanOf(state, seat) {
  const p = players(state)[seat];
  return p ? L.clanName(p.clan) : "?";
}

/** Seat to move: ctx.toMove when given, else read from the state. */
function seatToMove(state, ctx) {
  if (typeof ctx.toMove === "number") return ctx.toMove;
  if (state && (state.winner === 0 || state.winner === 1)) return -2;
  const top = topFrame(state);
  if (!top) return -2;
  return top.frame === "shuffle" ? -1 : top.seat;
}

// ------------------------------------------------------------------------------- pending text

function pileName(pile) {
  return { 0: "own deck", 1: "Action tile pile", 2: "MV token pile" }[pile] || "pile";
}

function ringsFromMask(mask) {
  return L.rings.filter((_, i) => (mask >> i) & 1).map((card) => L.cardInfo(card).label);
}

function maskSquares(mask) {
  const out = [];
  for (let i = 0; i < L.squares.length; i += 1) if ((mask >> i) & 1) out.push(i);
  return out;
}

/** What the top frame asks for, in words (without the seat). */
function frameText(frame, state) {
  if (!frame) return "nothing pending";
  const a = frameArgs(frame);
  const sq = (i) => (typeof i === "number" && i >= 0 && i < L.squares.length ? ` (on ${L.squares[i]})` : "");
  switch (frame.frame) {
    case "mulligan":
      return "mulligan: keep the starting hand, or shuffle it back and redraw";
    case "zone": {
      const tile = L.itemId(a[0]);
      const zones = L.actionZones(tile).map(L.zoneName).join(", ");
      return `choose the zone of ${tile ? L.actionName(tile) : "the Action tile"}: ${zones}`;
    }
    case "activate": {
      const left = maskSquares(a[0] || 0).length;
      const zone = state && state.zone ? L.zoneName(state.zone) : "the zone";
      return `activate the next square of ${zone} (${left} left, any order)`;
    }
    case "or":
      return `choose: 1 = ${L.effectText(a[0])} or 2 = ${L.effectText(a[1])}${sq(a[2])}`;
    case "upgrade":
      return a[0] ? "choose a tile to upgrade, then activate it" : "choose a tile to upgrade";
    case "flip":
      return "choose a Desert to flip back to its front";
    case "desert-effect":
      return "choose a Desert whose reminded effect to activate";
    case "spy-pile": {
      const excluded = typeof a[0] === "number" && a[0] >= 0 ? ` (not the ${pileName(a[0])} again)` : "";
      return `Spy: choose a pile to look at — own deck, Action tiles or MV tokens${excluded}${a[1] ? "; another Spy follows" : ""}`;
    }
    case "spy-put":
      return `Spy: put the seen top item of the ${pileName(a[0])} back on top or at the bottom`;
    case "place-token":
      return "choose a square without a token for a Shark token";
    case "activate-tile":
      return a[0] ? "choose one of your uncovered tiles to activate (a Desert may be picked), then upgrade it"
        : "choose one of your uncovered tiles to activate";
    case "retrigger":
      return "choose one of your MV tokens to trigger its effect again";
    case "mv-under":
      return "choose one of your MV tokens to put under the MV pile (then draw the top one)";
    case "copy":
      return "Copy: choose an opponent's square of the zone";
    case "ring-reveal":
      return "may reveal a Ring from hand (it goes under the deck) to draw an MV token";
    case "search-ring":
      return "take a Ring from the deck (the deck is then shuffled)";
    case "ring-rotate":
      return "may rotate one of your Cat cards";
    case "discount-play":
      return `may play a ${a[1] ? "Panda " : ""}card from hand at ${a[0] || 0} Food less`;
    case "pay-cards":
      return `pay the card cost: put ${plural(a[0] || 1, "more card")} from hand under the deck`;
    case "awaken":
      return "Awakening: swap an uncovered Bronze/Silver Panda for a Silver/Gold from hand (or take 1 Food)";
    case "queen":
      return "Gold Queen: choose another uncovered Panda card to activate";
    case "downgrade":
      return "Portal P2: turn one of your uncovered tiles to its worse face";
    case "swap":
      return "Portal P3: swap two of your squares";
    case "rings": {
      const rings = ringsFromMask(a[1] || 0).join(", ");
      return `may play ${rings || "Rings"} for free (${a[0] ? "after the conflict" : "end of the activation step"})`;
    }
    case "organization":
      return "Organization: play a card from hand, or take 1 Food (optionally swapping two squares first)";
    case "shuffle": {
      const what = ["the hand back into the deck (mulligan)", "the deck", "the Action tiles"][a[0]] || "a pile";
      return `shuffling ${what}`;
    }
    case "round":
      return "revealing the next Action tile";
    case "step":
    case "step-end":
      return "activation step";
    case "conflict":
      return "military conflict";
    case "round-end":
      return "end of the round";
    default:
      return frame.frame ? String(frame.frame).replace(/-/g, " ") : "pending work";
  }
}

// ------------------------------------------------------------------------------ involved()

function squareId(seat, index) {
  return `${seat}:${L.squares[index]}`;
}

function squareIndex(name) {
  return L.squares.indexOf(String(name));
}

/** True when render draws `card` as an element (a shown hand card, a known card of a hidden
 * hand, or the top card of a square). */
function cardShown(state, card) {
  for (const p of players(state)) {
    const hand = readHidden(p.hand);
    if (hand.visible ? hand.items.includes(card) : hand.known.some((k) => k.item === card)) return true;
    if (grid(p).some((sq) => topCard(sq) === card)) return true;
  }
  return false;
}

/** The board elements a move touches: [{kind, id}]. Unknown moves give []. */
export function involved(state, move) {
  if (!move || typeof move !== "object" || typeof move.type !== "string") return [];
  const top = topFrame(state);
  const frameSeat = top && (top.seat === 0 || top.seat === 1) ? top.seat : (state && state.active === 1 ? 1 : 0);
  const seat = frameSeat;
  const out = [];
  const sq = (s, name) => {
    if (squareIndex(name) >= 0) out.push({ kind: "square", id: `${s}:${name}` });
  };
  const topCardOf = (s, name) => {
    const i = squareIndex(name);
    const p = players(state)[s];
    if (i < 0 || !p) return;
    const c = topCard(grid(p)[i]);
    if (c) out.push({ kind: "card", id: c });
  };
  // A card from hand: the card when this state shows it, else the (hidden) hand holding it.
  const card = (c) => {
    if (typeof c !== "string") return;
    if (cardShown(state, c)) out.push({ kind: "card", id: c });
    else out.push({ kind: "hand", id: String(seat) });
  };
  const deck = (s) => out.push({ kind: "pile", id: `${s}:deck` });
  switch (move.type) {
    case "mulligan":
      out.push({ kind: "hand", id: String(seat) });
      if (move.redraw) deck(seat);
      break;
    case "zone":
      if (typeof move.zone === "string") out.push({ kind: "zone", id: move.zone });
      break;
    case "activate":
    case "upgrade":
    case "flip":
    case "token":
    case "activate-tile":
    case "desert":
    case "downgrade":
      sq(seat, move.square);
      break;
    case "rotate":
    case "queen":
      sq(seat, move.square);
      topCardOf(seat, move.square);
      break;
    case "copy":
      sq(1 - seat, move.square);
      topCardOf(1 - seat, move.square);
      break;
    case "choose": {
      if (move.option === 1 || move.option === 2) out.push({ kind: "option", id: String(move.option) });
      const a = frameArgs(top);
      if (top && top.frame === "or" && typeof a[2] === "number" && a[2] >= 0 && a[2] < L.squares.length) {
        out.push({ kind: "square", id: squareId(seat, a[2]) });
      }
      break;
    }
    case "spy":
      if (move.pile === "deck") deck(seat);
      else if (move.pile === "actions" || move.pile === "mv") out.push({ kind: "pile", id: move.pile });
      break;
    case "put": {
      const a = frameArgs(top);
      if (top && top.frame === "spy-put") {
        const pile = PILE_NAMES[a[0]];
        if (pile === "deck") deck(seat);
        else if (pile) out.push({ kind: "pile", id: pile });
      }
      break;
    }
    case "take":
      // A Ring searched out of the deck: the deck, and the card if it is shown somewhere.
      if (typeof move.card === "string" && cardShown(state, move.card)) out.push({ kind: "card", id: move.card });
      deck(seat);
      break;
    case "reveal":
    case "pay":
      card(move.card);
      deck(seat);
      break;
    case "retrigger":
      if (typeof move.token === "string") out.push({ kind: "mv", id: move.token });
      break;
    case "under":
      if (typeof move.token === "string") out.push({ kind: "mv", id: move.token });
      out.push({ kind: "pile", id: "mv" });
      break;
    case "awaken":
    case "ring":
    case "play":
      card(move.card);
      sq(seat, move.square);
      break;
    case "food":
      out.push({ kind: "food", id: String(seat) });
      break;
    case "swap":
      if (Array.isArray(move.squares)) for (const s of move.squares) sq(seat, s);
      if (top && top.frame === "organization") out.push({ kind: "food", id: String(seat) });
      break;
    case "shuffle": {
      const a = frameArgs(top);
      if (top && top.frame === "shuffle") {
        if (a[0] === 2) out.push({ kind: "pile", id: "actions" });
        else {
          deck(seat);
          if (a[0] === 0) out.push({ kind: "hand", id: String(seat) });
        }
      }
      break;
    }
    default:
      break;
  }
  return uniqueItems(out);
}

// --------------------------------------------------------------------------------- drawing

function clanClass(clan) {
  return L.clan(clan) ? `lb-clan-${clan}` : "lb-clan-unknown";
}

function backEl(count, label, hookAttrs, title, extra) {
  return el(
    "div",
    { class: "lb-pile", dataset: hookAttrs, title },
    el("div", { class: "lb-back" }, el("span", { class: "lb-back-count" }, String(count))),
    el("div", { class: "lb-pile-text" }, el("div", { class: "lb-pile-label" }, label), extra),
  );
}

/** A card as a chip (hand) — name, cost, effect; `where` adds a note (e.g. "known"). */
function cardChip(card, note) {
  const { cost, faces, label } = L.cardInfo(card);
  const clan = L.cardClan(card);
  const sub = [label, cost ? (cost === "Ring" ? "free" : cost === "Awakening" ? "by Awakening" : `cost ${cost}`) : null].filter(Boolean).join(" · ");
  let text = faces[0] || "—";
  if (clan === "sharks") text = `${faces[0] || "—"} | Pack: ${faces[1] || "—"}`;
  else if (clan === "cats" && faces[1]) text = `${faces[0]} | ${faces[1]}`;
  return el(
    "div",
    { class: `lb-card ${clanClass(clan)}`, dataset: hook("card", card), title: L.cardTitle(card) },
    el("div", { class: "lb-card-name" }, L.cardName(card).replace(/ \(.*\)$/, "")),
    sub ? el("div", { class: "lb-card-cost" }, sub) : null,
    el("div", { class: "lb-card-text" }, text),
    note ? el("div", { class: "lb-card-note" }, note) : null,
  );
}

function tileFaceText(square) {
  const info = L.tileInfo(square.tile);
  if (square.face === "front") return { state: "front", text: info.front, badge: null };
  if (info.permanent) return { state: "upgraded", text: info.back, badge: "★ Upgraded" };
  return { state: "desert", text: `reminds: ${info.front}`, badge: "Desert" };
}

/** The short name on a square: "Portal P2", "Red Ring", else "Shark 7". */
function gridCardName(card) {
  const { label } = L.cardInfo(card);
  if (label && (label.startsWith("Portal") || label.endsWith("Ring"))) return label;
  return L.cardName(card).replace(/ \(.*\)$/, "");
}

function squareEl(seat, i, squares, player, opts) {
  const square = squares[i];
  const info = L.tileInfo(square.tile);
  const face = tileFaceText(square);
  const name = L.squares[i];
  const classes = ["lb-square", `lb-tile-${info.kind || "unknown"}`, `lb-face-${face.state}`];
  if (opts.zone && opts.zone.includes(i)) classes.push("lb-inzone");
  if (opts.todo && opts.zone && opts.zone.includes(i)) classes.push(opts.todo.includes(i) ? "lb-todo" : "lb-done");
  if (opts.hlZone && opts.hlZone.includes(i)) classes.push("lb-hlzone");
  const rotated = Array.isArray(player.rotated) ? player.rotated : [];
  const card = topCard(square);
  const titleParts = [`${name} (${L.squareName(name)})`, `tile: ${info.name}, ${face.state === "front" ? "front" : face.badge}: ${face.text}`];
  if (opts.todo && opts.zone && opts.zone.includes(i)) titleParts.push(opts.todo.includes(i) ? "still to activate this round" : "activated (or nothing to activate)");
  const kids = [];
  if (card) {
    const clan = L.cardClan(card);
    const { faces } = L.cardInfo(card);
    let live = 0;
    let faceLabel = null;
    if (clan === "sharks") {
      live = packAwake(squares, i) ? 1 : 0;
      faceLabel = live ? "Pack" : null;
    } else if (clan === "cats" && rotated.includes(card)) {
      live = 1;
      faceLabel = "↻";
    }
    const liveText = faces[live] || "— (blank)";
    const under = square.cards.length - 1;
    titleParts.push(`top card: ${L.cardTitle(card)}`, `live: ${liveText}`);
    if (under > 0) titleParts.push(`covered: ${square.cards.slice(0, -1).map(L.cardName).join(", ")}`);
    kids.push(
      el("div", { class: `lb-sqcard ${clanClass(clan)}`, dataset: hook("card", card) },
        el("div", { class: "lb-sqcard-name" }, gridCardName(card),
          faceLabel ? el("span", { class: "lb-facelabel", title: faceLabel === "Pack" ? "Pack face is live" : "rotated: second face live" }, faceLabel) : null),
        el("div", { class: `lb-sqcard-text${faces[live] ? "" : " lb-blank"}` }, liveText)),
      el("div", { class: "lb-sqtile-mini" },
        under > 0 ? el("span", { class: "lb-under", title: "covered cards" }, `+${under}`) : null,
        `on ${info.name}${face.badge ? ` · ${face.badge.replace("★ ", "")}` : ""}`),
    );
  } else {
    kids.push(
      el("div", { class: "lb-sqtile-name" }, info.name),
      el("div", { class: "lb-sqtile-effect" }, face.text),
      face.badge ? el("div", { class: `lb-badge lb-badge-${face.state}` }, face.badge) : null,
    );
  }
  if (square.token) {
    titleParts.push("Shark token");
    kids.push(el("span", { class: "lb-token", title: "Shark token" }, "▲"));
  }
  return el("div", { class: classes.join(" "), dataset: hook("square", `${seat}:${name}`), title: titleParts.join("\n") }, kids);
}

function progressEl(item) {
  const pct = item.need > 0 ? Math.min(100, Math.round((100 * item.have) / item.need)) : 0;
  return el(
    "div",
    { class: `lb-progress${item.have >= item.need && item.need > 0 ? " lb-progress-done" : ""}`, title: item.detail },
    el("div", { class: "lb-progress-label" }, el("span", null, item.label), el("b", null, `${item.have}/${item.need}`)),
    el("div", { class: "lb-progress-bar" }, el("div", { class: "lb-progress-fill", style: { width: `${pct}%` } })),
  );
}

function handEl(seat, player) {
  const hand = readHidden(player.hand);
  const kids = [];
  if (hand.visible) {
    if (!hand.items.length) kids.push(el("div", { class: "lb-empty" }, "empty"));
    for (const c of hand.items) kids.push(cardChip(c));
  } else {
    const unknown = hand.count - hand.known.length;
    kids.push(
      el("div", { class: "lb-card lb-card-back", title: `${plural(hand.count, "card")} in hand, hidden from you` },
        el("div", { class: "lb-back-big" }, `×${hand.count}`),
        el("div", { class: "lb-card-note" }, unknown === hand.count ? "hidden" : `${unknown} unknown`)),
    );
    for (const k of hand.known) kids.push(cardChip(k.item, "known to you"));
  }
  return el(
    "div",
    { class: "lb-hand-wrap" },
    el("div", { class: "lb-section-label" }, `Hand (${hand.count})`),
    el("div", { class: "lb-hand", dataset: hook("hand", seat) }, kids),
  );
}

function ledaMvShort(token) {
  return L.mvName(token).replace(/:.*$/, "");
}

function pileExtra(pile, nameOf) {
  if (pile.visible) {
    if (!pile.items.length) return el("div", { class: "lb-pile-note" }, "empty");
    return el("div", { class: "lb-pile-note" }, `next: ${nameOf(pile.items[0])}`);
  }
  if (!pile.known.length) return null;
  return el("div", { class: "lb-pile-note" },
    pile.known.map((k) => `${k.index === null ? "?" : ordinal(k.index)}: ${nameOf(k.item)}`).join(" · "));
}

function pileTitle(pile, label, nameOf) {
  if (pile.visible) return `${label}: ${plural(pile.count, "item")}, top first: ${pile.items.map(nameOf).join(", ") || "—"}`;
  const known = pile.known.map((k) => `${k.index === null ? "?" : ordinal(k.index)} from the top: ${nameOf(k.item)}`);
  return `${label}: ${plural(pile.count, "item")} face down${known.length ? `; known: ${known.join(", ")}` : ""}`;
}

function seatEl(state, ctx, seat, opts) {
  const player = players(state)[seat] || {};
  const clan = player.clan;
  const squares = grid(player);
  const toMove = opts.toMove;
  const active = state.active === seat;
  const winner = state.winner === seat;
  const badges = [];
  if (active) badges.push(el("span", { class: "lb-chip lb-chip-active", title: "active player of this round (acts first)" }, "Active"));
  if (toMove === seat) badges.push(el("span", { class: "lb-chip lb-chip-tomove" }, "To move"));
  if (winner) badges.push(el("span", { class: "lb-chip lb-chip-winner" }, "Winner"));
  if (state.observer === seat || (state.observer == null && ctx.seat === seat)) {
    badges.push(el("span", { class: "lb-chip lb-chip-you", title: "the point of view" }, "View"));
  }
  const food = typeof player.food === "number" ? player.food : 0;
  const military = typeof player.military === "number" ? player.military : 0;
  const specials = typeof player.specials === "number" ? player.specials : 0;
  const deck = readHidden(player.deck);
  const tokens = Array.isArray(player.mv_tokens) ? player.mv_tokens : [];

  const stats = el(
    "div",
    { class: "lb-stats" },
    el("div", { class: "lb-stat lb-stat-food", dataset: hook("food", seat), title: "Food" },
      el("span", { class: "lb-stat-label" }, "Food"), el("b", null, String(food))),
    el("div", { class: "lb-stat lb-stat-mil", title: "Military gained this round (for the conflict)" },
      el("span", { class: "lb-stat-label" }, "Military"), el("b", null, String(military))),
    specials ? el("div", { class: "lb-stat", title: "special activations queued for the end of the step" },
      el("span", { class: "lb-stat-label" }, "Specials"), el("b", null, String(specials))) : null,
    el("div", { class: "lb-stat", title: "uncovered Deserts / upgraded tiles" },
      el("span", { class: "lb-stat-label" }, "Deserts"), el("b", null, String(deserts(player))),
      el("span", { class: "lb-stat-label" }, "Upgr."), el("b", null, String(upgraded(player)))),
    state.zone ? el("div", { class: "lb-stat lb-stat-zone", title: "zone activated this round (outlined)" },
      el("span", { class: "lb-stat-label" }, "Zone"), el("b", null, L.zoneName(state.zone))) : null,
  );

  const victory = el("div", { class: "lb-victory" }, victoryProgress(player).map(progressEl));

  const gridEl = el(
    "div",
    { class: "lb-grid", role: "grid", "aria-label": `${L.clanName(clan)} grid` },
    squares.map((_, i) => squareEl(seat, i, squares, player, {
      zone: opts.zoneSquares,
      todo: opts.todo && opts.todo.seat === seat ? opts.todo.squares : null,
      hlZone: opts.hlZone,
    })),
  );

  const mvEl = el(
    "div",
    { class: "lb-mv-wrap" },
    el("div", { class: "lb-section-label" }, `MV tokens won (${tokens.length}) · ${mvSymbols(player)}★`),
    el("div", { class: "lb-mv-list" },
      tokens.length ? tokens.map((t) => el("span", { class: "lb-mv", dataset: hook("mv", t), title: L.mvName(t) },
        el("b", null, `${L.mvInfo(t).symbols}★`), L.mvInfo(t).effect ? ` ${L.mvInfo(t).effect}` : "")) :
        el("span", { class: "lb-empty" }, "none")),
  );
  const deckEl = backEl(deck.count, "Deck", hook("pile", `${seat}:deck`),
    pileTitle(deck, "Deck", L.cardName), pileExtra(deck, L.cardName));

  return el(
    "section",
    {
      class: `lb-seat ${clanClass(clan)}${active ? " lb-seat-active" : ""}${toMove === seat ? " lb-seat-tomove" : ""}`,
      dataset: { seat },
    },
    el("header", { class: "lb-seat-head" },
      el("div", { class: "lb-seat-name" },
        el("span", { class: "lb-clan-dot" }),
        el("b", null, L.clanName(clan)),
        el("span", { class: "lb-seat-label" }, seatLabel(ctx, seat))),
      el("div", { class: "lb-badges" }, badges)),
    victory,
    stats,
    gridEl,
    handEl(seat, player),
    el("div", { class: "lb-seat-foot" }, deckEl, mvEl),
  );
}

function zoneDiagram(zone) {
  const cells = L.zoneSquares(zone) || [];
  return el("span", { class: "lb-zone-mini", "aria-hidden": "true" },
    L.squares.map((_, i) => el("span", { class: cells.includes(i) ? "lb-on" : "" })));
}

function sharedEl(state) {
  const actions = readHidden(state.action_pile);
  const revealed = Array.isArray(state.revealed_actions) ? state.revealed_actions : [];
  const current = revealed.length ? revealed[revealed.length - 1] : null;
  const mvPile = readHidden(state.mv_pile);

  const revealedEls = revealed.map((t, k) =>
    el("div", {
      class: `lb-action${t === current ? " lb-action-current" : ""}`,
      dataset: hook("action", t),
      title: `${L.actionName(t)}: ${(L.actionZones(t)).map(L.zoneName).join(", ")}${t === current ? " (this round)" : ""}`,
    }, el("b", null, L.actionName(t).replace("Action ", "#"))));

  const zoneChips = current
    ? (L.actionZones(current)).map((z) =>
      el("div", {
        class: `lb-zone-chip${state.zone === z ? " lb-zone-chosen" : ""}`,
        dataset: hook("zone", z),
        title: `${L.zoneName(z)}${state.zone === z ? " — chosen this round" : ""}`,
      }, zoneDiagram(z), el("span", null, L.zoneName(z)), state.zone === z ? el("b", { class: "lb-chosen" }, "✓") : null))
    : [];

  return el(
    "div",
    { class: "lb-shared" },
    backEl(actions.count, "Action tiles", hook("pile", "actions"), pileTitle(actions, "Action tile pile", L.actionName),
      pileExtra(actions, L.actionName)),
    el("div", { class: "lb-revealed", title: "Action tiles revealed since the last shuffle (the last one is this round's)" },
      el("div", { class: "lb-mini-label" }, `Revealed ${revealed.length}/${L.actionTiles.length - 1}`),
      el("div", { class: "lb-revealed-list" }, revealedEls.length ? revealedEls : el("span", { class: "lb-empty" }, "none"))),
    current ? el("div", { class: "lb-zones" },
      el("div", { class: "lb-mini-label" }, `Zones of ${L.actionName(current)}`),
      el("div", { class: "lb-zone-list" }, zoneChips)) : null,
    el("div", { class: "lb-shared-mv" },
      backEl(mvPile.count, "MV tokens", hook("pile", "mv"), pileTitle(mvPile, "MV token pile", L.mvName), pileExtra(mvPile, ledaMvShort)),
      state.mv_blocked ? el("div", { class: "lb-chip lb-chip-warn", title: "Portal P4 resolved this round" }, "No MV token this round") : null),
  );
}

function winReason(state, seat) {
  const p = players(state)[seat];
  if (!p) return "";
  const prog = victoryProgress(p);
  const met = prog.filter((x) => x.need > 0 && x.have >= x.need);
  if (!met.length) return "";
  return met.map((x) => (x.label === "MV symbols" ? `military victory (${x.have} MV symbols, ${x.need} needed)` : `clan victory (${x.label} ${x.have}/${x.need})`)).join(" and ");
}

function statusEl(state, ctx, toMove) {
  const top = topFrame(state);
  const over = state.winner === 0 || state.winner === 1;
  const rows = [];
  if (over) {
    const w = state.winner;
    const reason = winReason(state, w);
    rows.push(el("div", { class: "lb-status-main lb-status-over" },
      el("b", null, "Game over — "), `winner: ${clanOf(state, w)} — ${seatLabel(ctx, w)}${reason ? `, by ${reason}` : ""}`));
  } else if (toMove === -2) {
    rows.push(el("div", { class: "lb-status-main lb-status-over" }, el("b", null, "Game over")));
  } else if (toMove === -1 || (top && top.frame === "shuffle")) {
    const whose = top && top.frame === "shuffle" && frameArgs(top)[0] !== 2 && typeof top.seat === "number"
      ? ` of ${clanOf(state, top.seat)} — ${seatLabel(ctx, top.seat)}` : "";
    rows.push(el("div", { class: "lb-status-main" }, el("b", null, "Chance: "), `${frameText(top, state)}${whose}`));
  } else {
    const seat = top && typeof top.seat === "number" ? top.seat : toMove;
    rows.push(el("div", { class: "lb-status-main" },
      el("span", { class: `lb-turn-dot ${clanClass((players(state)[seat] || {}).clan)}` }),
      el("b", null, `${clanOf(state, seat)} — ${seatLabel(ctx, seat)} to decide: `),
      frameText(top, state)));
  }
  const a = frameArgs(top);
  if (!over && top && top.frame === "or") {
    rows.push(el("div", { class: "lb-options" },
      [1, 2].map((n) => el("span", { class: "lb-option", dataset: hook("option", n), title: `option ${n}` },
        el("b", null, `${n}`), L.effectText(a[n - 1])))));
  }
  const info = [];
  if (state.active === 0 || state.active === 1) info.push(`active player this round: ${clanOf(state, state.active)} — ${seatLabel(ctx, state.active)}`);
  if (state.zone) info.push(`zone ${L.zoneName(state.zone)}`);
  const phase = pending(state).find((f) => ["round", "organization", "conflict", "step", "step-end", "mulligan"].includes(f.frame));
  if (!over && phase) {
    const p = pending(state);
    const phaseName = p.some((f) => f.frame === "mulligan") ? "setup (mulligans)"
      : p.some((f) => f.frame === "step-end" || f.frame === "step") ? "activation"
        : p.some((f) => f.frame === "conflict") ? "activation"
          : p.some((f) => f.frame === "organization") ? "organization" : "between rounds";
    info.push(`phase: ${phaseName}`);
  }
  if (state.observer === 0 || state.observer === 1) info.push(`view of ${seatLabel(ctx, state.observer)}`);
  else info.push("full state");
  rows.push(el("div", { class: "lb-status-info" }, info.join(" · ")));
  return el("div", { class: "lb-status" }, rows);
}

/**
 * A full state seen by `seat`, the way the server's view makes it (codec.state_to_json with an
 * observer): the other hand and every deck and pile become {count, known} with what `seat`
 * knows (its `knows` list). A state that is already a view is returned as it is.
 */
function viewFor(state, seat) {
  if (!state || typeof state !== "object" || (state.observer !== null && state.observer !== undefined)) return state;
  if (seat !== 0 && seat !== 1) return state;
  const ps = players(state);
  const knows = new Set(ps[seat] && Array.isArray(ps[seat].knows) ? ps[seat].knows : []);
  const hidePile = (pile) => {
    if (!Array.isArray(pile)) return pile;
    return { count: pile.length, known: pile.map((item, index) => ({ index, item })).filter((k) => knows.has(k.item)) };
  };
  const out = { ...state, observer: seat, action_pile: hidePile(state.action_pile), mv_pile: hidePile(state.mv_pile) };
  out.players = ps.map((p, i) => {
    const q = { ...p, deck: hidePile(p.deck) };
    delete q.knows;
    if (i !== seat && Array.isArray(p.hand)) q.hand = { count: p.hand.length, known: p.hand.filter((c) => knows.has(c)) };
    return q;
  });
  return out;
}

/** Clear `root` and draw the board of `state` into it. */
export function render(root, state, ctx) {
  if (!L) throw new Error("the LEDA board draws with the game's component data: call useComponents first");
  const c = normCtx(ctx);
  clear(root);
  // A full state drawn from a seat's point of view shows only what that seat sees.
  const s = viewFor(state && typeof state === "object" ? state : {}, c.seat);
  const toMove = seatToMove(s, c);
  const top = topFrame(s);
  const zoneSquares = s.zone ? L.zoneSquares(s.zone) : null;
  let todo = null;
  if (top && top.frame === "activate") todo = { seat: top.seat, squares: maskSquares(frameArgs(top)[0] || 0) };
  const hl = c.highlight ? involved(s, c.highlight) : [];
  const hlZoneItem = hl.find((it) => it.kind === "zone");
  const hlZone = hlZoneItem ? L.zoneSquares(hlZoneItem.id) : null;
  const opts = { toMove, zoneSquares, todo, hlZone };
  const board = el(
    "div",
    { class: "lb-board", dataset: { board: "leda" } },
    statusEl(s, c, toMove),
    sharedEl(s),
    el("div", { class: "lb-seats" }, players(s).map((_, seat) => seatEl(s, c, seat, opts))),
  );
  root.appendChild(board);
  // The best candidate stays marked while the position is analysed; the hovered move on top.
  if (c.best) markInvolved(board, involved(s, c.best), "lb-best");
  markInvolved(board, hl, "lb-hl");
  return board;
}
