"""Related papers and suggested tags."""
