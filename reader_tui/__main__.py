"""`python -m reader_tui` is the `reader-tui` command."""

import sys

from .cli import main

sys.exit(main())
