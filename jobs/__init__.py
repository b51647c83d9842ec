"""Worker-side request handling, free of gRPC: the process pool, search and rules jobs."""
