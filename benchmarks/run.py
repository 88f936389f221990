"""Run the benchmarks without the CLI: `python benchmarks/run.py [--quick] [--json]`."""

from __future__ import annotations

import sys

from nekobako.cli.bench import bench_command

if __name__ == "__main__":
    bench_command(as_json="--json" in sys.argv[1:], quick="--quick" in sys.argv[1:])
