"""High Card: a tiny two-player game with a hidden card each and a chance step (a redraw)."""
