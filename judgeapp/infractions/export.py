"""A policy as plain JSON data, for the phone's copy of the penalty engine (judgeapp/static/js/engine.js).

The phone computes suggestions offline from exactly this shape; `tests/shared/engine_cases.json` runs the same cases
through the Python engine and through engine.js over this export, so the two cannot drift.
"""

from __future__ import annotations

from typing import Any

from .catalog import Infraction, Names, PenaltyRange, Policy


def _range(r: PenaltyRange | None) -> dict[str, str] | None:
    return None if r is None else {"min": r.min.id, "max": r.max.id}


def _names(names: Names) -> dict[str, str]:
    return dict(names.names)


def _late_rows(i: Infraction) -> dict[str, Any]:
    if not i.late_rows:
        return {}
    rows = [
        {"from": row.from_minute, "defaults": {str(lv): _range(r) for lv, r in row.defaults.items()}}
        for row in i.late_rows
    ]
    return {"minutes_late": rows}


def policy_as_json(policy: Policy) -> dict[str, Any]:
    """What the engine reads of a policy (ranks, levels, repeat rules, defaults, sub-sections, who may give what), no
    prose but the rules' sections. Every name comes with `names`, the policy's other languages (`{"ja": "警告"}`), so
    the phone writes the explanation in the page's language."""
    return {
        "id": policy.id,
        "name": policy.name,
        "names": _names(policy.names),
        "version": policy.version,
        "repeat_rules": [
            {
                "id": r.id,
                "name": r.name,
                "counts": r.counts.value,
                "window": r.window.value,
                "from_count": r.from_count,
                "result": r.result.value,
                "section": r.section,
                "steps": r.steps,
                "above_highest_prior": r.above_highest_prior,
                "above_last_given": r.above_last_given,
                "offered": r.offered,
                "rank": r.rank.id if r.rank else None,
                "ladder": [x.id for x in r.ladder],
                "cap": r.cap.id if r.cap else None,
                "range_to": r.range_to.id if r.range_to else None,
                "range_to_by": r.range_to_by,
                "group": sorted(r.group),
                "applies_to": sorted(r.applies_to),
                "prior_ranks": sorted(r.prior_ranks),
                "upgrades": sorted(r.upgrades),
                "levels": sorted(r.levels),
                "names": _names(r.names),
                "sections": _names(r.sections),
            }
            for r in policy.repeat_rules
        ],
        "ranks": [{"id": r.id, "name": r.name, "order": r.order, "names": _names(r.names)} for r in policy.ranks],
        "levels": [{"number": lv.number, "name": lv.name, "names": _names(lv.names)} for lv in policy.levels],
        "head_judge_only": sorted(policy.head_judge_only),
        "confirm": [
            {
                "ranks": sorted(c.ranks),
                "by": c.by.value,
                "judges": c.judges,
                "levels": sorted(c.levels),
                "exceptions": sorted(c.exceptions),
                "off_default": c.off_default,
                "section": c.section,
            }
            for c in policy.confirmations
        ],
        "report_to_head_judge": sorted(policy.report_to_head_judge),
        "unnamed_penalties": policy.unnamed_penalties is not None,
        "related_errors": (
            None
            if policy.related_errors is None
            else {"section": policy.related_errors.section, "summary": policy.related_errors.summary}
        ),
        "infractions": [
            {
                "code": i.code,
                "name": i.name,
                "names": _names(i.names),
                "subsection": i.subsection,
                "penalized": i.penalized,
                "head_judge_only": i.head_judge_only,
                "repeats": i.repeats.value,
                "repeat_rules": None if i.repeat_rules is None else list(i.repeat_rules),
                "defaults": None if i.defaults is None else {str(lv): _range(r) for lv, r in i.defaults.items()},
                "alternatives": [
                    {
                        "condition": a.condition,
                        "conditions": {lang: t for lang, f, t in a.texts.texts if f == "condition"},
                        "levels": list(a.levels),
                        "penalty": _range(a.penalty),
                        "label": a.penalty.label(),
                    }
                    for a in i.alternatives
                ],
            }
            | _late_rows(i)  # only where the defaults go by minutes late: the phone's copy stays small
            for i in policy.infractions
        ],
    }
