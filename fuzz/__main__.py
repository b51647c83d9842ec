"""`python -m fuzz`: see fuzz.cli."""

import sys

from fuzz.cli import main

sys.exit(main())
