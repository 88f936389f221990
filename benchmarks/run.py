"""Run the benchmarks without the CLI: `python benchmarks/run.py [--quick] [--json] [--ja]`."""

from __future__ import annotations

import sys

from nekobako.cli.bench import bench_command

if __name__ == "__main__":
    args = sys.argv[1:]
    bench_command(as_json="--json" in args, quick="--quick" in args, lang="ja" if "--ja" in args else "en")
