// The analysis board. Every rule comes from the server: the states, legal moves, applied moves,
// seat views, analyses and bot moves are all answers of boardbot's public API (through the
// gateway of `boardbot web`); this page only keeps the game's history and draws it.

import {ApiError, analyzeStream, call, gameComponents, pageError} from "/static/api.js";
import * as generic from "/static/games/generic.js";

const BOARD_MODULES = {
  leda: "/static/games/leda.js",
  legend_raiders: "/static/games/legend_raiders.js",
};
const CHANCE = -1;
const TOP_K = 8;
const $ = (id) => document.getElementById(id);

const app = {
  games: {},          // name -> GameInfo of ListGames
  presets: [],        // preset names, weakest first
  boards: {},         // game -> board module (a promise), with its component data
  game: "",
  setup: null,        // {players, options, seed, manualChance}
  history: [],        // entries {state, summary, move, events, analysis, by}
  index: 0,
  pov: 0,             // a seat, or "all"
  moves: [],          // legal moves (or chance outcomes) of the shown position
  chanceForm: "",
  hover: null,        // move JSON highlighted
  analysis: null,     // {controller, started, first, frames, seat, index}
  mode: "analyse",    // "analyse" | "play" | "watch"
  play: {seat: 0, preset: "beginner"},
  watch: {bots: []},
  busy: false,        // a bot is thinking or a move is being applied
  showToken: 0,       // bumps on every position shown, so late answers are dropped
};

// ---------- errors ----------

function showError(error) {
  if (error?.name === "AbortError") return;
  const info = error instanceof ApiError ? error.info
    : {code: "ERROR", message: String(error?.message || error), field: "", json_path: "", reason: ""};
  $("error-code").textContent = info.code + (info.reason && info.reason !== info.code ? ` · ${info.reason}` : "");
  $("error-message").textContent = info.message;
  const where = [info.field && `field ${info.field}`, info.json_path && `at ${info.json_path}`]
    .filter(Boolean).join(", ");
  $("error-where").textContent = where;
  $("error-banner").hidden = false;
  console.warn("boardbot:", info);
}

function clearError() {
  $("error-banner").hidden = true;
}

async function guarded(action) {
  try {
    clearError();
    return await action();
  } catch (error) {
    showError(error);
    return undefined;
  }
}

// ---------- small helpers ----------

const entry = () => app.history[app.index];
const seatsOf = (e) => e.summary.num_players;
const toMove = (e) => e.summary.current_player;

function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (key === "dataset") Object.assign(node.dataset, value);
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (key === "class") node.className = value;
    else if (key === "style") Object.assign(node.style, value);  // CSSOM: allowed by the page's policy
    else node[key] = value;
  }
  node.append(...children.filter((c) => c !== null && c !== undefined));
  return node;
}

const pct = (x) => `${(100 * x).toFixed(1)}%`;
// A move's value (or lower bound) as a percentage; unset when the search did not try the move:
// "forced" for the only legal move the bot played without a search, else "–".
const valueText = (x, stats) => (x === undefined ? (stats?.stopped_by === "single_move" ? "forced" : "–") : pct(x));

function seatLabel(seat) {
  if (app.mode === "play") return seat === app.play.seat ? `You (seat ${seat})` : `${app.play.preset} (seat ${seat})`;
  if (app.mode === "watch") return `${app.watch.bots[seat] || "bot"} (seat ${seat})`;
  return `Seat ${seat}`;
}

function turnText(e) {
  const s = e.summary;
  if (s.terminal) {
    const winners = s.returns.map((r, i) => [r, i]).filter(([r]) => r > 0).map(([, i]) => seatLabel(i));
    return `Game over: ${winners.length ? winners.join(" and ") + " won" : "no winner"}`;
  }
  if (s.current_player === CHANCE) return "Chance step: pick or roll the outcome";
  return `${seatLabel(s.current_player)} to move`;
}

function seedFor(index) {
  // Each ply of the game has its own seed, so a replayed line gives the same dice and searches.
  return String(app.setup.seed * 1000 + index + 1);
}

