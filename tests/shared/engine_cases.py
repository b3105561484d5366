"""The shared penalty-engine cases (engine_cases.json), read alike for the Python engine and engine.js under Node."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

from judgeapp.infractions import Prior, PriorStatus, RepeatScope, load_catalog, suggest
from judgeapp.infractions.engine import expected_ranks, head_judge_range
from judgeapp.infractions.export import policy_as_json

CASES_FILE = Path(__file__).with_name("engine_cases.json")
RULES_CATALOG = Path(__file__).resolve().parents[1] / "fixtures" / "catalogs" / "rules.yaml"  # every rule form
CASES = json.loads(CASES_FILE.read_text(encoding="utf-8"))["cases"]


def policy_of(catalog, case):
    if case.get("catalog") == "rules":
        catalog = load_catalog(RULES_CATALOG)
    policy = catalog.policy(case["policy"])
    if case.get("window"):
        policy = policy.with_window(RepeatScope(case["window"]))
    return policy


def policy_json_of(catalog, case) -> dict:
    return policy_as_json(policy_of(catalog, case))


def _day(text):
    return date.fromisoformat(text) if text else None


def python_answer(catalog, case) -> dict:
    """The Python engine's suggestion for a case, in the fields engine.js answers with (tests/js/engine.test.mjs
    picks the same fields from its answer); names and the explanation in the case's `lang` (English when absent)."""
    policy = policy_of(catalog, case)
    lang = case.get("lang")
    priors = [
        Prior(
            p["infraction"],
            p["rank"],
            ref=p.get("ref"),
            round=p.get("round"),
            day=_day(p.get("day")),
            status=PriorStatus(p.get("status", "standing")),
            subsection=p.get("subsection"),
            game=p.get("game"),
        )
        for p in case["priors"]
    ]
    linked = case.get("related_to")  # the earlier record this one is linked to as the same cause
    related = (
        None
        if linked is None
        else Prior(
            linked["infraction"],
            linked["rank"],
            ref=linked.get("ref"),
            round=linked.get("round"),
            game=linked.get("game"),
        )
    )
    s = suggest(
        policy,
        case["level"],
        case["infraction"],
        priors,
        today=_day(case.get("today")),
        this_round=case.get("round"),
        minutes_late=case.get("minutes_late"),
        this_game=case.get("game"),
        related_to=related,
    )
    return {
        "suggested": s.suggested.id if s.suggested else None,
        "upgraded": s.upgraded,
        "rule": s.rule.id if s.rule else None,
        "because": [p.ref for p in s.because],
        "default": None if s.default is None else {"min": s.default.min.id, "max": s.default.max.id},
        "default_label": s.default.label(lang) if s.default else None,
        "head_judge_only": s.head_judge_only,
        "in_range": [r.id for r in expected_ranks(policy, s)],
        "head_judge_range": [r.id for r in head_judge_range(policy, s)],
        "alternatives": [a.penalty.label(lang) for a in s.alternatives],
        "offered": [{"rule": o.rule.id, "rank": o.rank.id, "because": [p.ref for p in o.because]} for o in s.offered],
        "confirm": s.as_dict(lang)["confirm"],
        "minutes_late": s.minutes_late,
        "asks_game": s.asks_game,
        "game": s.game,
        "related_to": s.as_dict(lang)["related_to"],
        "explanation": s.explanation(lang),
    }


def expected_part(case, answer: dict) -> dict:
    return {k: answer[k] for k in case["expect"]}
