"""boardbot: information-set MCTS opponents for hidden-information board games, over gRPC.

Subpackages: `engine` (rules), `search` (ISMCTS), `jobs` (request handling in worker
processes), `service` (the gRPC edge), `cli` (the command line), `tools` (benchmarks and
matches), `proto` (the generated wire contract).
"""