async function loadBoard(game) {
  const module = BOARD_MODULES[game] ? await import(BOARD_MODULES[game]) : generic;
  // A board draws with its game's component data, fetched once from the gateway.
  if (module.useComponents) module.useComponents(await gameComponents(game));
  return module;
}

function boardModule(game) {
  if (!(game in app.boards)) {
    app.boards[game] = loadBoard(game).catch((error) => {
      delete app.boards[game];  // tried again when next needed
      throw error;
    });
  }
  return app.boards[game];
}

// ---------- start-up ----------

async function start() {
  wireControls();
  const listed = await guarded(() => call("ListGames", {}));
  if (!listed) return;
  for (const info of listed.games) app.games[info.name] = info;
  app.presets = listed.presets.map((p) => p.name);
  fillSelect($("game-select"), Object.keys(app.games));
  fillSelect($("setup-game"), Object.keys(app.games));
  fillSelect($("analysis-preset"), app.presets, "hard");
  fillSelect($("play-preset"), app.presets, "beginner");
  const first = app.games.leda ? "leda" : Object.keys(app.games)[0];
  $("game-select").value = first;
  await newGame(first, defaultSetup(first));
}

function fillSelect(select, values, chosen) {
  select.replaceChildren(...values.map((v) => el("option", {value: v, textContent: v})));
  if (chosen !== undefined && values.includes(chosen)) select.value = chosen;
}

function defaultSetup(game) {
  return {players: app.games[game].min_players, options: {}, seed: 1, manualChance: false};
}

function wireControls() {
  $("error-close").onclick = clearError;
  $("game-select").onchange = (e) => guarded(() => newGame(e.target.value, defaultSetup(e.target.value)));
  $("new-game-button").onclick = openSetup;
  $("setup-game").onchange = () => fillSetupOptions($("setup-game").value);
  $("setup-form").addEventListener("submit", onSetupSubmit);
  $("pov-select").onchange = (e) => {
    app.pov = e.target.value === "all" ? "all" : Number(e.target.value);
    guarded(showPosition);
  };
  $("first-button").onclick = () => goTo(0);
  $("back-button").onclick = () => goTo(app.index - 1);
  $("forward-button").onclick = () => goTo(app.index + 1);
  $("last-button").onclick = () => goTo(app.history.length - 1);
  document.addEventListener("keydown", (e) => {
    if (e.target.closest("input, textarea, select")) return;
    const keys = {ArrowLeft: app.index - 1, ArrowRight: app.index + 1, Home: 0, End: app.history.length - 1};
    if (e.key in keys) { e.preventDefault(); goTo(keys[e.key]); }
  });
  for (const tab of document.querySelectorAll("[data-tab]")) tab.onclick = () => selectTab(tab.dataset.tab);
  $("analysis-start").onclick = () => guarded(startAnalysis);
  $("analysis-stop").onclick = stopAnalysis;
  $("moves-filter").oninput = drawMoves;
  $("play-start").onclick = () => guarded(() => startPlay(false));
  $("play-new").onclick = () => guarded(() => startPlay(true));
  $("watch-start").onclick = () => guarded(startWatch);
  $("mode-stop").onclick = () => setMode("analyse");
  $("state-load").onclick = () => guarded(loadPastedState);
  $("state-download").onclick = downloadState;
  $("state-copy").onclick = () => navigator.clipboard?.writeText($("state-text").value);
}

function selectTab(name) {
  for (const tab of document.querySelectorAll("[data-tab]")) tab.classList.toggle("active", tab.dataset.tab === name);
  for (const panel of document.querySelectorAll("[data-panel]")) panel.hidden = panel.dataset.panel !== name;
}

// ---------- setting up a game ----------

function openSetup() {
  $("setup-game").value = app.game;
  fillSetupOptions(app.game, app.setup);
  $("setup-dialog").showModal();
}

