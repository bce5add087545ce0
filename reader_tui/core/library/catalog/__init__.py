"""The catalog of papers: `records` (the catalog in memory), `layout` (the cache of where
each record sits in its file), `merge` (an import into the catalog), `same_paper` (when two
records are one paper).

Empty on purpose: opening a library loads `records` and `layout`; an import's merge
loads only when something is imported.
"""
