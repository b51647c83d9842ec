// What depends on the screen: touch (tap instead of hover) and keeping the seat to move in view.

// True on a device whose main pointer cannot hover (a phone, a tablet): a tap shows a move on the
// board, and a second tap plays it.
export function isTouch() {
  return window.matchMedia("(hover: none)").matches;
}

// Scrolls the board of `seat` into view when part of it is out of view (the page's
// scroll-padding keeps it clear of the fixed parts).
export function revealSeat(board, seat) {
  if (typeof seat !== "number" || seat < 0) return;
  const part = board.querySelector(`[data-seat="${seat}"]`);
  if (!part) return;
  const box = part.getBoundingClientRect();
  const style = getComputedStyle(document.documentElement);
  const top = parseFloat(style.scrollPaddingTop) || 0;
  const bottom = window.innerHeight - (parseFloat(style.scrollPaddingBottom) || 0);
  if (box.top >= top && box.bottom <= bottom) return;
  // A seat taller than the room shows its top (its name, its "to move" mark).
  part.scrollIntoView({block: box.height > bottom - top ? "start" : "nearest", behavior: "instant"});
}
