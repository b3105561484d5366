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


# ---- the phone's one file per policy version: the finder's words, the quick reference and the engine's input ----

FILE_FORMAT = 2


def _texts(entry: object, field_name: str) -> dict[str, str]:
    """`entry`'s text `field_name` in every language it has (English is its own field), none empty."""
    english = getattr(entry, field_name, "") or ""
    found = {"en": english} if english else {}
    texts = getattr(entry, "texts", None)
    return found | {lang: t for lang, f, t in (texts.texts if texts else ()) if f == field_name and t}


def policy_file(policy: Policy) -> dict[str, Any]:
    """The file the phone keeps once per policy version (offline/views.py, cached a year at an address naming its
    content; static/sw.js keeps it): `policy`, the engine's input (`policy_as_json`); `reference`, what the quick
    reference shows beyond it, per infraction in the catalog's order (static/js/reference.js renders it when the
    phone has no page); `finder`, the finder's words (search.py `finder_entries`) per infraction in the catalog's
    order as three lists, its names, phrases and notes, as written: the phone makes them comparable itself (search.js
    `entriesOf`, search.py `entries_of_file`). Arrays, not objects, where a key would repeat per entry. A note or
    remedy the reference shows is written once, the finder naming it by its index among them (`_shown`): 25.3 KB as
    sent for Bushiroad, against 26.3 KB written twice and 28.1 KB with every text in one table named by index."""
    from .search import NAME, NOTE, PHRASE, finder_fields

    words = []
    for inf in policy.infractions:
        fields = finder_fields(policy, inf)
        shown = _shown(_texts(inf, "notes"), _texts(inf, "remedy"))
        groups: list[list[Any]] = [[t for w, t in fields if w == weight] for weight in (NAME, PHRASE, NOTE)]
        groups[2] = [shown.index(t) if t in shown else t for t in groups[2]]  # a note the reference shows: its index
        words.append(groups)
    reference = {
        "source": _texts(policy, "source"),
        "infractions": [
            {
                "notes": _texts(inf, "notes"),
                "remedy": _texts(inf, "remedy"),
                "section_note": _texts(inf, "section_note"),
                "synonyms": list(inf.synonyms),
                "repeat_any_action": inf.repeat_any_action,
            }
            for inf in policy.infractions
        ],
        "subsections": {sub.code: {"name": sub.name, "names": _names(sub.names)} for sub in policy.subsections},
        "levels": [_texts(lv, "description") for lv in policy.levels],
        "repeat_rules": [_texts(r, "description") for r in policy.repeat_rules],
    }
    return {"format": FILE_FORMAT, "policy": policy_as_json(policy), "reference": reference, "finder": words}


def _shown(notes: dict[str, str], remedy: dict[str, str]) -> list[str]:
    """The texts of an infraction the reference shows that the finder searches as notes, in the order a note of the
    finder names them by (an integer in its third list): its notes, then its remedy, each in every language."""
    return [*notes.values(), *remedy.values()]
