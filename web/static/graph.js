// The evaluation graph under the board: every seat's value at every position of the game that a
// search has valued (an analysis or the review), the reviewed mistakes marked on it. A click on
// the graph shows the nearest position; a click on a mark shows the position the move was
// played from.

import {positionValues} from "/static/values.js";

const SVG = "http://www.w3.org/2000/svg";
const HEIGHT = 132;
const PAD = {left: 30, right: 10, top: 8, bottom: 18};
export const MARKED = ["inaccuracy", "mistake", "blunder"];

function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  node.append(...children);
  return node;
}

function titled(node, text) {
  node.append(svg("title", {}, text));
  return node;
}

// Draws the graph of `history` into `box`: `index` is the shown position, `labels` name the seats,
// onPick(position) is called on a click.
export function drawGraph(box, history, index, labels, onPick) {
  const width = Math.max(240, box.clientWidth || 600);
  const last = Math.max(1, history.length - 1);
  const x = (p) => PAD.left + ((width - PAD.left - PAD.right) * p) / last;
  const y = (v) => PAD.top + (HEIGHT - PAD.top - PAD.bottom) * (1 - v);
  const root = svg("svg", {width, height: HEIGHT, viewBox: `0 0 ${width} ${HEIGHT}`, class: "graph-svg",
                           role: "img", "aria-label": "every seat's value along the game"});
  const frame = svg("rect", {x: PAD.left, y: PAD.top, width: width - PAD.left - PAD.right,
                             height: HEIGHT - PAD.top - PAD.bottom, class: "graph-frame"});
  root.append(frame);
  for (const v of [0, 0.5, 1]) {
    root.append(svg("line", {x1: PAD.left, x2: width - PAD.right, y1: y(v), y2: y(v), class: "graph-grid"}),
                svg("text", {x: PAD.left - 4, y: y(v) + 4, class: "graph-axis", "text-anchor": "end"}, String(100 * v)));
  }
  root.append(svg("text", {x: PAD.left, y: HEIGHT - 4, class: "graph-axis"}, "0"),
              svg("text", {x: width - PAD.right, y: HEIGHT - 4, class: "graph-axis", "text-anchor": "end"}, String(history.length - 1)));
  root.append(svg("line", {x1: x(index), x2: x(index), y1: PAD.top, y2: HEIGHT - PAD.bottom, class: "graph-now",
                           "data-testid": "graph-now", "data-position": index}));
  const found = history.map((_, p) => positionValues(history, p));
  let valued = 0;
  labels.forEach((label, seat) => {
    const points = found.map((f, p) => (f ? [p, f.values[seat]] : null)).filter(Boolean);
    valued = Math.max(valued, points.length);
    if (!points.length) return;
    const d = points.map(([p, v], i) => `${i ? "L" : "M"}${x(p).toFixed(1)},${y(v).toFixed(1)}`).join(" ");
    root.append(titled(svg("path", {d, class: `graph-line seat-${seat}`, "data-testid": `graph-line-${seat}`}), label));
    for (const [p, v] of points) {
      root.append(titled(svg("circle", {cx: x(p), cy: y(v), r: 2, class: `graph-point seat-${seat}`}),
                         `move ${p}: ${label} ${Math.round(100 * v)}`));
    }
  });
  root.dataset.valued = String(valued);
  // Clicks anywhere show the nearest position.
  root.addEventListener("click", (event) => {
    const rect = root.getBoundingClientRect();
    const p = Math.round(((event.clientX - rect.left - PAD.left) / (width - PAD.left - PAD.right)) * last);
    onPick(Math.min(history.length - 1, Math.max(0, p)));
  });
  history.forEach((e, p) => {
    const review = e.review;
    if (!review || !MARKED.includes(review.judgement) || p + 1 >= history.length) return;
    const seat = review.seat;
    const after = found[p + 1]?.values[seat] ?? Number(review.values_after?.[seat] ?? review.played_value);
    const mark = svg("circle", {cx: x(p + 1), cy: y(after), r: review.judgement === "inaccuracy" ? 4 : 5.5,
                                class: `graph-mark ${review.judgement} seat-${seat}`, tabindex: 0,
                                "data-testid": "graph-mark", "data-position": p, "data-judgement": review.judgement});
    titled(mark, `${review.judgement}: move ${p + 1}, ${labels[seat]} played ${review.played?.notation}, ` +
                 `best ${review.best?.notation} (loses ${Number(review.loss).toFixed(3)})`);
    const pick = (event) => { event.stopPropagation(); onPick(p); };
    mark.addEventListener("click", pick);
    mark.addEventListener("keydown", (event) => { if (event.key === "Enter") pick(event); });
    root.append(mark);
  });
  box.replaceChildren(root);
}
