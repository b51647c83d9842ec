#!/usr/bin/env node
// A Node.js client of the boardbot gRPC service, written from the .proto files alone.
//
// It plays whole games bot against bot through the server (LEDA with two clans, Legend Raiders
// with 2-4 players): NewGame, then ChooseMove and ApplyMove for the seat to move until the game
// is over. Along the way it shows the health check, ListGames, LegalMoves, Analyze, the token
// metadata, uint64 seeds as strings, deadlines, and how to read an error (status code, message
// and the rich details of the `grpc-status-details-bin` trailer when the server sends them).
//
//   npm ci                      # once, inside examples/node
//   node play.js --server 127.0.0.1:50051 [--token T] [--game leda|legend_raiders|all]
//                [--players N] [--seed S] [--preset P] [--deadline-ms MS] [--clans A,B]
//                [--tls-ca FILE]
//
// Exit code 0 when every game finished, 1 when one did not, 2 on a bad command line.
'use strict';

const fs = require('node:fs');
const path = require('node:path');
const { parseArgs } = require('node:util');

const grpc = require('@grpc/grpc-js');
const protoLoader = require('@grpc/proto-loader');
const protobuf = require('protobufjs');

// -- Loading the contracts --------------------------------------------------------------------

const REPO_PROTO_DIR = path.resolve(__dirname, '..', '..', 'proto'); // boardbot/v1/boardbot.proto
const LOCAL_PROTO_DIR = path.join(__dirname, 'protos'); // copies of grpc/health and google/rpc

// The loader options this API needs. Every one of them changes what your code sees:
const LOADER_OPTIONS = {
  keepCase: true, // field names as in the .proto (state_json, current_player). Without it the
  //                 loader expects camelCase (stateJson) and silently drops snake_case keys.
  longs: String, //  int64/uint64 (seeds, iterations, visits) as decimal strings: exact above
  //                 2^53. Without it replies hold Long objects.
  enums: String, //  enum values by name (the health status reads 'SERVING', not 1).
  defaults: true, // fields at their default value are present in replies: without it seat 0
  //                 (`current_player: 0`) and `terminal: false` are simply missing. (Unset
  //                 `optional` fields, those of SearchSettings, stay absent all the same.)
  oneofs: true, //   a virtual field names the member of a oneof that is set (and, for each
  //                 `optional` field that is set, `_name: 'name'` appears beside it).
};

function loadPackage(file, includeDir) {
  const definition = protoLoader.loadSync(file, { ...LOADER_OPTIONS, includeDirs: [includeDir] });
  return grpc.loadPackageDefinition(definition);
}

const boardbotV1 = loadPackage('boardbot/v1/boardbot.proto', REPO_PROTO_DIR).boardbot.v1;
// The standard health service; examples/node/protos/grpc/health/v1/health.proto is a verbatim
// copy of the canonical file of the gRPC project (grpc/grpc-proto).
const healthV1 = loadPackage('grpc/health/v1/health.proto', LOCAL_PROTO_DIR).grpc.health.v1;

// google.rpc.Status and its detail messages (ErrorInfo, BadRequest, ...), verbatim copies from
// googleapis. They are only decoded by hand, from a trailer, so protobufjs reads them directly.
const rpcTypes = new protobuf.Root().loadSync(
  ['status.proto', 'error_details.proto'].map((f) => path.join(LOCAL_PROTO_DIR, 'google/rpc', f)),
  { keepCase: true },
);
const RpcStatus = rpcTypes.lookupType('google.rpc.Status');

// -- Command line -----------------------------------------------------------------------------

const USAGE = `usage: node play.js [--server HOST:PORT] [--token T] [--game leda|legend_raiders|all]
                    [--players N] [--seed S] [--preset P] [--deadline-ms MS] [--clans A,B]
                    [--tls-ca FILE]`;

const UINT64_LIMIT = 1n << 64n;

