"""Sharing a library through git: `repository` (init, sync), `merge` (the merge rules) and
`driver` (git's entry to them), `guard` and `remote_files` (what is taken from a remote),
`changes`, `state`, `group` (a reading group's marks).

Empty on purpose: git runs `python -m reader_tui.core.library.sync.driver` for each
merged file, and that loads this package first; the driver needs only the merge.
"""
