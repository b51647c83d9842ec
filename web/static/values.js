// Every seat's value at a position, and the per-seat bars beside the board. All the values of a
// position come from one search of that position (AnalyzeResponse.seat_values, or the review's
// values_before of the move played there): each seat's expected return from the same root, not
// each seat's estimate from its own turn.

const el = (tag, cls, text) => {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text !== undefined) node.textContent = text;
  return node;
};

const pct = (x) => `${(100 * x).toFixed(1)}%`;

// True when the search did not weigh the move: a forced move (the only legal one) has no value.
export function isForced(stats) {
  return stats?.stopped_by === "single_move";
}

// A move's value (or lower bound) as a percentage; unset when the search did not try the move:
// "forced" for the only legal move the bot played without a search, else "–".
export function valueText(value, stats) {
  if (value === undefined || value === null) return isForced(stats) ? "forced" : "–";
  return pct(Number(value));
}

function iterationsOf(stats) {
  return Number(stats?.iterations || 0) + Number(stats?.reused_visits || 0);
}

// {values, source, iterations} of history[index] (source: "result", "analysis", "review"), or null
// when no single search has valued every seat there.
export function positionValues(history, index) {
  const e = history[index];
  if (!e) return null;
  const seats = e.summary.num_players;
  if (e.summary.terminal) return {values: e.summary.returns.map(Number), source: "result", iterations: 0};
  const analysed = e.analysis?.seat_values;
  if (analysed?.length === seats && !e.analysis.fromReview) {
    return {values: analysed.map(Number), source: "analysis", iterations: iterationsOf(e.analysis.stats)};
  }
  const reviewed = e.review?.values_before;
  if (reviewed?.length === seats) {
    return {values: reviewed.map(Number), source: "review", iterations: iterationsOf(e.review.stats)};
  }
  const before = index > 0 ? history[index - 1].review : null;
  // The review's values after the move played from the position before: those of the next
  // decision, chance in between included.
  if (before?.values_after?.length === seats) {
    return {values: before.values_after.map(Number), source: "review", iterations: iterationsOf(before.stats)};
  }
  return null;
}

function explain(found, seat, label, index) {
  if (!found) return `${label}: no search of this position has valued every seat yet (analyse or review it)`;
  const v = found.values[seat];
  if (found.source === "result") return `${label}: ${v > 0 ? "won" : "did not win"} (the game is over; return ${v})`;
  const how = found.source === "review" ? "the review's search" : "one search";
  return `${label}: expected return ${v.toFixed(3)} from this position (move ${index}), ` +
    `from ${how} of ${found.iterations.toLocaleString()} iterations that valued every seat from the same root ` +
    "(1 is a win, 0 a loss); not a chance to win from each seat's own turn";
}

// Draws one bar per seat into `box` for history[index]; `forced` when the seat to move has one
// legal move and no search valued the position.
export function drawSeatBars(box, history, index, labels, forced) {
  const e = history[index];
  const found = positionValues(history, index);
  box.dataset.source = found ? found.source : "";
  box.replaceChildren(...labels.map((label, seat) => {
    const v = found ? found.values[seat] : null;
    const forcedHere = !found && forced && seat === e.summary.current_player;
    const bar = el("div", `eval-bar seat-${seat}`);
    bar.title = forcedHere ? `${label}: a forced move (the only legal one): its value is not known`
      : explain(found, seat, label, index);
    bar.dataset.testid = `eval-${seat}`;
    bar.dataset.value = v === null ? "" : v.toFixed(3);
    const fill = el("div", "fill");
    fill.style.height = `${v === null ? 0 : (100 * v).toFixed(1)}%`;  // CSSOM: allowed by the page's policy
    const text = forcedHere ? "forced" : v === null ? "–" : `${Math.round(100 * v)}`;
    bar.append(fill, el("span", forcedHere ? "eval-label forced" : "eval-label", text), el("span", "eval-seat", `S${seat}`));
    return bar;
  }));
}
