"""The `reader-tui` command line: one module per group of commands (see `main` for the
table of commands). Textual is imported only when the TUI starts."""

from .main import main

__all__ = ["main"]
