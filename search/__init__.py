"""Information-set MCTS over the engine's Game protocol; never imports a concrete game."""
