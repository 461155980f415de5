"""`make bench`: every benchmark at 1k and 10k, then ONE table: figure | size | value | floor | ratio.

    .venv/bin/python bench/run_all.py [--sizes 1000 10000] [--only pages manifests ...] [--json]

Each benchmark runs as a subprocess with its machine-readable output (``--json``: ``BENCH-ROW``
lines, bench/rows.py; bench/sweeps.py writes its results to a file), in its own throwaway
database (SQLite, or DATABASE_URL: then give each run a new, empty scratch database). The floor
is the same work done bare, measured in the same run by the benchmark itself (docs/performance.md
says what each floor is); the ratio is how many times worse than the floor (value / floor for
times and memory, floor / value for rates). A figure without a floor shows "-".

The benchmarks and their sizes ("size" in the table):

- pages: bench/list_pages.py, the lists staff open most at N establishments, median ms beside the
  login page (a trivial view of the same stack);
- manifests: bench/manifest_import.py --rows N, the CSV import's rows/s (CPU) beside executemany
  of the same rows into every table the import writes;
- sweeps: bench/sweeps.py, the nightly sweep's steps on a generated program of N establishments,
  beside the bare SQL of all their writes (CPU seconds on SQLite, wall seconds on PostgreSQL);
- generate: bench/generate.py, `fogcontrol bench generate --establishments N`, its manifests
  phase beside executemany of the same rows without the chain;
- exports: bench/export_memory.py, an export of N rows, peak Python memory;
- licences: bench/import_licences.py, the sample licence file, rows/s;
- pdf: bench/pdf_batch.py --count 50, documents/s (CPU).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess  # nosec B404: runs the benchmarks of this directory
import sys
import tempfile
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH.parent))

from bench.rows import read  # noqa: E402  (after the path is set)

NAMES = ("pages", "manifests", "sweeps", "generate", "exports", "licences", "pdf")


def _run(arguments: list[str]) -> str:
    started = time.perf_counter()
    done = subprocess.run(  # nosec B603: this directory's scripts, with numbers for arguments
        [sys.executable, *arguments], capture_output=True, text=True
    )
    print(f"  {' '.join(Path(a).name if a.endswith('.py') else a for a in arguments)}: "
          f"{time.perf_counter() - started:.0f} s{'' if done.returncode == 0 else ' FAILED'}", file=sys.stderr, flush=True)  # fmt: skip
    if done.returncode:
        sys.stderr.write(done.stderr[-3000:])
        return ""
    return done.stdout


def _sweeps(sizes: list[int]) -> list[dict]:
    out = Path(tempfile.mkdtemp(prefix="fogcontrol-bench-")) / "sweeps.json"
    if (
        not _run([str(BENCH / "sweeps.py"), "--sizes", *map(str, sizes), "--json", str(out)])
        or not out.exists()
    ):
        return []
    # SQLite runs in the process, so its CPU seconds are the work whatever else the machine does;
    # PostgreSQL's work is the server's, so there the wall seconds (bench/sweeps.py does the same).
    cpu = not os.environ.get("DATABASE_URL")
    rows = []
    for result in json.loads(out.read_text()):
        for step in result["steps"]:
            value, floor = (step["cpu"], step.get("floor_cpu")) if cpu else (step["wall"], step["floor"])
            if floor:
                rows.append(
                    {"figure": f"sweep run {step['run']}: {step['step']}{', CPU' if cpu else ''}",
                     "size": result["establishments"], "value": value, "unit": "s", "floor": floor,
                     "ratio": value / floor}
                )  # fmt: skip
    return rows


def collect(names: list[str], sizes: list[int]) -> list[dict]:
    rows: list[dict] = []
    sized = [str(size) for size in sizes]
    for name in names:
        if name == "pages":
            rows += read(_run([str(BENCH / "list_pages.py"), "--sizes", *sized, "--repeat", "10", "--json"]))
        elif name == "manifests":
            for size in sized:
                rows += read(_run([str(BENCH / "manifest_import.py"), "--rows", size, "--json"]))
        elif name == "sweeps":
            rows += _sweeps(sizes)
        elif name == "generate":
            for result in json.loads(_run([str(BENCH / "generate.py"), "--sizes", *sized, "--json"]) or "[]"):
                manifests = result["phases"]["manifests"]
                rows.append(
                    {"figure": f"generate: {result['manifests']:,} manifests on the chain", "size": result["establishments"],
                     "value": manifests["wall"], "unit": "s", "floor": result["floor_wall"],
                     "ratio": manifests["wall"] / result["floor_wall"] if result["floor_wall"] else None}
                )  # fmt: skip
        elif name == "exports":
            rows += read(_run([str(BENCH / "export_memory.py"), "--sizes", *sized, "--json"]))
        elif name == "licences":
            rows += read(_run([str(BENCH / "import_licences.py"), "--json"]))
        elif name == "pdf":
            rows += read(_run([str(BENCH / "pdf_batch.py"), "--count", "50", "--json"]))
    return rows


def table(rows: list[dict]) -> str:
    def number(value) -> str:
        if value is None:
            return "-"
        if abs(value) >= 100:
            return f"{value:,.0f}"
        return f"{value:,.2f}" if abs(value) >= 1 else f"{value:.3g}"

    lines = ["| figure | size | value | floor | ratio |", "| --- | ---: | ---: | ---: | ---: |"]
    for row in rows:
        ratio = "-" if row.get("ratio") is None else f"{row['ratio']:,.1f}×"
        lines.append(
            f"| {row['figure']} | {row['size']:,} | {number(row['value'])} {row['unit']} | "
            f"{number(row.get('floor'))} | {ratio} |"
        )
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000])
    parser.add_argument("--only", nargs="+", choices=NAMES, default=list(NAMES))
    parser.add_argument("--json", action="store_true", help="Print the rows as JSON instead of the table.")
    args = parser.parse_args()
    started = time.perf_counter()
    rows = collect(args.only, args.sizes)
    if args.json:
        print(json.dumps(rows))
    else:
        print(table(rows))
        print(
            f"\n{len(rows)} figures in {time.perf_counter() - started:.0f} s (details of each run: its own script)."
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
