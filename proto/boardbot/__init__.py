"""The boardbot proto package."""