function fillSetupOptions(game, current) {
  const info = app.games[game];
  const players = $("setup-players");
  players.min = info.min_players;
  players.max = info.max_players;
  players.value = current?.players ?? info.min_players;
  players.disabled = info.min_players === info.max_players;
  $("setup-seed").value = current?.seed ?? 1;
  $("setup-manual-chance").checked = current?.manualChance ?? false;
  const described = info.options_json || {};
  const box = $("setup-options");
  box.replaceChildren();
  for (const [name, option] of Object.entries(described)) {
    if (name === "players") continue;
    if (Array.isArray(option.choices)) {
      box.append(optionSelect(name, option.choices, current?.options?.[name] ?? option.default));
    } else if (Array.isArray(option.values) && String(option.type).startsWith("list of 2")) {
      const chosen = current?.options?.[name] || [];
      for (const seat of [0, 1]) {
        box.append(optionSelect(`${name}.${seat}`, ["random", ...option.values], chosen[seat] || "random",
                                `${name.replace(/s$/, "")} of seat ${seat}`));
      }
    } else if (name === "first_player") {
      const seats = Array.from({length: info.max_players}, (_, i) => String(i));
      box.append(optionSelect(name, ["random", ...seats], String(current?.options?.[name] ?? "random"), "first player"));
    }
  }
}

function optionSelect(name, values, chosen, label = name) {
  const select = el("select", {name, dataset: {option: name, testid: `setup-${name}`}});
  fillSelect(select, values.map(String), String(chosen));
  return el("label", {}, `${label} `, select);
}

function readSetup() {
  const game = $("setup-game").value;
  const options = {};
  const pairs = {};
  for (const select of $("setup-options").querySelectorAll("select")) {
    const [name, seat] = select.dataset.option.split(".");
    if (seat !== undefined) {
      (pairs[name] ||= [])[Number(seat)] = select.value;
    } else if (select.value !== "random") {
      options[name] = name === "first_player" ? Number(select.value) : select.value;
    }
  }
  for (const [name, chosen] of Object.entries(pairs)) {
    if (chosen.every((v) => v !== "random")) options[name] = chosen;
    else if (chosen.some((v) => v !== "random")) throw pageError("SETUP", `choose both ${name} or neither`, name);
  }
  const extra = $("setup-extra").value.trim();
  if (extra) {
    try {
      Object.assign(options, JSON.parse(extra));
    } catch (error) {
      throw pageError("SETUP", `more options: not JSON (${error.message})`, "options");
    }
  }
  return {
    game,
    setup: {
      players: Number($("setup-players").value),
      options,
      seed: Math.max(0, Math.floor(Number($("setup-seed").value) || 0)),
      manualChance: $("setup-manual-chance").checked,
    },
  };
}

function onSetupSubmit(event) {
  if (event.submitter?.value !== "start") return;
  event.preventDefault();
  guarded(async () => {
    const {game, setup} = readSetup();
    await newGame(game, setup);
    $("setup-dialog").close();
  });
}

async function newGame(game, setup) {
  stopAnalysis();
  const started = await call("NewGame", {
    game,
    options_json: setup.options,
    players: setup.players,
    seed: String(setup.seed),
    manual_chance: setup.manualChance,
  });
  app.game = game;
  app.setup = setup;
  $("game-select").value = game;
  app.history = [{state: started.state_json, summary: started.summary, move: null, events: started.chance_events, analysis: null, by: "setup"}];
  app.index = 0;
  fillSeatControls(started.summary.num_players);
  await showPosition();
}

function fillSeatControls(seats) {
  const pov = $("pov-select");
  const values = [...Array.from({length: seats}, (_, i) => String(i)), "all"];
  pov.replaceChildren(...values.map((v) => el("option", {value: v, textContent: v === "all" ? "everything (referee)" : `seat ${v}`})));
  if (app.pov !== "all" && app.pov >= seats) app.pov = 0;
  pov.value = String(app.pov);
  fillSelect($("play-seat"), Array.from({length: seats}, (_, i) => `seat ${i}`));
  $("play-seat").value = `seat ${Math.min(app.play.seat, seats - 1)}`;
  const box = $("watch-seats");
  box.replaceChildren();
  for (let seat = 0; seat < seats; seat++) {
    const select = el("select", {dataset: {seat: String(seat), testid: `watch-seat-${seat}`}});
    fillSelect(select, app.presets, seat === 0 ? "beginner" : "medium");
    box.append(el("label", {}, `Seat ${seat} `, select));
  }
}

