"""The project's benchmark, outside the wheel: run from a checkout as `python -m benchmarks.bench`."""
