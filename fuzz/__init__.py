"""Fuzzing harness: mutated states and moves in process, hostile requests over gRPC."""
