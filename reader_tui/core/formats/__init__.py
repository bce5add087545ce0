"""File formats, reader and writer side by side: the import contract and detection, BibTeX, OpenReview, CSV, seed lists, Markdown, and how an export is written."""
