"""Tests of the learned evaluation: the network file, the data, training."""
