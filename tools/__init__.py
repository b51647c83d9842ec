"""Benchmarks, matches and measurements over the engines and the search."""
