// The analysis board. Every rule comes from the server: the states, legal moves, applied moves,
// seat views, analyses and bot moves are all answers of boardbot's public API (through the
// gateway of `boardbot web`); this page only keeps the game's history and draws it.

import {ApiError, call, gameComponents, pageError} from "/static/api.js";
import {Follower} from "/static/follow.js";
import * as generic from "/static/games/generic.js";
import {drawGraph} from "/static/graph.js";
import {isTouch, revealSeat} from "/static/layout.js";
import {fillSetupOptions, readSetup} from "/static/setup.js";
import {$, el, fillSelect} from "/static/ui.js";
import {MAX_RECORD_CHARS, buildRecord, downloadRecord, parseRecord, replayRecord} from "/static/records.js";
import {drawReviewList, drawReviewSummary, runReview} from "/static/review.js";
import {drawSeatBars, valueText} from "/static/values.js";

const BOARD_MODULES = {
  leda: "/static/games/leda.js",
  legend_raiders: "/static/games/legend_raiders.js",
};
const CHANCE = -1;
const TOP_K = 8;
const ENOUGH_ITERATIONS = 1000000;  // a budget the time per position ends first (the server's default bound)

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
  selected: null,     // on a touch screen: the notation of the candidate tapped once (a second tap plays it)
  follower: null,     // the continuous analysis (follow.js)
  review: null,       // {controller, summary, done, total} of the review under way or last run
  mode: "analyse",    // "analyse" | "play" | "watch"
  play: {seat: 0, preset: "beginner"},
  watch: {bots: []},
  busy: false,        // a bot is thinking or a move is being applied
  showToken: 0,       // bumps on every position shown, so late answers are dropped
  retry: null,        // what the error banner's "Try again" runs, when the failed action can be retried
};

// ---------- errors ----------

// `retry`, when given, is offered as a button: the action that failed, to try again.
function showError(error, retry = null) {
  if (error?.name === "AbortError") return;
  const info = error instanceof ApiError ? error.info
    : {code: "ERROR", message: String(error?.message || error), field: "", json_path: "", reason: ""};
  $("error-code").textContent = info.code + (info.reason && info.reason !== info.code ? ` · ${info.reason}` : "");
  $("error-message").textContent = info.message;
  const where = [info.field && `field ${info.field}`, info.json_path && `at ${info.json_path}`]
    .filter(Boolean).join(", ");
  $("error-where").textContent = where;
  app.retry = retry;
  $("error-retry").hidden = !retry;
  $("error-banner").hidden = false;
  console.warn("boardbot:", info);
}

function clearError() {
  app.retry = null;
  $("error-banner").hidden = true;
}

function retryFailed() {
  const retry = app.retry;
  clearError();
  if (retry) retry();
}

async function guarded(action, retry = null) {
  try {
    clearError();
    return await action();
  } catch (error) {
    showError(error, retry);
    return undefined;
  }
}

// ---------- small helpers ----------

const entry = () => app.history[app.index];
const seatsOf = (e) => e.summary.num_players;
const toMove = (e) => e.summary.current_player;

const pct = (x) => `${(100 * x).toFixed(1)}%`;

