"""The gRPC bot service, its worker processes and the `boardbot` command line."""
