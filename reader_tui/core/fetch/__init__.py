"""Fetching a venue from OpenReview (API v2): the politeness rules and the official
client's setup (`client`), the dated snapshot written page by page and resumed after a
kill (`snapshot`), and what moved between two snapshots of a library (`changes`).

Nothing here imports openreview-py until a fetch starts: a CLI start stays fast."""
