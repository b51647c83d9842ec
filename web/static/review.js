// Review of the shown game in one click: its record goes to ReviewGame, and every judged move is
// kept on the history entry it was played from as it arrives (the graph and the list below it
// fill in), then the summary per seat. Cancelling closes the stream, which cancels the review.

import {reviewStream} from "/static/api.js";
import {MARKED} from "/static/graph.js";
import {el} from "/static/ui.js";

export const JUDGEMENTS = ["best", "good", "inaccuracy", "mistake", "blunder", "forced"];

// Runs the review of `record`: `decisions` maps a record move index to the history entry the
// move was played from; onPosition(entryIndex, review) and onSummary(summary) report; resolves
// when the review ends or `signal` stops it.
export async function runReview({record, decisions, entries, timeMs, seed, signal, onPosition, onSummary}) {
  const request = {record_json: record, settings: {time_ms: timeMs}, seed: String(seed)};
  await reviewStream(request, (message) => {
    if (message.summary && !message.position) {
      onSummary(message.summary);
      return;
    }
    const review = message.position;
    const p = decisions.get(review?.index ?? -1);
    if (p === undefined) return;
    const e = entries[p];
    e.review = review;
    // The review's search of the position serves as its analysis when it has none of its own.
    if (!e.analysis && review.candidates?.length) {
      e.analysis = {moves: review.candidates, stats: review.stats, final: true,
                    seat_values: review.values_before, fromReview: true};
    }
    onPosition(p, review);
  }, signal);
}

// The judged moves of `history`, in order, into `list`; onPick(index) on a click.
export function drawReviewList(list, history, labels, onPick, markedOnly) {
  const rows = [];
  history.forEach((e, p) => {
    const r = e.review;
    if (!r || (markedOnly && !MARKED.includes(r.judgement))) return;
    const loss = Number(r.loss || 0);
    const text = `${p + 1}. ${labels[r.seat]}: ${r.played?.notation}` +
      (r.judgement === "best" || r.judgement === "forced" ? "" : ` (best ${r.best?.notation})`);
    rows.push(el("li", {class: `judged ${r.judgement}`},
      el("button", {dataset: {testid: "review-entry", judgement: r.judgement, position: String(p)},
                    onclick: () => onPick(p)},
        el("span", {class: "judgement", textContent: r.judgement}),
        el("span", {class: "judged-move", textContent: text}),
        el("span", {class: "loss", textContent: loss > 0 ? `−${loss.toFixed(3)}` : ""}))));
  });
  list.replaceChildren(...rows);
}

// The review's summary per seat into `table`.
export function drawReviewSummary(table, summary, labels) {
  if (!summary) {
    table.replaceChildren();
    return;
  }
  const head = el("tr", {}, ...["seat", "moves", "accuracy", "avg loss", "inacc.", "mistakes", "blunders"]
    .map((t) => el("th", {textContent: t})));
  const rows = (summary.seats || []).map((s) => el("tr", {dataset: {testid: "review-seat", seat: String(s.seat)}},
    el("td", {textContent: labels[s.seat] ?? `Seat ${s.seat}`}),
    el("td", {textContent: String(s.moves ?? 0)}),
    el("td", {textContent: `${Number(s.accuracy || 0).toFixed(1)}%`}),  // already in percent
    el("td", {textContent: Number(s.average_loss || 0).toFixed(3)}),
    el("td", {textContent: String(s.inaccuracies ?? 0)}),
    el("td", {textContent: String(s.mistakes ?? 0)}),
    el("td", {textContent: String(s.blunders ?? 0)})));
  table.replaceChildren(el("thead", {}, head), el("tbody", {}, ...rows));
}
