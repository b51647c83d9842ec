"""boardbot.v1: generated messages and service stubs (never edit; run `make proto`)."""