// ---------- showing a position ----------

function goTo(index) {
  if (index < 0 || index >= app.history.length || index === app.index) return;
  stopAnalysis();
  app.index = index;
  guarded(showPosition);
}

async function showPosition() {
  const token = ++app.showToken;
  const e = entry();
  app.hover = null;
  const [view, moves] = await Promise.all([viewOf(e), movesOf(e)]);
  if (token !== app.showToken) return;
  app.moves = moves.moves;
  app.chanceForm = moves.chanceForm;
  e.view = view;
  await drawBoard();
  drawTurn();
  drawMoves();
  drawChance();
  drawAnalysis(e.analysis);
  drawEvalBars();
  drawHistory();
  $("state-text").value = JSON.stringify(e.state, null, 2);
  afterShown();
}

async function viewOf(e) {
  if (app.pov === "all") return e.state;
  e.views ||= {};
  if (!(app.pov in e.views)) {
    const seen = await call("ViewState", {game: app.game, state_json: e.state, seat: app.pov});
    e.views[app.pov] = seen.state_json;
  }
  return e.views[app.pov];
}

async function movesOf(e) {
  if (e.summary.terminal) return {moves: [], chanceForm: ""};
  if (!e.legal) {
    const listed = await call("LegalMoves", {game: app.game, state_json: e.state, seat: toMove(e)});
    e.legal = {moves: listed.moves, chanceForm: listed.chance_form || ""};
  }
  return e.legal;
}

async function drawBoard() {
  const e = entry();
  const module = await boardModule(app.game);
  const names = Array.from({length: seatsOf(e)}, (_, i) => seatLabel(i));
  module.render($("board"), e.view, {
    seat: app.pov === "all" ? null : app.pov,
    names,
    highlight: app.hover,
    toMove: toMove(e),
  });
}

function drawTurn() {
  const e = entry();
  $("turn-line").textContent = turnText(e);
  $("ply-line").textContent = `move ${app.index} of ${app.history.length - 1}`;
  $("back-button").disabled = app.index === 0;
  $("first-button").disabled = app.index === 0;
  $("forward-button").disabled = app.index === app.history.length - 1;
  $("last-button").disabled = app.index === app.history.length - 1;
  $("result-line").textContent = e.summary.terminal ? turnText(e) + ` · points ${e.summary.scores.join(" : ")}` : "";
}

function humanMayMove() {
  const e = entry();
  if (e.summary.terminal || app.busy) return false;
  if (toMove(e) === CHANCE) return app.mode !== "watch";
  if (app.mode === "watch") return false;
  if (app.mode === "play") return toMove(e) === app.play.seat;
  return true;
}

function drawMoves() {
  const filter = $("moves-filter").value.trim().toLowerCase();
  const list = $("moves-list");
  const enabled = humanMayMove() && toMove(entry()) !== CHANCE;
  list.replaceChildren(...app.moves
    .filter((m) => !filter || m.notation.toLowerCase().includes(filter))
    .map((m) => el("li", {}, el("button", {
      textContent: m.notation,
      disabled: !enabled,
      dataset: {notation: m.notation, testid: "move"},
      onmouseenter: () => highlight(m.move_json),
      onmouseleave: () => highlight(null),
      onclick: () => guarded(() => playMove(m)),
    }))));
}

function drawChance() {
  const e = entry();
  const panel = $("chance-panel");
  panel.hidden = toMove(e) !== CHANCE || e.summary.terminal;
  if (panel.hidden) return;
  const enabled = humanMayMove();
  const roll = el("button", {textContent: "Roll (the server draws)", class: "primary", disabled: !enabled,
                             dataset: {testid: "chance-roll"}, onclick: () => guarded(() => playMove(null))});
  panel.replaceChildren(el("strong", {textContent: "Chance step. "}), roll);
  if (app.moves.length) {
    const outcomes = el("div", {class: "outcomes"});
    for (const m of app.moves) {
      const p = m.probability === undefined ? "" : ` · ${pct(m.probability)}`;
      outcomes.append(el("button", {textContent: m.notation + p, disabled: !enabled,
                                    dataset: {testid: "chance-outcome", notation: m.notation},
                                    onclick: () => guarded(() => playMove(m))}));
    }
    panel.append(el("span", {textContent: " or pick the outcome:"}), outcomes);
  } else if (app.chanceForm) {
    const input = el("input", {type: "text", placeholder: "the outcome, as JSON or in notation", class: "chance-json",
                               dataset: {testid: "chance-text"}});
    const given = () => (input.value.trim().startsWith("{") ? {move_json: input.value} : {notation: input.value.trim()});
    panel.append(el("p", {textContent: app.chanceForm}), input,
                 el("button", {textContent: "Apply", disabled: !enabled, dataset: {testid: "chance-apply"},
                               onclick: () => guarded(() => playMove(given()))}));
  }
}

