"""Benchmarks for the catalog and penalty engine. Each figure is a ratio to a baseline timed in the same run.

Run: make bench
"""

from __future__ import annotations

import sys
import time
from dataclasses import replace
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from judgeapp.infractions import Prior, load_catalog, suggest
from judgeapp.infractions.search import finder_entries, rank_entries

CATALOG = ROOT / "data" / "infractions.yaml"


def best_of(fn, repeat: int = 5, number: int = 1) -> float:
    """Best mean seconds per call over `repeat` rounds of `number` calls."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        for _ in range(number):
            fn()
        best = min(best, (time.perf_counter() - start) / number)
    return best


def report(name: str, seconds: float, baseline_name: str, baseline: float) -> None:
    from bench.results import emit

    emit("engine", name, seconds * 1e6, "µs", baseline=baseline_name, baseline_value=baseline * 1e6)
    print(f"{name:<52} {seconds * 1e6:10.1f} µs   {seconds / baseline:7.2f}× {baseline_name} ({baseline * 1e6:.3f} µs)")


def main() -> None:
    text = CATALOG.read_text()
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    parse = best_of(lambda: yaml.load(text, Loader=loader), number=5)
    report(
        "load + validate shipped catalog", best_of(lambda: load_catalog(CATALOG), number=5), "YAML parse alone", parse
    )

    policy = load_catalog(CATALOG).policy("bushiroad-afr")
    codes = [i.code for i in policy.infractions if i.defaults]
    history = [Prior(codes[n % len(codes)], "warning", ref=n, round=n % 15 + 1) for n in range(40)]
    lookup = best_of(lambda: [policy.infraction(c) for c in codes], number=200) / len(codes)
    report(
        "suggest(), no history",
        best_of(lambda: [suggest(policy, 2, c) for c in codes], number=200) / len(codes),
        "infraction lookup",
        lookup,
    )
    report(
        "suggest(), 40 earlier penalties",
        best_of(lambda: [suggest(policy, 2, c, history) for c in codes], number=50) / len(codes),
        "infraction lookup",
        lookup,
    )

    # A 300-infraction catalog, the size the quick reference must search as the judge types.
    big = replace(
        policy,
        infractions=tuple(replace(i, code=f"{i.code}.{k}") for k in range(6) for i in policy.infractions)[:300],
        _by_code={},
    )
    scan = best_of(lambda: [i.name.lower() for i in big.infractions], number=200)
    entries = finder_entries(big)  # built once per policy version (choices.finder_entries_of), as the page uses them
    report(
        "server-side finder (rank), 300 infractions ('extra cards')",
        best_of(lambda: rank_entries(entries, "extra cards"), number=50),
        "plain scan of names",
        scan,
    )


if __name__ == "__main__":
    main()
