"""Strength by Elo: calibration tables per game, and the knob mapping a target Elo to a bot."""
