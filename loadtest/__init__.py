"""Load tests of a running boardbot server over gRPC: locust scenarios, corpus, SLO checks."""
