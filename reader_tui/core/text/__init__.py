"""Text for people and for matching: sanitising and display of LaTeX/markdown, derived titles, search tokens, citation keys."""
