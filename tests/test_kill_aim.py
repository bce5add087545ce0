"""The kill loops' shared aim (tests/kill_aim.py): too few kills skip, saying why."""

from __future__ import annotations

import pytest

from tests.kill_aim import enough_kills


def test_too_few_kills_skip_with_the_reason_and_enough_pass() -> None:
    enough_kills(30, 30, "writer, seed 1")
    with pytest.raises(pytest.skip.Exception, match=r"only 29 of the 30 kills needed \(writer, seed 1\).*too slow"):
        enough_kills(29, 30, "writer, seed 1")
