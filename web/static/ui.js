// Small DOM helpers of the page (the boards have their own, games/dom.js).

export const $ = (id) => document.getElementById(id);

// An element with properties (dataset, class, style through the CSSOM, on<event> listeners) and
// children.
export function el(tag, props = {}, ...children) {
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

// Fills a <select> with `values`, choosing `chosen` when it is one of them.
export function fillSelect(select, values, chosen) {
  select.replaceChildren(...values.map((v) => el("option", {value: v, textContent: v})));
  if (chosen !== undefined && values.includes(chosen)) select.value = chosen;
}