function drawHistory() {
  const list = $("history-list");
  list.replaceChildren(...app.history.map((h, i) => {
    const what = i === 0 ? "start" : (h.move?.notation ?? "chance");
    const events = h.events?.length ? ` · ${h.events.join(", ")}` : "";
    // The value the analysis of the position before gave the move played, when it has one.
    const weighed = i > 0 && h.move ? app.history[i - 1].analysis?.moves?.find((m) => m.move.notation === h.move.notation) : null;
    const value = weighed ? ` · ${valueText(weighed.value, app.history[i - 1].analysis.stats)}` : "";
    return el("li", {class: i === app.index ? "current" : ""},
      el("button", {textContent: `${i}. ${h.by && i ? h.by + ": " : ""}${what}${value}${events}`,
                    dataset: {testid: "history-entry"}, onclick: () => goTo(i)}));
  }));
}

async function highlight(moveJson) {
  app.hover = moveJson;
  await drawBoard();
}

// ---------- playing moves ----------

async function playMove(move) {
  if (app.busy) return;
  stopAnalysis();
  app.busy = true;
  drawMoves();  // nothing may be pressed while the move is applied: the list is about to change
  drawChance();
  try {
    const e = entry();
    const request = {game: app.game, state_json: e.state, seed: seedFor(app.index), manual_chance: app.setup.manualChance};
    if (move?.move_json !== undefined) request.move_json = move.move_json;
    else if (move?.notation !== undefined) request.notation = move.notation;
    const next = await call("ApplyMove", request);
    if (move?.analysis) e.analysis = move.analysis;  // the bot's view of the position it moved from
    push({state: next.state_json, summary: next.summary, move: next.move || null, events: next.chance_events,
          analysis: null, by: move?.by || (toMove(e) === CHANCE ? "chance" : "you")});
  } catch (error) {
    app.busy = false;
    drawMoves();
    drawChance();
    throw error;
  }
  app.busy = false;
  await showPosition();
}

function push(next) {
  app.history = app.history.slice(0, app.index + 1);
  app.history.push(next);
  app.index = app.history.length - 1;
}

// ---------- analysis ----------

function searchRequest(e) {
  const request = {game: app.game, state_json: e.state, seat: toMove(e), seed: seedFor(app.index), top_k: TOP_K};
  const iterations = Number($("analysis-iterations").value);
  const time = Number($("analysis-time").value);
  request.preset = $("analysis-preset").value;
  const settings = {};
  if (iterations > 0) settings.iterations = Math.floor(iterations);
  if (time > 0) settings.time_ms = time;
  if (Object.keys(settings).length) request.settings = settings;
  return request;
}

async function startAnalysis() {
  const e = entry();
  if (e.summary.terminal || toMove(e) === CHANCE) {
    throw pageError("NOTHING_TO_ANALYSE",
                    e.summary.terminal ? "the game is over" : "a chance step: roll or pick the outcome first");
  }
  stopAnalysis();
  const run = {controller: new AbortController(), started: performance.now(), first: null, frames: 0, index: app.index};
  app.analysis = run;
  drawAnalysis(null);  // the last analysis's figures go: what follows is this one's
  $("analysis-start").disabled = true;
  $("analysis-stop").disabled = false;
  try {
    await analyzeStream({analysis: searchRequest(e), every_ms: 100}, (partial) => {
      if (app.analysis !== run) return;
      run.frames += 1;
      run.first ??= performance.now();
      partial.timing = {firstMs: run.first - run.started, frames: run.frames, seconds: (performance.now() - run.first) / 1000};
      app.history[run.index].analysis = partial;
      if (app.index === run.index) { drawAnalysis(partial); drawEvalBars(); }
    }, run.controller.signal);
  } finally {
    if (app.analysis === run) {
      app.analysis = null;
      $("analysis-start").disabled = false;
      $("analysis-stop").disabled = true;
      if (app.index === run.index) drawHistory();
    }
  }
}

