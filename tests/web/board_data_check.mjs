// Runs the board's component lookups (web/static/games/leda_data.js, lr_data.js) in Node on the
// data files the engines read, and prints what they give as JSON, for test_board_data.py.
// Usage: node board_data_check.mjs STATIC_DIR LEDA_JSON LEGEND_RAIDERS_JSON

import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const [staticDir, ledaFile, lrFile] = process.argv.slice(2);
const load = (name) => import(pathToFileURL(path.join(staticDir, "games", name)).href);
const { ledaData } = await load("leda_data.js");
const { lrData } = await load("lr_data.js");
const leda = JSON.parse(fs.readFileSync(ledaFile, "utf8"));
const lr = JSON.parse(fs.readFileSync(lrFile, "utf8"));
const L = ledaData(leda);
const R = lrData(lr);

const out = {
  leda: {
    squares: L.squares,
    corners: L.corners,
    neighbours: L.squares.map((_, i) => L.neighbours(i)),
    rings: L.rings,
    portals: L.portals,
    golds: L.golds,
    clans: Object.fromEntries(leda.clans.map((c) => [c.id, L.clan(c.id)])),
    effects: Object.fromEntries(leda.effects.map((e) => [e.number, L.effectText(e.number)])),
    items: Object.fromEntries([...leda.cards, ...leda.action_tiles, ...leda.mv_tokens]
      .map((r) => [r.number, L.itemId(r.number)])),
    cards: Object.fromEntries(leda.cards.map((c) => [c.id, {
      clan: L.cardClan(c.id), name: L.cardName(c.id), title: L.cardTitle(c.id), ...L.cardInfo(c.id),
    }])),
    tiles: Object.fromEntries(leda.tiles.map((t) => [t.id, L.tileInfo(t.id)])),
    zones: Object.fromEntries(leda.zones.map((z) => [z.id, [L.zoneName(z.id), L.zoneSquares(z.id)]])),
    actions: Object.fromEntries(leda.action_tiles.map((t) => [t.id, [L.actionName(t.id), L.actionZones(t.id)]])),
    mv: Object.fromEntries(leda.mv_tokens.map((t) => [t.id, [L.mvName(t.id), L.mvInfo(t.id)]])),
    unknown: [L.cardName("cat-99"), L.effectText(999), L.itemId(999), L.zoneSquares("row9")],
  },
  legend_raiders: {
    tools: Object.fromEntries(lr.tools.map((t) => [t.id, [R.toolName(t.id), R.toolShort(t.id)]])),
    tiles: Object.fromEntries(lr.tiles.map((t) => [t.id, R.tileInfo(t.id)])),
    cards: Object.fromEntries(lr.expedition_cards.map((c) => [c.id, R.cardInfo(c.id)])),
    characters: lr.characters.map((c) => R.character(c.board)),
    limits: [R.maxPrepared, R.completedSpaces, R.backpack, R.hqColumns, R.faceUpCards,
      R.completionsPerTurn, R.coinsPerEmptySpace, R.completedCoinsFrom(0), R.completedCoinsFrom(6)],
  },
};
process.stdout.write(JSON.stringify(out));
