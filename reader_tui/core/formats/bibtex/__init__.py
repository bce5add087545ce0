"""BibTeX: the reader, the writer and the LaTeX, title-case and user-text encodings they share."""
