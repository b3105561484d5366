"""A policy as plain JSON data, for the phone's copy of the penalty engine (judgeapp/static/js/engine.js).

The phone computes suggestions offline from exactly this shape; `tests/shared/engine_cases.json` runs the same cases
through the Python engine and through engine.js over this export, so the two cannot drift.
"""

from __future__ import annotations

from typing import Any

from .catalog import PenaltyRange, Policy


def _range(r: PenaltyRange | None) -> dict[str, str] | None:
    return None if r is None else {"min": r.min.id, "max": r.max.id}


def policy_as_json(policy: Policy) -> dict[str, Any]:
    """What the engine reads of a policy (ranks, levels, defaults, sub-sections, who may give what), no prose."""
    return {
        "id": policy.id,
        "name": policy.name,
        "version": policy.version,
        "repeat_scope": policy.repeat_scope.value,
        "ranks": [{"id": r.id, "name": r.name, "order": r.order} for r in policy.ranks],
        "levels": [{"number": lv.number, "name": lv.name} for lv in policy.levels],
        "head_judge_only": sorted(policy.head_judge_only),
        "report_to_head_judge": sorted(policy.report_to_head_judge),
        "infractions": [
            {
                "code": i.code,
                "name": i.name,
                "subsection": i.subsection,
                "penalized": i.penalized,
                "defaults": None if i.defaults is None else {str(lv): _range(r) for lv, r in i.defaults.items()},
                "alternatives": [
                    {
                        "condition": a.condition,
                        "levels": list(a.levels),
                        "penalty": _range(a.penalty),
                        "label": a.penalty.label(),
                    }
                    for a in i.alternatives
                ],
            }
            for i in policy.infractions
        ],
    }
