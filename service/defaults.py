"""Defaults a client needs before it opens a channel (importable without gRPC)."""

DEFAULT_ADDRESS = "127.0.0.1:50051"
"""Where a client looks for the server when told nothing else."""