function parseCommandLine(argv) {
  const { values } = parseArgs({
    args: argv,
    options: {
      server: { type: 'string', default: process.env.BOARDBOT_SERVER || '127.0.0.1:50051' },
      token: { type: 'string', default: process.env.BOARDBOT_TOKEN || '' },
      game: { type: 'string', default: 'all' },
      players: { type: 'string', default: '3' },
      seed: { type: 'string', default: '1' },
      preset: { type: 'string', default: 'beginner' },
      'deadline-ms': { type: 'string', default: '10000' },
      clans: { type: 'string', default: 'cats,sharks' },
      'tls-ca': { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  const games = values.game === 'all' ? ['leda', 'legend_raiders'] : [values.game];
  for (const game of games) {
    if (!['leda', 'legend_raiders'].includes(game)) {
      throw new UsageError(`--game: expected leda, legend_raiders or all, got '${values.game}'`);
    }
  }
  const players = Number(values.players);
  if (!Number.isInteger(players)) {
    throw new UsageError(`--players: not an integer: '${values.players}'`);
  }
  const deadlineMs = Number(values['deadline-ms']);
  if (!(deadlineMs > 0)) {
    throw new UsageError(`--deadline-ms: must be positive, got '${values['deadline-ms']}'`);
  }
  return {
    server: values.server,
    token: values.token,
    games,
    players,
    seed: parseSeed(values.seed),
    preset: values.preset,
    deadlineMs,
    clans: values.clans.split(',').map((c) => c.trim()),
    tlsCa: values['tls-ca'],
  };
}

class UsageError extends Error {}

// Seeds are uint64. A JavaScript number is exact only up to 2^53, so seeds travel as decimal
// strings (BigInt works too). The loader wraps out-of-range strings silently ("-1" becomes
// 2^64-1, "18446744073709551616" becomes 0), so check the range here.
function parseSeed(text) {
  let seed;
  try {
    seed = BigInt(text);
  } catch {
    throw new UsageError(`--seed: not an integer: '${text}'`);
  }
  if (seed < 0n || seed >= UINT64_LIMIT) {
    throw new UsageError(`--seed: must be in 0..18446744073709551615, got ${text}`);
  }
  return seed;
}

// The seed of the n-th call of a game: base + n, modulo 2^64, as the string the request takes.
function seedString(base, n) {
  return ((base + BigInt(n)) % UINT64_LIMIT).toString();
}

// -- Calls ------------------------------------------------------------------------------------

class Session {
  constructor(options) {
    const credentials = options.tlsCa
      ? grpc.credentials.createSsl(fs.readFileSync(options.tlsCa))
      : grpc.credentials.createInsecure();
    this.bot = new boardbotV1.BoardBot(options.server, credentials);
    this.health = new healthV1.Health(options.server, credentials);
    this.token = options.token;
    this.deadlineMs = options.deadlineMs;
  }

  // Metadata of every call: the shared token, when the server requires one. (Call credentials
  // would need TLS; plain metadata works on both kinds of channel.)
  metadata() {
    const metadata = new grpc.Metadata();
    if (this.token) metadata.set('authorization', `Bearer ${this.token}`);
    return metadata;
  }

  // One unary call with a deadline. The search fits itself into the deadline: it stops a little
  // before it and answers with what it found (stats.stopped_by 'deadline').
  call(client, method, request) {
    const deadline = Date.now() + this.deadlineMs;
    return new Promise((resolve, reject) => {
      client[method](request, this.metadata(), { deadline }, (error, reply) =>
        error ? reject(error) : resolve(reply),
      );
    });
  }

  // A search call, retried a few times when the server is busy (RESOURCE_EXHAUSTED) or lost its
  // worker (UNAVAILABLE); both are safe to retry.
  async search(method, request) {
    const retryable = [grpc.status.RESOURCE_EXHAUSTED, grpc.status.UNAVAILABLE];
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.call(this.bot, method, request);
      } catch (error) {
        if (attempt >= 4 || !retryable.includes(error.code)) throw error;
        console.log(`  retrying ${method} after ${describeError(error)}`);
        await new Promise((resolve) => setTimeout(resolve, 100 * 2 ** attempt));
      }
    }
  }

  close() {
    this.bot.close();
    this.health.close();
  }
}

// -- Errors -----------------------------------------------------------------------------------

// "INVALID_ARGUMENT (3): notation $: unknown action 'fly'", then the rich details if any.
function describeError(error) {
  const name = grpc.status[error.code] ?? 'UNKNOWN';
  const lines = [`${name} (${error.code}): ${error.details ?? error.message}`];
  const details = statusDetails(error);
  if (details.errorInfo) {
    const { reason, domain, metadata } = details.errorInfo;
    const extra = Object.entries(metadata).map(([key, value]) => `, ${key} ${value}`).join('');
    lines.push(`    reason ${reason} (domain ${domain}${extra})`);
  }
  for (const violation of details.fieldViolations) {
    lines.push(`    field ${violation.field}: ${violation.description}`);
  }
  for (const note of details.notes) lines.push(`    ${note}`);
  return lines.join('\n');
}

// The rich details the server may attach to an error: a google.rpc.Status, serialised, in the
// `grpc-status-details-bin` trailer (grpc-js puts trailers in error.metadata). Tolerant: with no
// trailer, or one that cannot be read, the answer is simply empty (or holds a note).
function statusDetails(error) {
  const details = { errorInfo: null, fieldViolations: [], notes: [] };
  const raw = error.metadata instanceof grpc.Metadata
    ? error.metadata.get('grpc-status-details-bin')
    : [];
  if (raw.length === 0 || !Buffer.isBuffer(raw[0])) return details;
  let status;
  try {
    status = RpcStatus.decode(raw[0]);
  } catch (decodeError) {
    details.notes.push(`(grpc-status-details-bin could not be decoded: ${decodeError.message})`);
    return details;
  }
  for (const any of status.details) {
    // type_url is "type.googleapis.com/google.rpc.ErrorInfo": the message name follows the '/'.
    const typeName = any.type_url.slice(any.type_url.lastIndexOf('/') + 1);
    let type;
    try {
      type = rpcTypes.lookupType(typeName);
    } catch {
      details.notes.push(`(a detail of unknown type ${any.type_url})`);
      continue;
    }
    const message = type.toObject(type.decode(any.value), { defaults: true, longs: String });
    if (typeName === 'google.rpc.ErrorInfo') {
      details.errorInfo = message;
    } else if (typeName === 'google.rpc.BadRequest') {
      details.fieldViolations.push(...message.field_violations);
    } else {
      details.notes.push(`${typeName}: ${JSON.stringify(message)}`);
    }
  }
  return details;
}

// -- Playing ----------------------------------------------------------------------------------

// bytes fields take a Buffer. A string would be read as base64: a JSON text fails to serialise
// ("invalid encoding") or, worse, decodes into other bytes. Replies hold Buffers too.
const jsonBytes = (value) => Buffer.from(JSON.stringify(value), 'utf8');
const fromJsonBytes = (buffer) => JSON.parse(buffer.toString('utf8'));

async function checkHealth(session) {
  for (const service of ['', 'boardbot.v1.BoardBot']) {
    const reply = await session.call(session.health, 'Check', { service });
    console.log(`health ${service || '(server)'}: ${reply.status}`);
    if (reply.status !== 'SERVING') throw new Error(`the server is ${reply.status}`);
  }
}

async function listGames(session) {
  const reply = await session.call(session.bot, 'ListGames', {});
  const games = new Map();
  for (const game of reply.games) {
    const options = Object.keys(fromJsonBytes(game.options_json)).join(', ');
    const presets = game.presets.map((p) => `${p.name} (${p.settings.iterations})`).join(', ');
    console.log(`game ${game.name}: ${game.min_players}-${game.max_players} players; ` +
      `options ${options}; presets ${presets}`);
    games.set(game.name, game);
  }
  return games;
}

function newGameRequest(game, options, seed) {
  if (game === 'leda') {
    // LEDA is a 2-player game; the clans option picks each seat's clan, seat 0 first.
    return { game, options_json: jsonBytes({ clans: options.clans }), seed };
  }
  // Legend Raiders: the player count as a field; options_json could also carry it.
  return { game, players: options.players, options_json: jsonBytes({ variant: 'dice' }), seed };
}

// LegalMoves and an Analyze with top_k at the first decision of a game.
async function showFirstDecision(session, game, stateJson, seat, options, seed) {
  const legal = await session.call(session.bot, 'LegalMoves', {
    game, state_json: stateJson, seat,
  });
  const shown = legal.moves.slice(0, 6).map((m) => m.notation).join(', ');
  console.log(`legal moves of seat ${seat}: ${legal.moves.length} (${shown}` +
    `${legal.moves.length > 6 ? ', ...' : ''})`);
  console.log(`  first as JSON: ${legal.moves[0].move_json.toString('utf8')}`);

  const analysis = await session.search('Analyze', {
    game, state_json: stateJson, seat, preset: options.preset, seed, top_k: 3,
  });
  console.log(`analysis for seat ${seat} (${analysis.stats.iterations} iterations, ` +
    `stopped by ${analysis.stats.stopped_by}):`);
  // `value` and `lower_bound` are unset for a move the search did not try (visits 0).
  const figure = (x) => (x === undefined || x === null ? '-' : x.toFixed(3));
  for (const m of analysis.moves) {
    console.log(`  ${m.rank}. ${m.move.notation.padEnd(28)} visits ${m.visits.padStart(4)}` +
      `  value ${figure(m.value)}  lower bound ${figure(m.lower_bound)}` +
      `  line ${m.principal_variation.join(' ')}`);
  }
}

const MAX_MOVES = 5000; // a guard against a game that never ends

async function playGame(session, game, options) {
  let calls = 0;
  const nextSeed = () => seedString(options.seed, calls++);
  const request = newGameRequest(game, options, nextSeed());
  const label = game === 'leda'
    ? `clans ${options.clans.join(' vs ')}`
    : `${options.players} players`;
  console.log(`\n== ${game}: ${label}, seed ${request.seed}, preset ${options.preset}`);

  const started = await session.call(session.bot, 'NewGame', request);
  let stateJson = started.state_json; // a Buffer; sent back unchanged
  let summary = started.summary;
  if (started.chance_events.length) console.log(`setup: ${started.chance_events.join(' ')}`);

  let moves = 0;
  while (!summary.terminal) {
    const seat = summary.current_player;
    if (seat < 0) throw new Error(`no seat to move (current_player ${seat}) in a live game`);
    if (moves === 0) await showFirstDecision(session, game, stateJson, seat, options, nextSeed());
    if (moves >= MAX_MOVES) throw new Error(`${game} did not end within ${MAX_MOVES} moves`);

    const choice = await session.search('ChooseMove', {
      game, state_json: stateJson, seat, preset: options.preset, seed: nextSeed(),
    });
    // The oneof `move`: set exactly one of notation and move_json (both forms work; this
    // alternates to show each).
    const byNotation = moves % 2 === 0;
    const applyRequest = { game, state_json: stateJson, seed: nextSeed() };
    if (byNotation) applyRequest.notation = choice.move.notation;
    else applyRequest.move_json = choice.move.move_json;
    const applied = await session.call(session.bot, 'ApplyMove', applyRequest);

    moves++;
    const events = applied.chance_events.length ? `  then ${applied.chance_events.join(' ')}` : '';
    console.log(`  ${String(moves).padStart(3)}. seat ${seat} ${applied.move.notation.padEnd(30)}` +
      ` (${choice.stats.iterations} it, ${choice.stats.elapsed_ms.toFixed(1)} ms, ` +
      `${byNotation ? 'notation' : 'move_json'})${events}`);
    stateJson = applied.state_json;
    summary = applied.summary;
  }

  const best = Math.max(...summary.returns);
  const winners = summary.returns.flatMap((r, seat) => (r === best && best > 0 ? [seat] : []));
  const winner = winners.length ? `seat ${winners.join(', ')}` : 'none';
  console.log(`${game} finished after ${moves} moves: scores [${summary.scores.join(', ')}], ` +
    `returns [${summary.returns.join(', ')}], winner ${winner}`);

  // An error on purpose: the game is over, so the bot has no move to choose.
  try {
    await session.search('ChooseMove', {
      game, state_json: stateJson, seat: 0, preset: options.preset, seed: nextSeed(),
    });
    console.log('ChooseMove on a finished game was accepted (unexpected)');
    return false;
  } catch (error) {
    if (error.code !== grpc.status.FAILED_PRECONDITION) throw error;
    console.log(`expected error for a move after the end: ${describeError(error)}`);
  }
  return true;
}

// Two requests that are wrong on purpose, to show what an error carries: a state edited into
// an impossible one, and a move that cannot be parsed. Returns false if one was accepted.
async function showErrors(session, options) {
  const game = await session.call(session.bot, 'NewGame', newGameRequest('leda', options, '7'));
  const seat = game.summary.current_player;
  const broken = fromJsonBytes(game.state_json);
  broken.players[0].food = -1;
  const wrongRequests = [
    ['LegalMoves', { game: 'leda', state_json: jsonBytes(broken), seat }],
    ['ApplyMove', { game: 'leda', state_json: game.state_json, notation: 'fly', seed: '1' }],
  ];
  let allRefused = true;
  for (const [method, request] of wrongRequests) {
    try {
      await session.call(session.bot, method, request);
      console.log(`\n${method} accepted a wrong request (unexpected)`);
      allRefused = false;
    } catch (error) {
      // Branch on the stable reason (ErrorInfo.reason), never on the message text.
      const reason = statusDetails(error).errorInfo?.reason ?? '(no rich details)';
      console.log(`\nexpected error from ${method}, reason ${reason}: ${describeError(error)}`);
    }
  }
  return allRefused;
}

async function main() {
  let options;
  try {
    options = parseCommandLine(process.argv.slice(2));
  } catch (error) {
    console.error(`${error.message}\n${USAGE}`);
    return 2;
  }
  const session = new Session(options);
  const finished = [];
  let errorsShown = false;
  try {
    await checkHealth(session);
    const games = await listGames(session);
    for (const game of options.games) {
      const info = games.get(game);
      if (!info) throw new Error(`the server does not know ${game}`);
      if (game === 'legend_raiders' &&
          (options.players < info.min_players || options.players > info.max_players)) {
        throw new UsageError(`--players: ${game} takes ${info.min_players}-${info.max_players}`);
      }
    }
    for (const game of options.games) {
      if (await playGame(session, game, options)) finished.push(game);
    }
    errorsShown = await showErrors(session, options);
  } catch (error) {
    const isStatus = typeof error.code === 'number';
    console.error(isStatus ? `call failed: ${describeError(error)}` : `error: ${error.message}`);
    if (error instanceof UsageError) return 2;
  } finally {
    session.close();
  }
  const missing = options.games.filter((g) => !finished.includes(g));
  console.log(missing.length
    ? `\nNOT FINISHED: ${missing.join(', ')}`
    : `\nall games finished: ${finished.join(', ')}`);
  return missing.length || !errorsShown ? 1 : 0;
}

if (require.main === module) {
  main().then((code) => {
    process.exitCode = code;
  });
}

module.exports = { LOADER_OPTIONS, describeError, statusDetails };