function stopAnalysis() {
  const run = app.analysis;
  if (!run) return;
  app.analysis = null;
  run.controller.abort();
  $("analysis-start").disabled = false;
  $("analysis-stop").disabled = true;
}

function drawAnalysis(analysis) {
  const body = $("candidates-body");
  const rows = analysis?.moves || [];
  const most = Math.max(1, ...rows.map((m) => Number(m.visits)));
  const playable = humanMayMove();
  body.replaceChildren(...rows.map((m) => {
    const visits = Number(m.visits);
    const row = el("tr", {dataset: {testid: "candidate", notation: m.move.notation}, class: playable ? "playable" : "",
                          onmouseenter: () => { highlight(m.move.move_json); drawPv(m); },
                          onmouseleave: () => { highlight(null); drawPv(rows[0]); },
                          onclick: () => playable && guarded(() => playMove(m.move))},
      el("td", {textContent: String(m.rank)}),
      el("td", {class: "notation", textContent: m.move.notation}),
      el("td", {class: "visits"}, el("div", {class: "bar", style: {width: `${(100 * visits / most).toFixed(1)}%`}}),
         el("span", {textContent: visits.toLocaleString()})),
      el("td", {textContent: valueText(m.value, analysis.stats)}),
      el("td", {textContent: valueText(m.lower_bound, analysis.stats)}));
    return row;
  }));
  drawPv(rows[0]);
  const stats = analysis?.stats;
  const parts = [];
  if (stats) {
    const iterations = Number(stats.iterations);
    const seconds = Number(stats.elapsed_ms) / 1000;
    parts.push(`${iterations.toLocaleString()} iterations`, `${seconds.toFixed(1)} s`);
    if (seconds > 0) parts.push(`${Math.round(iterations / seconds).toLocaleString()}/s`);
    if (analysis.final) parts.push(`done (${stats.stopped_by})`);
    if (analysis.chosen) parts.push(`the bot played ${analysis.chosen}`);
  }
  const timing = analysis?.timing;
  if (timing) {
    parts.push(`first candidates after ${Math.round(timing.firstMs)} ms`);
    if (timing.seconds > 0.5) parts.push(`${((timing.frames - 1) / timing.seconds).toFixed(1)} updates/s`);
  }
  $("analysis-stats").textContent = parts.join(" · ");
  const s = $("analysis-stats");
  s.dataset.firstMs = timing ? String(Math.round(timing.firstMs)) : "";
  s.dataset.frames = timing ? String(timing.frames) : "";
  s.dataset.rate = timing && timing.seconds > 0 ? String((timing.frames - 1) / timing.seconds) : "";
  s.dataset.final = analysis?.final ? "true" : "false";
}

function drawPv(m) {
  $("pv-line").replaceChildren(...(m ? [el("span", {class: "pv-label", textContent: "line: "}),
    ...m.principal_variation.map((n, i) => el("span", {class: i ? "pv-move" : "pv-move first", textContent: n}))] : []));
}

function evalEstimates() {
  // The latest estimate of each seat along the line up to the shown position: the best
  // candidate's value at that seat's last analysed turn; in a two-seat game the other seat's
  // share is the rest.
  const seats = seatsOf(entry());
  const found = new Array(seats).fill(null);
  for (let i = app.index; i >= 0; i--) {
    const h = app.history[i];
    const seat = h.summary.current_player;
    const best = h.analysis?.moves?.[0];
    if (best?.value !== undefined && seat >= 0 && found[seat] === null) found[seat] = Number(best.value);
  }
  if (seats === 2) {
    if (found[0] === null && found[1] !== null) found[0] = 1 - found[1];
    if (found[1] === null && found[0] !== null) found[1] = 1 - found[0];
  }
  const e = entry();
  if (e.summary.terminal) return e.summary.returns.map((r) => (r > 0 ? 1 : 0));
  return found;
}

