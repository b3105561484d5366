"""How often the finder puts the right infraction first, and in the first three, for phrases as judges say them.

The phrases are bench/phrases/<policy>.<lang>.tsv (phrase, then the codes that count as right): written before the
finder's words were tuned, none of them an infraction's own name. Every third phrase is held out: the policy's words
were never tuned on it. The same hand wrote the phrases and the policy's words, so many held-out phrases are in the
data word for word: the held-out phrases whose wording is nowhere in the data are measured apart too, the fairest
figure here. bench/phrases/*.fresh.tsv were written after the words and never tuned on: new wordings of the same
situations, reported apart. bench/phrases/*.fresh2.tsv were written by another person who never saw the finder's
words nor its phrase lists, after all tuning: the fairest figure here. Goal in each policy and language:
top-3 >= 90 %, top-1 >= 70 %. The phrases that still miss are printed (`--misses` also for the held-out ones).

Run: make bench (or .venv/bin/python bench/finder.py [--misses])
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.results import emit as record
from judgeapp.infractions import load_catalog
from judgeapp.infractions.search import finder_entries, fold, rank_entries

PHRASES = ROOT / "bench" / "phrases"
TOP3_GOAL, TOP1_GOAL = 90.0, 70.0


def read_phrases(path: Path) -> list[tuple[str, set[str]]]:
    rows = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            phrase, codes = line.split("\t")
            rows.append((phrase, set(codes.split(","))))
    return rows


def measure(entries, rows) -> tuple[float, float, list[str]]:
    top1 = top3 = 0
    misses = []
    for phrase, right in rows:
        got = [h.code for h in rank_entries(entries, phrase)[:3]]
        top1 += bool(got) and got[0] in right
        top3 += bool(right & set(got))
        if not got or got[0] not in right:
            misses.append(f"{phrase!r}: wanted {'/'.join(sorted(right))}, got {', '.join(got) or 'nothing'}")
    return 100 * top1 / len(rows), 100 * top3 / len(rows), misses


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--misses", action="store_true", help="also list the held-out phrases the finder misses")
    args = parser.parse_args()
    catalog = load_catalog(str(ROOT / "data" / "infractions.yaml"))
    for path in sorted(PHRASES.glob("*.tsv")):
        policy_id, lang, *fresh = path.stem.split(".")
        entries = finder_entries(catalog.policy(policy_id))
        rows = read_phrases(path)
        if fresh:  # written after the words, never tuned on: one figure, its misses shown
            top1, top3, misses = measure(entries, rows)
            label = (
                f"{policy_id} {lang}, held out, by a writer who never saw the words ({len(rows)} phrases)"
                if fresh == ["fresh2"]
                else f"{policy_id} {lang}, fresh, written after the words ({len(rows)} phrases)"
            )
            print(f"{label:<72} top-1 {top1:5.1f} %   top-3 {top3:5.1f} %")
            for goal, value, name in ((TOP1_GOAL, top1, "top-1"), (TOP3_GOAL, top3, "top-3")):
                record("finder", f"{label}: {name}", round(value, 1), "%", goal=f"≥ {goal:.0f} %", met=value >= goal)
            for miss in misses:
                print(f"    miss (fresh): {miss}")
            continue
        tuned = [r for i, r in enumerate(rows) if i % 3 != 2]
        held = [r for i, r in enumerate(rows) if i % 3 == 2]
        # the same hand wrote the phrases and the policy's words: a held-out phrase the data holds word for word says
        # little, so the held-out ones whose wording is nowhere in the data are measured apart
        known = {fold(text) for e in entries for _, text in e["fields"]}
        unseen = [r for r in held if " ".join(fold(r[0]).split()) not in known]
        parts = (("all", rows), ("tuned", tuned), ("held out", held), ("held out, wording not in the data", unseen))
        for part, chosen in parts:
            top1, top3, misses = measure(entries, chosen)
            label = f"{policy_id} {lang}, {part} ({len(chosen)} phrases)"
            print(f"{label:<72} top-1 {top1:5.1f} %   top-3 {top3:5.1f} %")
            for goal, value, name in ((TOP1_GOAL, top1, "top-1"), (TOP3_GOAL, top3, "top-3")):
                record("finder", f"{label}: {name}", round(value, 1), "%", goal=f"≥ {goal:.0f} %", met=value >= goal)
            if part == "tuned" or (part.startswith("held out,") and args.misses):
                for miss in misses:
                    print(f"    miss ({part}): {miss}")


if __name__ == "__main__":
    main()
