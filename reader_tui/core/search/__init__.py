"""Search: the query syntax, the token index and its scoring, its on-disk cache, sorting."""
