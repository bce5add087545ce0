"""The machine-speed probe times the loop's own process and reports every sample."""

from __future__ import annotations

import re

import pytest

from benchmarks import machine_speed


def test_a_sample_is_the_cpu_time_of_the_loops_process() -> None:
    # a hundred thousand times the additions: clearly more CPU, however noisy the machine
    assert machine_speed.sample(3_000_000) > 2 * machine_speed.sample(30)


def test_every_sample_is_printed_then_the_fastest_median_and_slowest(capsys: pytest.CaptureFixture[str]) -> None:
    assert machine_speed.main(["--samples", "3", "--every", "0", "--additions", "1000"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 4
    samples = [float(re.fullmatch(r"\d\d:\d\d:\d\d UTC  (\d+\.\d\d) s", line).group(1)) for line in lines[:3]]
    summary = re.fullmatch(r"1,000 additions, 3 samples: fastest (\S+) s, median (\S+) s, slowest (\S+) s", lines[3])
    assert summary is not None
    fastest, median, slowest = map(float, summary.groups())
    assert fastest == min(samples) and slowest == max(samples) and fastest <= median <= slowest


def test_a_wrong_option_is_refused_in_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit:
        machine_speed.main(["--samples", "0"])
    assert exit.value.code == 2
    assert capsys.readouterr().err.splitlines()[-1].endswith("--samples and --additions must be at least 1, --every at least 0")
