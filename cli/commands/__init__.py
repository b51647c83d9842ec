"""Subcommands of the `boardbot` CLI; each module exposes `register(subparsers)`."""