function seatLabel(seat) {
  const named = app.mode === "analyse" ? app.recordPlayers?.find((p) => p.seat === seat)?.name : null;
  if (named) return `${named} (seat ${seat})`;
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
  app.follower = new Follower({
    target: followTarget,
    onStart: onFollowStart,
    onPartial: onFollowPartial,
    onIdle: onFollowIdle,
    onError: (error) => { drawFollowing(); showError(error); },
  });
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

function defaultSetup(game) {
  return {players: app.games[game].min_players, options: {}, seed: 1, manualChance: false};
}

function wireControls() {
  $("error-close").onclick = clearError;
  $("error-retry").onclick = retryFailed;
  $("game-select").onchange = (e) => guarded(() => newGame(e.target.value, defaultSetup(e.target.value)));
  $("new-game-button").onclick = openSetup;
  $("setup-game").onchange = () => fillSetupOptions(app.games[$("setup-game").value]);
  $("setup-form").addEventListener("submit", onSetupSubmit);
  $("pov-select").onchange = (e) => {
    app.pov = e.target.value === "all" ? "all" : Number(e.target.value);
    guarded(() => showPosition({reveal: false}));
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
  $("analysis-start").onclick = startFollowing;
  $("analysis-stop").onclick = stopFollowing;
  for (const id of ["analysis-preset", "analysis-budget", "analysis-iterations", "analysis-time"]) {
    $(id).onchange = () => app.follower.on && app.follower.restart();
  }
  $("show-best").onchange = () => guarded(drawBoard);
  $("review-start").onclick = () => guarded(startReview);
  $("review-stop").onclick = stopReview;
  $("review-marked").onchange = drawReview;
  $("record-export").onclick = () => guarded(exportRecord);
  $("record-file").onchange = (e) => guarded(() => importRecordFile(e.target));
  $("record-load").onclick = () => guarded(() => importRecord($("record-text").value));
  $("sheet-toggle").onclick = () => document.documentElement.classList.toggle("sheet-collapsed");
  new ResizeObserver(() => drawGameGraph()).observe($("graph"));
  if (isTouch()) {
    document.body.classList.add("touch");
    $("analysis-hint").textContent = "Tap a candidate to see it on the board; tap it again to play it.";
  }
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
  fillSetupOptions(app.games[app.game], app.setup);
  $("setup-dialog").showModal();
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
  const started = await call("NewGame", {
    game,
    options_json: setup.options,
    players: setup.players,
    seed: String(setup.seed),
    manual_chance: setup.manualChance,
  });
  app.game = game;
  app.setup = {...setup, dealtBy: setup.seed};
  app.recordPlayers = [];
  $("game-select").value = game;
  // The opening chance steps are part of the first position: a record starts after them.
  replaceGame([{state: started.state_json, summary: started.summary, move: null, events: started.chance_events,
                chance: [], analysis: null, by: "setup"}]);
  await showPosition();
}

// A new game's history in place of the old one: what was found about the old game goes.
function replaceGame(history) {
  stopReview();
  app.review = null;
  app.history = history;
  app.index = 0;
  fillSeatControls(history[0].summary.num_players);
  drawReview();
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

function goTo(index, reveal = true) {
  if (index < 0 || index >= app.history.length || index === app.index) return;
  app.index = index;
  guarded(() => showPosition({reveal}));
}

// Draws the shown position; `reveal` scrolls the board of the seat to move into view.
async function showPosition({reveal = true} = {}) {
  const token = ++app.showToken;
  const e = entry();
  app.hover = null;
  app.selected = null;
  if (lockReason() && app.pov !== app.play.seat) app.pov = app.play.seat;
  app.shownAt = performance.now();
  const [view, moves] = await Promise.all([viewOf(e), movesOf(e)]);
  if (token !== app.showToken) return;
  app.moves = moves.moves;
  app.chanceForm = moves.chanceForm;
  e.view = view;
  await drawBoard();
  drawLock();
  drawTurn();
  drawMoves();
  drawChance();
  drawAnalysis(shownAnalysis(e));
  drawEvalBars();
  drawHistory();
  drawGameGraph();
  drawReview();
  drawState();
  if (reveal) revealSeat($("board"), toMove(e));
  app.follower.follow(e);
  drawFollowing();
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
  const best = $("show-best").checked ? shownAnalysis(e)?.moves?.[0]?.move : null;
  app.shownBest = best?.notation ?? null;
  module.render($("board"), e.view, {
    seat: app.pov === "all" ? null : app.pov,
    names: seatLabels(e),
    highlight: app.hover,
    best: best?.move_json ?? null,
    toMove: toMove(e),
  });
  $("board").dataset.best = app.shownBest ?? "";
}

const seatLabels = (e) => Array.from({length: seatsOf(e)}, (_, i) => seatLabel(i));

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
  const hidden = lockReason() && toMove(entry()) !== app.play.seat;
  $("moves-hidden").hidden = !hidden;
  list.replaceChildren(...(hidden ? [] : app.moves)
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
  const locked = lockReason();
  list.replaceChildren(...app.history.map((h, i) => {
    const what = i === 0 ? "start" : (h.move?.notation ?? "chance");
    // While a seat is played, the chance outcomes may tell what it may not see (a shuffled order).
    const events = h.events?.length ? ` · ${locked ? `${h.events.length} chance outcome(s), shown after the game` : h.events.join(", ")}` : "";
    // The value the analysis of the position before gave the move played, when it has one.
    const before = i > 0 ? app.history[i - 1].analysis : null;
    const weighed = h.move ? before?.moves?.find((m) => m.move.notation === h.move.notation) : null;
    const value = weighed ? ` · ${valueText(weighed.value, before.stats)}` : "";
    const judgement = i > 0 ? app.history[i - 1].review?.judgement : "";
    const judged = judgement && !value.endsWith(judgement) ? ` · ${judgement}` : "";
    return el("li", {class: i === app.index ? "current" : ""},
      el("button", {textContent: `${i}. ${h.by && i ? h.by + ": " : ""}${what}${value}${judged}${events}`,
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
    const played = {state: next.state_json, summary: next.summary, move: next.move || null, events: next.chance_events,
                    analysis: null, by: move?.by || (toMove(e) === CHANCE ? "chance" : "you")};
    if (move?.clockMs !== undefined) played.clockMs = move.clockMs;
    else if (app.mode === "play" && toMove(e) === app.play.seat) played.clockMs = performance.now() - app.shownAt;
    push(played);
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

// ---------- analysis that follows the game ----------

function searchRequest(e, index) {
  const request = {game: app.game, state_json: e.state, seat: toMove(e), seed: seedFor(index), top_k: TOP_K,
                   preset: $("analysis-preset").value};
  const iterations = Math.floor(Number($("analysis-iterations").value));
  const time = Number($("analysis-time").value);
  const budget = $("analysis-budget").value;
  const settings = {};
  if (iterations > 0) settings.iterations = iterations;
  if (time > 0) settings.time_ms = time;
  else if (budget !== "preset" && budget !== "infinite") settings.time_ms = Number(budget);
  // A time per position (or "infinite": the server's bound) ends the search, not the preset's iterations.
  if (budget !== "preset") settings.iterations ??= ENOUGH_ITERATIONS;
  if (Object.keys(settings).length) request.settings = settings;
  return request;
}

// Why the shown position is not analysed now, or "".
function analysisBlocked(e) {
  if (e.summary.terminal) return "the game is over: nothing to analyse here";
  if (toMove(e) === CHANCE) return "a chance step: roll or pick the outcome, and the analysis goes on";
  if (lockReason() && toMove(e) !== app.play.seat) return "the bot's turn: what it weighs stays hidden while you play";
  return "";
}

function followTarget() {
  const e = entry();
  const idle = analysisBlocked(e);
  if (idle) return {idle, entry: e};
  return {request: searchRequest(e, app.index), entry: e, infinite: $("analysis-budget").value === "infinite"};
}

function startFollowing() {
  clearError();
  app.follower.start();
  drawFollowing();
}

function stopFollowing() {
  app.follower.stop();
  drawFollowing();
  drawHistory();
}

function onFollowStart(run) {
  if (run.entry !== entry()) return;
  // The last analysis's figures go (what follows is this one's), unless this search goes on
  // growing the last one's tree.
  if (!run.continued) drawAnalysis(null);
  drawFollowing();
}

function onFollowPartial(run, partial) {
  run.entry.analysis = partial;
  if (run.entry !== entry()) return;
  drawAnalysis(partial);
  drawEvalBars();
  drawGameGraphSoon();
  if ((partial.moves?.[0]?.move.notation ?? null) !== app.shownBest) guarded(drawBoard);
}

function onFollowIdle(reason) {
  drawFollowing(reason);
  drawHistory();
  drawGameGraph();
}

// The buttons and the line that say whether the analysis follows the game.
function drawFollowing(reason = "") {
  const follower = app.follower;
  const running = follower.isBusyWith(entry());
  $("analysis-start").disabled = follower.on;
  $("analysis-stop").disabled = !follower.on;
  const line = $("follow-line");
  line.dataset.following = String(follower.on);
  line.dataset.running = String(running);
  if (!follower.on) {
    line.textContent = "";
    return;
  }
  const budget = $("analysis-budget").selectedOptions[0]?.textContent ?? "";
  const idle = reason || analysisBlocked(entry());
  line.textContent = `Following the game (${budget} per position): ` +
    (running ? "analysing the position shown" : idle || "this position is analysed; step or play on");
}

// The analysis shown for entry `e`: none for the bot's turns while a seat is played.
function shownAnalysis(e) {
  if (lockReason() && toMove(e) !== app.play.seat) return null;
  return e.analysis;
}

function drawAnalysis(analysis) {
  const body = $("candidates-body");
  const rows = analysis?.moves || [];
  const most = Math.max(1, ...rows.map((m) => Number(m.visits)));
  const playable = humanMayMove();
  const touch = document.body.classList.contains("touch");
  body.replaceChildren(...rows.map((m) => {
    const visits = Number(m.visits);
    const selected = touch && app.selected === m.move.notation;
    const show = () => { highlight(m.move.move_json); drawPv(m); };
    const row = el("tr", {dataset: {testid: "candidate", notation: m.move.notation},
                          class: `${playable ? "playable" : ""}${selected ? " selected" : ""}`,
                          onclick: () => {
                            if (touch && !selected) {
                              app.selected = m.move.notation;  // a first tap shows it; a second plays it
                              drawAnalysis(analysis);
                              show();
                            } else if (playable) {
                              guarded(() => playMove(m.move));
                            }
                          }},
      el("td", {textContent: String(m.rank)}),
      el("td", {class: "notation", textContent: m.move.notation}),
      el("td", {class: "visits"}, el("div", {class: "bar", style: {width: `${(100 * visits / most).toFixed(1)}%`}}),
         el("span", {textContent: visits.toLocaleString()})),
      el("td", {textContent: valueText(m.value, analysis.stats)}),
      el("td", {textContent: valueText(m.lower_bound, analysis.stats)}));
    if (!touch) {
      row.addEventListener("mouseenter", show);
      row.addEventListener("mouseleave", () => { highlight(null); drawPv(rows[0]); });
    }
    return row;
  }));
  drawPv(rows.find((m) => touch && m.move.notation === app.selected) || rows[0]);
  const stats = analysis?.stats;
  const parts = [];
  if (stats) {
    const iterations = Number(stats.iterations);
    const seconds = Number(stats.elapsed_ms) / 1000;
    parts.push(`${iterations.toLocaleString()} iterations`, `${seconds.toFixed(1)} s`);
    if (Number(stats.reused_visits) > 0) parts.push(`on ${Number(stats.reused_visits).toLocaleString()} visits before`);
    if (seconds > 0) parts.push(`${Math.round(iterations / seconds).toLocaleString()}/s`);
    if (analysis.final) parts.push(`done (${stats.stopped_by})`);
    if (analysis.chosen) parts.push(`the bot played ${analysis.chosen}`);
    if (analysis.fromReview) parts.push("from the review");
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
  // Each move of the line is marked with the seat that plays it (when the server says).
  const seats = m?.principal_variation_seats || [];
  $("pv-line").replaceChildren(...(m ? [el("span", {class: "pv-label", textContent: "line: "}),
    ...m.principal_variation.map((n, i) => el("span", {
      class: `pv-move${i ? "" : " first"}${seats[i] >= 0 ? ` seat-${seats[i]}` : ""}`,
      textContent: n, title: seats[i] >= 0 ? seatLabel(seats[i]) : ""}))] : []));
}

function drawEvalBars() {
  const e = entry();
  const forced = toMove(e) >= 0 && app.moves.length === 1;
  drawSeatBars($("eval-bars"), app.history, app.index, seatLabels(e), forced);
}

function drawGameGraph() {
  if (!app.history.length) return;
  clearTimeout(app.graphTimer);
  app.graphTimer = null;
  drawGraph($("graph"), app.history, app.index, seatLabels(entry()), (p) => goTo(p, false));
}

// Redraws the graph at most a few times a second while an analysis streams.
function drawGameGraphSoon() {
  app.graphTimer ??= setTimeout(drawGameGraph, 300);
}

// ---------- review ----------

async function startReview() {
  const locked = lockReason();
  if (locked) throw pageError("LOCKED", "the review waits until the game is over: it searches every seat's moves");
  if (app.history.length < 2) throw pageError("NOTHING_TO_REVIEW", "no move has been played yet");
  stopReview();
  const history = app.history;
  const run = {controller: new AbortController(), summary: null, done: 0, total: 0, running: true, preparing: true,
               started: performance.now(), firstMs: null, totalMs: null};
  app.review = run;
  drawReview();
  const {record, decisions} = await buildRecord(app.game, app.setup.options, app.setup.dealtBy, history, recordPlayers());
  run.total = decisions.size;
  run.preparing = false;
  drawReview();
  try {
    await runReview({
      record, decisions, entries: history, timeMs: Math.max(1, Number($("review-time").value) || 200),
      seed: app.setup.dealtBy ?? 0, signal: run.controller.signal,
      onPosition: () => {
        run.done += 1;
        if (app.review === run) refreshReviewSoon();
      },
      onSummary: (summary) => { run.summary = summary; },
    });
  } finally {
    run.running = false;
    run.totalMs = performance.now() - run.started;
    if (app.review === run) refreshReview();
  }
}

function stopReview() {
  const run = app.review;
  if (!run?.running) return;
  run.running = false;
  run.cancelled = true;
  run.controller.abort();
  drawReview();
}

function refreshReview() {
  app.reviewFrame = null;
  const run = app.review;
  if (run?.done > 0) run.firstMs ??= performance.now() - run.started;  // the first judged move drawn
  drawReview();
  drawGameGraph();
  drawEvalBars();
  drawHistory();
  if (!app.follower.isRunning(entry())) {
    drawAnalysis(shownAnalysis(entry()));
    guarded(drawBoard);
  }
}

function refreshReviewSoon() {
  app.reviewFrame ??= requestAnimationFrame(refreshReview);
}

// The review's buttons, progress, summary and list of judged moves.
function drawReview() {
  const run = app.review;
  const locked = lockReason();
  $("review-start").disabled = Boolean(run?.running) || Boolean(locked) || app.history.length < 2;
  $("review-stop").disabled = !run?.running;
  const line = $("review-progress");
  line.dataset.state = !run ? "" : run.running ? "running" : run.cancelled ? "cancelled" : "done";
  line.dataset.done = String(run?.done ?? 0);
  // From the click to the first judged move on screen, and to the end (for the measurements).
  line.dataset.firstMs = run?.firstMs === null || !run ? "" : String(Math.round(run.firstMs));
  line.dataset.totalMs = run?.totalMs === null || !run ? "" : String(Math.round(run.totalMs));
  line.textContent = locked ? "The review waits until the game is over."
    : !run ? "" : run.preparing ? "writing the game's record…"
    : `${run.running ? "reviewing" : run.cancelled ? "cancelled" : "reviewed"}: ${run.done} of ${run.total} moves judged`;
  const labels = seatLabels(app.history[0]);
  drawReviewSummary($("review-summary"), run?.summary, labels);
  drawReviewList($("review-list"), app.history, labels, (p) => goTo(p, false), $("review-marked").checked);
}

// ---------- records ----------

function recordPlayers() {
  const seats = Array.from({length: seatsOf(app.history[0])}, (_, i) => i);
  if (app.mode === "play") {
    return seats.map((seat) => (seat === app.play.seat ? {seat, name: "you", kind: "human"}
      : {seat, name: app.play.preset, kind: "bot"}));
  }
  if (app.mode === "watch") return seats.map((seat) => ({seat, name: app.watch.bots[seat], kind: "bot"}));
  return app.recordPlayers || [];
}

async function exportRecord() {
  if (lockReason()) throw pageError("LOCKED", "the record holds every seat's cards: it waits until the game is over");
  const {record} = await buildRecord(app.game, app.setup.options, app.setup.dealtBy, app.history, recordPlayers());
  const text = JSON.stringify(record, null, 1);
  $("record-text").value = text;
  $("record-status").textContent = `${record.moves.length} moves and chance outcomes written`;
  downloadRecord(record, `${app.game}-${record.date.replace(/[:]/g, "")}.json`);
}

async function importRecordFile(input) {
  const file = input.files?.[0];
  input.value = "";
  if (!file) return;
  if (file.size > MAX_RECORD_CHARS) throw pageError("INVALID_RECORD", `${file.name}: larger than ${MAX_RECORD_CHARS} bytes`);
  await importRecord(await file.text());
}

async function importRecord(text) {
  const record = parseRecord(text, app.games);
  const status = $("record-status");
  const history = await replayRecord(record, (done, total) => { status.textContent = `replaying: ${done} of ${total}`; });
  status.textContent = `loaded: ${record.moves.length} moves and chance outcomes`;
  await boardModule(record.game);
  app.game = record.game;
  $("game-select").value = record.game;
  app.setup = {players: history[0].summary.num_players, options: record.options, seed: record.seed ?? 0,
               manualChance: false, dealtBy: Number.isInteger(record.seed) ? record.seed : null};
  app.recordPlayers = record.players || [];
  app.mode = "analyse";
  $("mode-line").textContent = "Analysis mode: you move every seat.";
  replaceGame(history);
  app.index = history.length - 1;
  await showPosition();
}

// ---------- play and watch ----------

function setMode(mode) {
  app.mode = mode;
  app.follower.restart();  // what may be analysed changes with the mode
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

// A failed bot or chance move stops the game until the banner's retry asks for the turn again.
function schedule(action, delay = Number($("watch-delay").value) || 0) {
  const token = app.showToken;
  setTimeout(() => {
    if (token === app.showToken && app.mode !== "analyse") guarded(action, afterShown);
  }, delay);
}

async function botMove(preset) {
  const e = entry();
  const seat = toMove(e);
  $("turn-line").textContent = `${seatLabel(seat)} is thinking…`;
  let chosen;
  try {
    chosen = await call("ChooseMove", {game: app.game, state_json: e.state, seat, preset,
                                       seed: seedFor(app.index), top_k: TOP_K});
  } catch (error) {
    if (entry() === e) $("turn-line").textContent = `${seatLabel(seat)} could not move`;
    throw error;
  }
  if (entry() !== e) return;
  // Kept for review: what the bot weighed, best first (its move among them when it is that high).
  const weighed = chosen.candidates?.length ? chosen.candidates : [chosen.analysis].filter(Boolean);
  const analysis = weighed.length ? {moves: weighed, stats: chosen.stats, final: true, chosen: chosen.move.notation} : null;
  await playMove({move_json: chosen.move.move_json, analysis, by: preset, clockMs: Number(chosen.stats?.elapsed_ms ?? 0)});
}

// ---------- play mode hides what the player may not see ----------

// Why the page shows only the played seat's side of the game now, or "" when it shows all.
function lockReason() {
  if (app.mode !== "play" || !app.history.length) return "";
  if (app.history[app.history.length - 1].summary.terminal) return "";
  return `You play seat ${app.play.seat}: the other seats' views, the referee's, the bot's options, the ` +
    "full state, the chance outcomes, the review and the record stay hidden until the game is over (or you stop playing).";
}

function drawLock() {
  const reason = lockReason();
  const pov = $("pov-select");
  for (const option of pov.options) option.disabled = Boolean(reason) && option.value !== String(app.play.seat);
  pov.disabled = Boolean(reason);
  pov.value = String(app.pov);
  $("pov-lock").hidden = !reason;
  $("pov-lock").title = reason;
  $("lock-line").hidden = !reason;
  $("lock-line").textContent = reason;
  $("record-export").disabled = Boolean(reason);
}

// ---------- the state as JSON ----------

async function loadPastedState() {
  const text = $("state-text").value;
  const seen = await call("ViewState", {game: app.game, state_json: text, seat: 0});
  const state = JSON.parse(text);
  app.setup = {...app.setup, options: {}, dealtBy: null};
  app.recordPlayers = [];
  replaceGame([{state, summary: seen.summary, move: null, events: [], chance: [], analysis: null, by: "pasted"}]);
  await showPosition();
}

// The full state of the shown position, unless a seat is played.
function drawState() {
  const locked = lockReason();
  $("state-locked").hidden = !locked;
  $("state-open").hidden = Boolean(locked);
  $("state-text").value = locked ? "" : JSON.stringify(entry().state, null, 2);
}

function downloadState() {
  const blob = new Blob([JSON.stringify(entry().state, null, 2)], {type: "application/json"});
  const link = el("a", {href: URL.createObjectURL(blob), download: `${app.game}-move-${app.index}.json`});
  link.click();
  URL.revokeObjectURL(link.href);
}

window.boardbot = app;  // for the console and the tests
start();
