"""A DOI in its comparable form, for matching papers and looking one up.

A DOI is stored and exported as it came (`10.1109/TIT.1955.1055126`,
`http://dx.doi.org/...`); only comparisons use this form.
"""

from __future__ import annotations

import re

_DOI_PREFIX = re.compile(r"^(?:https?://(?:dx\.)?doi\.org/|doi:\s*)", re.I)


def normalise_doi(doi: str) -> str:
    """A DOI in its comparable form: lower case, without `https://doi.org/` or `doi:`."""
    return _DOI_PREFIX.sub("", (doi or "").strip()).strip().lower()
