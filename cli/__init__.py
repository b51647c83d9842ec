"""The `boardbot` command line: one module per subcommand."""