function drawEvalBars() {
  const box = $("eval-bars");
  const estimates = evalEstimates();
  box.replaceChildren(...estimates.map((v, seat) => el("div", {class: `eval-bar seat-${seat}`, title: `${seatLabel(seat)}: ${v === null ? "not analysed yet" : pct(v)} to win`,
                                                           dataset: {testid: `eval-${seat}`, value: v === null ? "" : v.toFixed(3)}},
    el("div", {class: "fill", style: {height: `${v === null ? 0 : (100 * v).toFixed(1)}%`}}),
    el("span", {class: "eval-label", textContent: v === null ? "–" : `${Math.round(100 * v)}`}),
    el("span", {class: "eval-seat", textContent: `S${seat}`}))));
}

// ---------- play and watch ----------

function setMode(mode) {
  app.mode = mode;
  const lines = {
    analyse: "Analysis mode: you move every seat.",
    play: `Playing seat ${app.play.seat} against ${app.play.preset}.`,
    watch: `Watching ${app.watch.bots.join(" vs ")}.`,
  };
  $("mode-line").textContent = lines[mode];
  guarded(showPosition);
}

async function startPlay(fresh) {
  app.play = {seat: Number($("play-seat").value.split(" ")[1]), preset: $("play-preset").value};
  if (fresh) await newGame(app.game, {...app.setup, seed: app.setup.seed + 1});
  app.pov = app.play.seat;
  $("pov-select").value = String(app.pov);
  setMode("play");
}

async function startWatch() {
  app.watch = {bots: [...$("watch-seats").querySelectorAll("select")].map((s) => s.value)};
  setMode("watch");
}

function afterShown() {
  const e = entry();
  if (e.summary.terminal || app.busy || app.index !== app.history.length - 1) return;
  const seat = toMove(e);
  if (app.mode === "watch" && seat === CHANCE) {
    schedule(() => playMove(null));
  } else if (app.mode === "watch" && seat >= 0) {
    schedule(() => botMove(app.watch.bots[seat]));
  } else if (app.mode === "play" && seat >= 0 && seat !== app.play.seat) {
    schedule(() => botMove(app.play.preset), 0);
  }
}

function schedule(action, delay = Number($("watch-delay").value) || 0) {
  const token = app.showToken;
  setTimeout(() => {
    if (token === app.showToken && app.mode !== "analyse") guarded(action);
  }, delay);
}

async function botMove(preset) {
  const e = entry();
  const seat = toMove(e);
  $("turn-line").textContent = `${seatLabel(seat)} is thinking…`;
  const chosen = await call("ChooseMove", {game: app.game, state_json: e.state, seat, preset,
                                          seed: seedFor(app.index), top_k: TOP_K});
  if (entry() !== e) return;
  // Kept for review: what the bot weighed, best first (its move among them when it is that high).
  const weighed = chosen.candidates?.length ? chosen.candidates : [chosen.analysis].filter(Boolean);
  const analysis = weighed.length ? {moves: weighed, stats: chosen.stats, final: true, chosen: chosen.move.notation} : null;
  await playMove({move_json: chosen.move.move_json, analysis, by: preset});
}

// ---------- the state as JSON ----------

async function loadPastedState() {
  const text = $("state-text").value;
  const seen = await call("ViewState", {game: app.game, state_json: text, seat: 0});
  const state = JSON.parse(text);
  stopAnalysis();
  app.history = [{state, summary: seen.summary, move: null, events: [], analysis: null, by: "pasted"}];
  app.index = 0;
  fillSeatControls(seen.summary.num_players);
  await showPosition();
}

function downloadState() {
  const blob = new Blob([JSON.stringify(entry().state, null, 2)], {type: "application/json"});
  const link = el("a", {href: URL.createObjectURL(blob), download: `${app.game}-move-${app.index}.json`});
  link.click();
  URL.revokeObjectURL(link.href);
}

window.boardbot = app;  // for the console and the tests
start();
