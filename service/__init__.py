"""The gRPC edge: server, servicer, auth, metrics, request log, proto conversion, client."""
