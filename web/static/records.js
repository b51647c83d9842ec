// Game records (format "boardbot-record", version 1; docs/records.md): the shown game written as
// one, and one read back into the page's history. Both go through the API: the chance outcomes
// the server drew are known to the page by their notation, so writing a record replays them one
// by one (ApplyMove with manual_chance) to get each outcome's JSON; reading one applies every
// recorded move and chance outcome in turn, and the server checks each.

import {ApiError, call, pageError} from "/static/api.js";

export const FORMAT = "boardbot-record";
export const VERSION = 1;
export const MAX_MOVES = 10000;
export const MAX_RECORD_CHARS = 4 * 1024 * 1024;  // the gateway's bound on a request body
const MAX_CLOCK_MS = 7 * 24 * 3600 * 1000;  // the format's bound on the time a move took
const CHANCE = -1;

const sameJson = (a, b) => JSON.stringify(a) === JSON.stringify(b);

// The chance outcomes resolved after history[i]'s own move, each {move_json, notation}, found by
// replaying them from the position before (kept on the entry once found).
async function chanceOf(game, history, i) {
  const h = history[i];
  if (h.chance) return h.chance;
  if (!h.events?.length) return (h.chance = []);
  let state = history[i - 1].state;
  if (h.move) {
    state = (await call("ApplyMove", {game, state_json: state, move_json: h.move.move_json, manual_chance: true})).state_json;
  }
  const outcomes = [];
  for (const notation of h.events) {
    const next = await call("ApplyMove", {game, state_json: state, notation, manual_chance: true});
    outcomes.push({move_json: next.move.move_json, notation: next.move.notation});
    state = next.state_json;
  }
  if (!sameJson(state, h.state)) {
    throw pageError("RECORD", `move ${i}: replaying the chance outcomes ${h.events.join(", ")} does not give the position shown`);
  }
  return (h.chance = outcomes);
}

// {record, decisions}: the record of `history` (a game set up with `options`, dealt by NewGame's
// `seed` or null when unknown; players as record entries, or []) and, for each record move
// index that a seat decided, the history index it was played from.
export async function buildRecord(game, options, seed, history, players) {
  const moves = [];
  const decisions = new Map();
  for (let i = 1; i < history.length; i++) {
    const h = history[i];
    const seat = history[i - 1].summary.current_player;
    if (h.move) {
      const recorded = {seat, move: h.move.move_json, notation: h.move.notation};
      if (h.clockMs !== undefined) recorded.clock_ms = Math.min(MAX_CLOCK_MS, Math.max(0, Number(h.clockMs)));
      if (seat !== CHANCE) decisions.set(moves.length, i - 1);
      moves.push(recorded);
    }
    for (const outcome of await chanceOf(game, history, i)) {
      moves.push({seat: CHANCE, move: outcome.move_json, notation: outcome.notation});
    }
  }
  const last = history[history.length - 1].summary;
  const record = {
    format: FORMAT,
    version: VERSION,
    game,
    options: {...options, players: history[0].summary.num_players},
    initial_state: history[0].state,
    moves,
  };
  if (Number.isInteger(seed)) record.seed = seed;
  if (players.length) record.players = players;
  if (last.terminal) record.result = {returns: last.returns, scores: last.scores};
  record.date = new Date().toISOString().replace(/\.\d+Z$/, "Z");
  return {record, decisions};
}

function shapeError(path, reason) {
  return new ApiError({code: "INVALID_RECORD", message: `${path}: ${reason}`, reason: "INVALID_RECORD",
                       field: "record", json_path: path}, 0);
}

