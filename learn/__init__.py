"""Learned evaluation: self-play data, the value and policy network, its training and its files."""
