"""Legend Raiders (2-4 players, with the die or diceless): rules engine over the shared core."""