// The record in `text` (a JSON document), its shape checked; errors name the JSON path.
export function parseRecord(text, games) {
  if (text.length > MAX_RECORD_CHARS) throw shapeError("$", `longer than ${MAX_RECORD_CHARS} characters`);
  let data;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw shapeError("$", `not JSON (${error.message})`);
  }
  if (!data || typeof data !== "object" || Array.isArray(data)) throw shapeError("$", "expected a JSON object");
  if (data.format !== FORMAT) throw shapeError("format", `expected "${FORMAT}"`);
  if (data.version !== VERSION) throw shapeError("version", `expected ${VERSION}, got ${JSON.stringify(data.version)}`);
  if (!(data.game in games)) throw shapeError("game", `not a game of this server (${Object.keys(games).join(", ")})`);
  if (!data.options || typeof data.options !== "object" || Array.isArray(data.options)) throw shapeError("options", "expected an object");
  if (!data.initial_state || typeof data.initial_state !== "object") throw shapeError("initial_state", "expected the state's JSON object");
  if (!Array.isArray(data.moves)) throw shapeError("moves", "expected a list");
  if (data.moves.length > MAX_MOVES) throw shapeError("moves", `more than ${MAX_MOVES} moves`);
  data.moves.forEach((m, k) => {
    if (!m || typeof m !== "object") throw shapeError(`moves[${k}]`, "expected an object");
    if (!Number.isInteger(m.seat) || m.seat < CHANCE) throw shapeError(`moves[${k}].seat`, "expected a seat (or -1 for chance)");
    if (!m.move || typeof m.move !== "object" || Array.isArray(m.move)) throw shapeError(`moves[${k}].move`, "expected the move's JSON object");
  });
  return data;
}

function at(path, error) {
  if (!(error instanceof ApiError)) throw error;
  const info = {...error.info, message: `${path}: ${error.info.message}`, json_path: path};
  return new ApiError(info, error.httpStatus);
}

// The page's history of a parsed record, replayed through the server: a seat's move opens an
// entry, the chance outcomes that follow it go with it (as when the server rolls them).
// onProgress(done, total) reports.
export async function replayRecord(record, onProgress = () => {}) {
  const game = record.game;
  let start;
  try {
    start = await call("ViewState", {game, state_json: record.initial_state, seat: 0});
  } catch (error) {
    throw at("initial_state", error);
  }
  const history = [{state: record.initial_state, summary: start.summary, move: null, events: [], chance: [],
                    analysis: null, by: "record"}];
  const names = new Map((record.players || []).map((p) => [p.seat, p.name]));
  let state = record.initial_state;
  let summary = start.summary;
  for (const [k, m] of record.moves.entries()) {
    if (summary.terminal) throw shapeError(`moves[${k}]`, "the game is already over");
    if (m.seat !== summary.current_player) {
      throw shapeError(`moves[${k}].seat`, `${m.seat}, but ${summary.current_player === CHANCE ? "a chance step" : `seat ${summary.current_player}`} is to move`);
    }
    let next;
    try {
      next = await call("ApplyMove", {game, state_json: state, move_json: m.move, manual_chance: true});
    } catch (error) {
      throw at(`moves[${k}].move`, error);
    }
    if (m.notation !== undefined && m.notation !== next.move.notation) {
      throw shapeError(`moves[${k}].notation`, `"${m.notation}", but the move is "${next.move.notation}" there`);
    }
    const last = history[history.length - 1];
    if (m.seat === CHANCE && history.length > 1) {
      last.events = [...last.events, next.move.notation];
      last.chance = [...last.chance, {move_json: next.move.move_json, notation: next.move.notation}];
      Object.assign(last, {state: next.state_json, summary: next.summary});
    } else {
      const by = m.seat === CHANCE ? "chance" : names.get(m.seat) || `seat ${m.seat}`;
      const entry = {state: next.state_json, summary: next.summary, move: next.move, events: [], chance: [],
                     analysis: null, by};
      if (m.clock_ms !== undefined) entry.clockMs = m.clock_ms;
      history.push(entry);
    }
    state = next.state_json;
    summary = next.summary;
    onProgress(k + 1, record.moves.length);
  }
  if (record.result?.returns && !sameJson(record.result.returns.map(Number), summary.returns.map(Number))) {
    throw shapeError("result.returns", `${JSON.stringify(record.result.returns)}, but the replayed game gives ${JSON.stringify(summary.returns)}`);
  }
  return history;
}

// Saves `record` as a .json file.
export function downloadRecord(record, name) {
  const blob = new Blob([JSON.stringify(record, null, 1)], {type: "application/json"});
  const link = document.createElement("a");
  link.href = URL.createObjectURL(blob);
  link.download = name;
  link.click();
  URL.revokeObjectURL(link.href);
}
