"""Hostile files against the bounded parsers (issue 32), each against a legitimate file read the same way in the
same run.

Policy files: each bomb the review reproduced (the 464-byte alias bomb, its duplicated-key variant, 100,000 `[`,
a list holding itself, 2,000 levels, 2,000 languages x 1,000 infractions, the 560 KB synonyms-alias policy) goes
through what the upload runs: judgeapp.sandbox.run_limited(parse_catalog), a forked child with CPU and memory
limits. Figures per file: refused or not, the wall time of run_limited (fork included), the parse's own time in the
child and the growth of the child's peak memory (VmHWM at the end less VmRSS at the start); the baseline is a
legitimate policy of about 40 KB. Goal: every bomb refused, in at most 5x the legitimate policy's time.

Tournament files (the reader that read_tournament_file runs, in the same limited process): the 100-byte DOCTYPE of
40 bracket groups (97 s at 30 before), a 16 MB deeply nested TOM file, a TOM file of 419,000 players of one userid
(8 MB) and a 16 MB CSV of
5.6 million rejected rows, against a legitimate 10,000-player CSV.

Run: .venv/bin/python bench/policy_upload.py (or make bench)
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.results import emit
from judgeapp.imports import UnreadableFile, _read
from judgeapp.infractions import CatalogError, parse_catalog
from judgeapp.sandbox import Limits, ParseRefused, run_limited
from tests.shared import policy_bombs as bombs

LIMITS = Limits(cpu_seconds=60, memory_mb=2048, wall_seconds=300)


def _kb(field: str) -> int:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    return 0


def _measured(read, data) -> tuple[str, float, int]:
    """In the child: (outcome, seconds, peak memory growth in KB) of one read."""
    rss = _kb("VmRSS")
    start = time.perf_counter()
    try:
        read(data)
        outcome = "accepted"
    except (CatalogError, UnreadableFile) as err:
        outcome = "refused: " + str(err).splitlines()[0][:90]
    return outcome, time.perf_counter() - start, _kb("VmHWM") - rss


def measure(read, data) -> tuple[str, float, float, int]:
    """(outcome, wall seconds of the limited run, seconds in the child, peak KB growth), best time of 3."""
    best: tuple[str, float, float, int] | None = None
    for _ in range(3):
        start = time.perf_counter()
        try:
            outcome, inner, peak = run_limited(_measured, read, data, limits_=LIMITS)
        except ParseRefused as refused:
            outcome, inner, peak = f"stopped ({refused.why})", float("nan"), 0
        wall = time.perf_counter() - start
        if best is None or wall < best[1]:
            best = (outcome, wall, inner, peak)
    assert best is not None
    return best


def policy(text: str) -> None:
    parse_catalog(text, "upload.yaml")


def tournament(data: bytes) -> None:
    _read(data)  # the reader read_tournament_file runs in its limited process (measured here in ours)


def tom(body: str) -> bytes:
    return (
        '<?xml version="1.0"?>\n<tournament type="2" gametype="TRADING_CARD_GAME">\n<data><name>Open</name></data>\n'
        + body
        + "</tournament>"
    ).encode()


def run(section: str, read, baseline_name: str, baseline_data, cases: list[tuple[str, object]], goal_refused: bool):
    outcome, base_wall, _inner, base_peak = measure(read, baseline_data)
    print(f"\n{section}: baseline {baseline_name}: {outcome}, {base_wall * 1000:.1f} ms, +{base_peak} KB")
    for name, data in cases:
        outcome, wall, inner, peak = measure(read, data)
        refused = not outcome.startswith("accepted")
        ratio = wall / base_wall
        met = refused and ratio <= 5 if goal_refused else None
        print(
            f"  {name:<58} {outcome[:60]:<60} {wall * 1000:8.1f} ms ({ratio:5.2f}x)  child {inner * 1000:8.1f} ms"
            f"  +{peak:,} KB"
        )
        emit(
            "policy_upload",
            f"{section}: {name} ({'refused' if refused else 'ACCEPTED'}; child peak +{peak:,} KB)",
            wall * 1000,
            "ms",
            baseline=f"{baseline_name} (child peak +{base_peak:,} KB)",
            baseline_value=base_wall * 1000,
            goal="refused, ≤ 5× baseline" if goal_refused else "",
            met=met,
        )


def main() -> None:
    legit = bombs.legitimate(40_000)
    run(
        "policy upload",
        policy,
        f"legitimate policy, {len(legit) // 1000} KB",
        legit,
        [
            (f"alias bomb, {len(bombs.alias_bomb())} B", bombs.alias_bomb()),
            (f"alias bomb with a duplicated key, {len(bombs.duplicate_key_bomb())} B", bombs.duplicate_key_bomb()),
            ("100,000 [ (segfaulted libyaml's composer)", bombs.deep_brackets()),
            ("policies: &a [*a]", bombs.SELF_ALIAS),
            ("2,000 levels", bombs.deep_levels()),
            ("2,000 languages x 1,000 infractions", bombs.language_codes()),
            (f"synonyms alias, {len(bombs.synonyms_alias()) // 1000} KB", bombs.synonyms_alias()),
        ],
        goal_refused=True,
    )
    players = ("name,player id\n" + "".join(f"Player {n},P-{n:06d}\n" for n in range(10_000))).encode()
    depth = 16_000_000 // 7
    cases: list[tuple[str, object]] = [
        ("DOCTYPE + 40 [a] groups, 130 B", b"<!DOCTYPE " + b"[a]" * 40),
        ("deeply nested TOM, 16 MB", tom("<players>" + "<a>" * depth + "</a>" * depth + "</players>")),
        (
            "TOM of 419,000 players of one userid, 8 MB",
            tom("<players>" + '<player userid="7"/>' * 419_000 + "</players>"),
        ),
        ("CSV of 5.6 million rejected rows, 16 MB", ("name,code\n" + "a,\n" * 5_590_000).encode()),
    ]
    run("tournament file", tournament, "players CSV, 10,000 rows", players, cases, goal_refused=False)


if __name__ == "__main__":
    main()
