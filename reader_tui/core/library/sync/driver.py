"""git's merge driver for a synced library's files, as git runs it (`sync.driver_command`):

    python -m reader_tui.core.library.sync.driver BASE OURS THEIRS [PATH]

The merged file is written over OURS; exit 0 when merged (a note changed on both sides is
merged with marks, not left to git), 1 with one line on stderr when a version cannot be
read, 2 for a wrong command line.

git starts one interpreter per store file it merges, so this imports the merge and what
it reads and writes with, not the `reader-tui` command (its parser, the library, the
exporters): 258 M instructions to be ready instead of 311 M (Python alone: 142 M). The
command's own `reader-tui sync merge-driver`, which repositories set up before this
module name, does the same merge.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

USAGE = "usage: python -m reader_tui.core.library.sync.driver BASE OURS THEIRS [PATH] (git runs it: see .gitattributes)"


def main(argv: Sequence[str]) -> int:
    if len(argv) not in (3, 4):
        print(f"reader-tui: {USAGE}", file=sys.stderr)
        return 2
    from ...atomic_storage import StoreError, describe_error
    from .merge import merge_files

    try:
        merge_files(*argv[:3])
    except (StoreError, OSError) as error:
        from ...text.display import sanitize

        text = str(error) if isinstance(error, StoreError) else describe_error(error)
        lines = text.strip().splitlines()
        print(f"reader-tui: {sanitize(lines[0] if lines else type(error).__name__)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
