"""Choices the forms offer from the catalog: infractions, penalties, and rank names for templates."""

from __future__ import annotations

from wtforms.fields.choices import SelectChoice

from .texts import gettext as _
from .texts import lazy_gettext as _l


def rank_namer(policy):
    """For templates and reports: a stored rank id as the policy names it (the id itself if the catalog no longer
    has that rank)."""
    names = {r.id: r.name for r in policy.ranks}
    return lambda rank_id: names.get(rank_id, rank_id) if rank_id else _("No penalty")


def infraction_namer(policy):
    """code -> "3.5.2 Failure to Discard Cards" for templates; a code the policy no longer has is shown as it is."""

    def name(code):
        try:
            return f"{code} {policy.infraction(code).name}"
        except LookupError:
            return code

    return name


def level_name(policy, number: int) -> str:
    """An event's level as the policy names it ("Level 2")."""
    return next((lv.name for lv in policy.levels if lv.number == number), _("Level %(number)s", number=number))


def infraction_choices(field, policy, most_used=()):
    def choice(inf, group, **extra):
        return SelectChoice(
            inf.code,
            f"{inf.code} {inf.name}",
            optgroup=group,
            render_kw={
                "data-sub": inf.subsection,
                **({"data-words": "; ".join(inf.synonyms)} if inf.synonyms else {}),
                **extra,
            },
        )

    choices = [SelectChoice("", _l("Choose the infraction…"))]
    choices += [
        choice(policy.infraction(code), _l("Most used at this event"), **{"data-most-used": "1"})  # repeated below
        for code in most_used
        if code in {i.code for i in policy.infractions}
    ]
    choices += [choice(inf, f"{inf.subsection} {policy.subsection(inf.subsection).name}") for inf in policy.infractions]
    field.choices = choices


_CHOICES: dict[tuple[str, str], list[SelectChoice]] = {}


def infraction_choices_of(policy) -> list[SelectChoice]:
    """The policy's infractions as choices, built once per policy version."""
    key = (policy.id, policy.version)
    if key not in _CHOICES:
        field = type("F", (), {})()
        infraction_choices(field, policy)
        _CHOICES[key] = field.choices
    return _CHOICES[key]


def penalty_choices(field, policy):
    field.choices = [SelectChoice("", _l("No penalty"))] + [SelectChoice(r.id, r.name) for r in policy.ranks]


def time_rules_of(policy) -> dict:
    """The policy's time rules for the phone's live figures (static/js/owed.js): by reason, the threshold, the extra,
    and the words and section to show."""
    return {
        rule.reason.value: {
            "over": rule.over_minutes,
            "plus": rule.plus_minutes,
            "summary": rule.summary,
            "section": rule.section,
        }
        for rule in policy.time_rules
    }
