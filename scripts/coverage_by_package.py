"""Print coverage per package from coverage.py's JSON report, and fail when a package is under its floor.

    python scripts/coverage_by_package.py tests/artifacts/coverage.json --floor judgeapp/infractions=95

Percentages count lines and branches together, as coverage's own report does with branch coverage on. A floor
names a package folder or one module file; the exit status is 1 when any floor is missed (or names nothing)."""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from pathlib import PurePosixPath

COUNTS = ("num_statements", "covered_lines", "num_branches", "covered_branches")


def package_of(path: str) -> str:
    """The package a measured file belongs to: its folder (judgeapp/incidents), the top-level modules' judgeapp."""
    return str(PurePosixPath(path).parent)


def percent(totals: dict[str, int]) -> float:
    measured = totals["num_statements"] + totals["num_branches"]
    covered = totals["covered_lines"] + totals["covered_branches"]
    return 100.0 * covered / measured if measured else 100.0


def totals_by(files: dict[str, dict[str, int]], key: str) -> dict[str, int]:
    """Summed counts of every file in package `key`, or of the one file `key`."""
    totals = dict.fromkeys(COUNTS, 0)
    found = False
    for path, summary in files.items():
        if path == key or package_of(path) == key:
            found = True
            for name in COUNTS:
                totals[name] += summary[name]
    if not found:
        raise KeyError(key)
    return totals


def parse_floor(text: str) -> tuple[str, float]:
    target, _, value = text.partition("=")
    try:
        return target.rstrip("/"), float(value)
    except ValueError:
        message = f"a floor is PACKAGE=PERCENT, e.g. judgeapp/infractions=95; got {text!r}"
        raise argparse.ArgumentTypeError(message) from None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("report", help="coverage JSON (pytest --cov-report=json:PATH)")
    parser.add_argument("--floor", action="append", type=parse_floor, default=[], metavar="PACKAGE=PERCENT")
    args = parser.parse_args(argv)
    try:
        with open(args.report, encoding="utf-8") as f:
            files = {path: data["summary"] for path, data in json.load(f)["files"].items()}
    except (OSError, ValueError, KeyError) as err:
        print(f"{args.report}: not a coverage JSON report ({err})", file=sys.stderr)
        return 1

    packages: dict[str, dict[str, int]] = defaultdict(lambda: dict.fromkeys(COUNTS, 0))
    for path, summary in files.items():
        for name in COUNTS:
            packages[package_of(path)][name] += summary[name]
    everything = dict.fromkeys(COUNTS, 0)
    for totals in packages.values():
        for name in COUNTS:
            everything[name] += totals[name]

    width = max(len(p) for p in [*packages, "TOTAL"])
    print(f"{'package':<{width}}  {'stmts':>6}  {'miss':>5}  {'branch':>6}  {'bmiss':>5}  {'cover':>6}")
    for name, totals in [*sorted(packages.items()), ("TOTAL", everything)]:
        print(
            f"{name:<{width}}  {totals['num_statements']:>6}  {totals['num_statements'] - totals['covered_lines']:>5}"
            f"  {totals['num_branches']:>6}  {totals['num_branches'] - totals['covered_branches']:>5}"
            f"  {percent(totals):>5.1f}%"
        )

    failed = False
    for target, floor in args.floor:
        try:
            got = percent(totals_by(files, target))
        except KeyError:
            print(f"coverage floor: {target} was not measured", file=sys.stderr)
            failed = True
            continue
        if got < floor:
            print(f"coverage floor: {target} is at {got:.2f}%, under its floor of {floor:g}%", file=sys.stderr)
            failed = True
        else:
            print(f"coverage floor: {target} {got:.2f}% (floor {floor:g}%)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
