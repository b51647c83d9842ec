"""Small games added to the engine exactly as docs/adding-a-game.md describes, with their tests."""
