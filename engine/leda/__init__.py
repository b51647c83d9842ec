"""LEDA: the rules engine for the two-player asymmetric clan game."""
