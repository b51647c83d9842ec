"""Wire contract of boardbot: .proto sources and their generated Python code."""
