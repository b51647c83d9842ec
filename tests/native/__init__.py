"""Tests of the native core through its Python binding (boardbot_native)."""
