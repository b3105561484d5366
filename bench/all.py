"""Run every benchmark and print one table: each figure, its baseline measured in the same run, the ratio, the goal.

The table is also written to bench/RESULTS.md (linked from the README), with the commit and the machine.

Run: make bench            (everything: about 30 minutes, 20 of them the two 10-minute load runs)
     .venv/bin/python bench/all.py --quick    (load runs of 60 s, smaller report sizes: about 6 minutes)
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PYTHON = sys.executable


def benches(quick: bool) -> list[tuple[str, list[str]]]:
    load_seconds = "60" if quick else "600"
    return [
        ("engine", [PYTHON, "bench/run.py"]),
        ("finder", [PYTHON, "bench/finder.py"]),
        ("page weight", [PYTHON, "bench/page_weight.py"]),
        ("network", [PYTHON, "bench/network.py"]),
        ("taps", [PYTHON, "bench/taps.py"]),
        ("incidents", [PYTHON, "bench/incidents.py"] + (["--events", "10", "--samples", "150"] if quick else [])),
        ("DQ report", [PYTHON, "bench/dq_report.py"]),
        ("QR sheet", [PYTHON, "bench/qr_sheet.py"] + (["--runs", "1"] if quick else [])),
        ("event report", [PYTHON, "bench/event_report.py"] + (["--sizes", "200,2000", "--runs", "3"] if quick else [])),
        ("policy upload", [PYTHON, "bench/policy_upload.py"]),
        ("jobs", [PYTHON, "bench/jobs.py"] + (["--rows", "30000"] if quick else [])),
        ("players page", [PYTHON, "bench/players_page.py"] + (["--rows", "30000"] if quick else [])),
        ("history, SQLite", [PYTHON, "bench/history.py"]),
        ("languages", [PYTHON, "bench/languages.py"] + (["--runs", "15"] if quick else [])),
        ("history, PostgreSQL", ["scripts/with-postgres.sh", PYTHON, "bench/history.py"]),
        ("calls, SQLite", [PYTHON, "bench/calls.py", "--seconds", "20" if quick else "120"]),
        (
            "calls, PostgreSQL",
            ["scripts/with-postgres.sh", PYTHON, "bench/calls.py", "--seconds", "20" if quick else "120"],
        ),
        ("load, SQLite", [PYTHON, "bench/load.py", "--seconds", load_seconds]),
        ("load, PostgreSQL", ["scripts/with-postgres.sh", PYTHON, "bench/load.py", "--seconds", load_seconds]),
    ]


def number(value: float) -> str:
    return f"{value:,.0f}" if abs(value) >= 100 else f"{value:,.2f}".rstrip("0").rstrip(".") if value else "0"


def table(rows: list[dict]) -> str:
    lines = ["| benchmark | figure | value | baseline (same run) | ratio | goal |", "|---|---|---:|---|---:|---|"]
    for r in rows:
        base = f"{r['baseline']}: {number(r['baseline_value'])} {r['unit']}" if r["baseline_value"] else ""
        ratio = f"{r['ratio']:.2f}×" if r["ratio"] else ""
        goal = f"{r['goal']} {'met' if r['met'] else '**NOT met**'}" if r["goal"] else ""
        lines.append(f"| {r['bench']} | {r['figure']} | {number(r['value'])} {r['unit']} | {base} | {ratio} | {goal} |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--only", help="comma-separated names, e.g. 'engine,page weight'")
    args = parser.parse_args()
    chosen = benches(args.quick)
    if args.only:
        wanted = {w.strip() for w in args.only.split(",")}
        chosen = [b for b in chosen if b[0] in wanted]
    rows, failed = [], []
    started = time.monotonic()
    with tempfile.TemporaryDirectory() as tmp:
        results = Path(tmp) / "results.jsonl"
        for name, command in chosen:
            print(f"\n== {name}: {' '.join(command[1:] if command[0] == PYTHON else command)}", flush=True)
            done = subprocess.run(command, cwd=ROOT, env={**os.environ, "BENCH_RESULTS": str(results)})
            if done.returncode != 0:
                failed.append(f"{name} (exit {done.returncode})")
        if results.exists():
            rows = [json.loads(line) for line in results.read_text().splitlines()]
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True
    ).stdout.strip()
    header = (
        f"judgeapp benchmarks, {datetime.now(UTC):%Y-%m-%d %H:%M} UTC, commit {commit or '?'}, "
        f"{os.cpu_count()} CPUs, Python {platform.python_version()}"
        f"{', quick run' if args.quick else ''}; {time.monotonic() - started:.0f} s in all"
    )
    text = f"{header}\n\n{table(rows)}\n"
    if failed:
        text += f"\nFailed: {', '.join(failed)}\n"
    print("\n" + text)
    if not args.only:
        (ROOT / "bench" / "RESULTS.md").write_text(
            "# Latest benchmark table\n\nWritten by `make bench` (bench/all.py); every ratio is against a baseline "
            "measured in the same run.\n\n" + text
        )
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
