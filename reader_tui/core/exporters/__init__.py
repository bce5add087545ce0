"""Writers that turn papers into text: BibTeX, Markdown."""
