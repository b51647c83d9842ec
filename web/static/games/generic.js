// A board for a game the page has no drawing of: its state JSON, readable.
export const gameName = "";

export function render(root, state, ctx) {
  root.replaceChildren();
  const pre = document.createElement("pre");
  pre.className = "generic-board";
  pre.dataset.board = "generic";
  pre.textContent = JSON.stringify(state, null, 2);
  root.append(pre);
}

export function involved() {
  return [];
}
