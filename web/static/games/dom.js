// Shared helpers of the board renderers: a tiny DOM builder, hidden-part readers, highlight
// marking and text helpers. Pure ES2020 module, no dependency. Nothing here touches the page
// outside the given root.

// ------------------------------------------------------------------------------- DOM helpers

/**
 * Build an element: el("div", {class: "x", title: "t", dataset: {kind: "card"}}, child, ...).
 * Children may be strings, numbers, nodes, arrays of those, or null/undefined/false (skipped).
 * Text is always set as text (never parsed as HTML).
 */
export function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  if (attrs) {
    for (const [key, value] of Object.entries(attrs)) {
      if (value === null || value === undefined || value === false) continue;
      if (key === "class") node.className = value;
      else if (key === "dataset") {
        for (const [k, v] of Object.entries(value)) {
          if (v !== null && v !== undefined) node.dataset[k] = String(v);
        }
      } else if (key === "style" && typeof value === "object") {
        for (const [k, v] of Object.entries(value)) node.style.setProperty(k, String(v));
      } else node.setAttribute(key, value === true ? "" : String(value));
    }
  }
  append(node, children);
  return node;
}

function append(node, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(node, child);
    else if (child instanceof Node) node.appendChild(child);
    else node.appendChild(document.createTextNode(String(child)));
  }
}

/** Attributes making an element highlightable and findable by tests. */
export function hook(kind, id) {
  return { kind, id: String(id) };
}

/** Key of an involved element, for set lookups. */
export function key(kind, id) {
  return `${kind}\u0000${id}`;
}

/** `items` ({kind, id}) without repeats, in their first order. */
export function uniqueItems(items) {
  const seen = new Set();
  return items.filter((it) => {
    const k = key(it.kind, it.id);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/**
 * Mark every element of `root` whose data-kind/data-id is in `items` with `cls`.
 * Returns the number of elements marked.
 */
export function markInvolved(root, items, cls) {
  if (!items || items.length === 0) return 0;
  const wanted = new Set(items.map((it) => key(it.kind, it.id)));
  let n = 0;
  for (const node of root.querySelectorAll("[data-kind]")) {
    if (wanted.has(key(node.dataset.kind, node.dataset.id))) {
      node.classList.add(cls);
      n += 1;
    }
  }
  return n;
}

/** Remove every child of `root`. */
export function clear(root) {
  while (root.firstChild) root.removeChild(root.firstChild);
}

// ------------------------------------------------------------------------- hidden parts

/**
 * A sequence that may be hidden. Accepts a list (everything visible), {count, known} (LEDA
 * views: known is a list of names for a hand, a list of {index, item} for piles), or a bare
 * count (Legend Raiders views). Returns {visible: bool, count, items: [names] | null,
 * known: [{index|null, item}]}.
 */
export function readHidden(value) {
  if (Array.isArray(value)) {
    return { visible: true, count: value.length, items: value.slice(), known: [] };
  }
  if (typeof value === "number") {
    return { visible: false, count: value, items: null, known: [] };
  }
  if (value && typeof value === "object") {
    const count = typeof value.count === "number" ? value.count : 0;
    const known = [];
    for (const entry of Array.isArray(value.known) ? value.known : []) {
      if (typeof entry === "string") known.push({ index: null, item: entry });
      else if (entry && typeof entry.item === "string") {
        known.push({ index: typeof entry.index === "number" ? entry.index : null, item: entry.item });
      }
    }
    known.sort((a, b) => (a.index ?? 0) - (b.index ?? 0));
    return { visible: false, count, items: null, known };
  }
  return { visible: true, count: 0, items: [], known: [] };
}

/** "1st", "2nd", ... for positions (0 = top). */
export function ordinal(index) {
  const n = index + 1;
  const s = n % 100 >= 11 && n % 100 <= 13 ? "th" : ({ 1: "st", 2: "nd", 3: "rd" }[n % 10] || "th");
  return `${n}${s}`;
}

/** Title-case an id: "el-dorado" -> "El Dorado". */
export function titleize(id) {
  return String(id)
    .split(/[-_]/)
    .filter(Boolean)
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join(" ");
}

/** "3 cards", "1 card". */
export function plural(n, word, many) {
  return `${n} ${n === 1 ? word : many || `${word}s`}`;
}

/** A label per seat from ctx.names, or "Seat N". */
export function seatLabel(ctx, seat) {
  const names = ctx && Array.isArray(ctx.names) ? ctx.names : [];
  const name = names[seat];
  return typeof name === "string" && name !== "" ? name : `Seat ${seat}`;
}

/** A safe ctx with defaults. */
export function normCtx(ctx) {
  const c = ctx && typeof ctx === "object" ? ctx : {};
  return {
    seat: typeof c.seat === "number" ? c.seat : null,
    names: Array.isArray(c.names) ? c.names : [],
    highlight: c.highlight && typeof c.highlight === "object" ? c.highlight : null,
    best: c.best && typeof c.best === "object" ? c.best : null,
    toMove: typeof c.toMove === "number" ? c.toMove : null,
  };
}

