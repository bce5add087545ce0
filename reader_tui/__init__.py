"""reader-tui: a keyboard-driven terminal reading-list manager for conference paper lists."""

__version__ = "0.1.0"
