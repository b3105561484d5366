"""Choices the forms offer from the catalog: infractions, penalties, and rank names for templates."""

from __future__ import annotations

import hashlib
import json

from flask import url_for
from wtforms.fields.choices import SelectChoice

from .i18n import language
from .infractions.catalog import name_in, text_in
from .texts import gettext as _
from .texts import lazy_gettext as _l


def catalog_name(entry, lang: str | None = None) -> str:
    """A policy's, rank's, level's, sub-section's or infraction's name in `lang` (the request's language when None),
    falling back to English: the `catalog_name` template global, for pages and reports (under force_locale it gives
    the forced language)."""
    return name_in(entry, lang or language())


def catalog_text(entry, field_name: str, lang: str | None = None) -> str:
    """A catalog entry's text (notes, remedy, description, summary, section, source…) in `lang` (the request's language
    when None), falling back to English: the `catalog_text` template global."""
    return text_in(entry, field_name, lang or language())


def rank_namer(policy, lang: str | None = None):
    """For templates and reports: a stored rank id as the policy names it in `lang` (the request's language when
    None; the id itself if the catalog no longer has that rank)."""
    lang = lang or language()
    names = {r.id: r.name_in(lang) for r in policy.ranks}
    return lambda rank_id: names.get(rank_id, rank_id) if rank_id else _("No penalty")


def infraction_namer(policy, lang: str | None = None):
    """code -> "3.5.2 Failure to Discard Cards" (in `lang`, the request's when None) for templates; a code the policy
    no longer has is shown as it is."""
    lang = lang or language()

    def name(code):
        try:
            return f"{code} {policy.infraction(code).name_in(lang)}"
        except LookupError:
            return code

    return name


def level_name(policy, number: int, lang: str | None = None) -> str:
    """An event's level as the policy names it ("Level 2", 大会レベル2), in `lang` (the request's when None)."""
    lang = lang or language()
    return next((lv.name_in(lang) for lv in policy.levels if lv.number == number), _("Level %(number)s", number=number))


def infraction_choices(field, policy, most_used=(), lang: str | None = None):
    lang = lang or language()

    # The phone searches the policy's finder file (incident.js; names, readings and phrases in every language), not
    # the options: an option is the form's value and the chooser without JavaScript (issue 36: ~2 KB of every form)
    def choice(inf, group, **extra):
        return SelectChoice(
            inf.code,
            f"{inf.code} {inf.name_in(lang)}",
            optgroup=group,
            render_kw={"data-sub": inf.subsection, **extra},
        )

    choices = [SelectChoice("", _l("Choose the infraction…"))]
    choices += [
        choice(policy.infraction(code), _l("Most used at this event"), **{"data-most-used": "1"})  # repeated below
        for code in most_used
        if code in {i.code for i in policy.infractions}
    ]
    choices += [
        choice(inf, f"{inf.subsection} {policy.subsection(inf.subsection).name_in(lang)}") for inf in policy.infractions
    ]
    field.choices = choices


_CHOICES: dict[tuple[str, str, str], list[SelectChoice]] = {}


def infraction_choices_of(policy, lang: str | None = None) -> list[SelectChoice]:
    """The policy's infractions as choices, built once per policy version and language (the request's when None)."""
    lang = lang or language()
    key = (policy.id, policy.version, lang)
    if key not in _CHOICES:
        field = type("F", (), {})()
        infraction_choices(field, policy, lang=lang)
        _CHOICES[key] = field.choices
    return _CHOICES[key]


_FINDER: dict[tuple[str, str], list[dict]] = {}
_FINDER_FILES: dict[tuple[str, str], tuple[bytes, str]] = {}


def finder_entries_of(policy) -> list[dict]:
    """What the phone's finder searches (judgeapp/infractions/search.py `finder_entries`), built once per policy
    version: the incident form embeds it for search.js `rank`."""
    from .infractions.search import finder_entries

    key = (policy.id, policy.version)
    if key not in _FINDER:
        _FINDER[key] = finder_entries(policy)
    return _FINDER[key]


def finder_file_of(policy, *, shipped: bool = True) -> tuple[bytes, str]:
    """The policy's file the phone fetches once per version (judgeapp/infractions/export.py `policy_file`: the
    finder's words, the quick reference, the engine's input), and its content hash (the first 12 hex digits of its
    SHA-256, the `v` of its address, like a static file's). A shipped policy's is made once per version; an uploaded
    one's each time (two uploaded files may share an id and a version)."""
    from .infractions.export import policy_file

    key = (policy.id, policy.version)
    if not shipped or key not in _FINDER_FILES:
        data = json.dumps(policy_file(policy), ensure_ascii=False, separators=(",", ":")).encode("utf-8")
        if not shipped:
            return data, hashlib.sha256(data).hexdigest()[:12]
        _FINDER_FILES[key] = (data, hashlib.sha256(data).hexdigest()[:12])
    return _FINDER_FILES[key]


def finder_url_of(policy, event=None) -> str:
    """The address of `policy`'s finder file (offline/views.py), `v` its content hash: by the shipped policy's id (every
    event of it and the quick reference share one file), or by `event` for a policy its organizer uploaded. The
    incident form and the quick reference fetch it; the service worker keeps it for offline use (sw.js DATA)."""
    if event is not None and event.policy_sha:
        return url_for("offline.event_finder", event_id=event.id, v=finder_file_of(policy, shipped=False)[1])
    return url_for("offline.finder", policy_id=policy.id, v=finder_file_of(policy)[1])


def penalty_choices(field, policy, lang: str | None = None):
    lang = lang or language()
    ranks = [SelectChoice(r.id, r.name_in(lang)) for r in policy.ranks]
    field.choices = [SelectChoice("", _l("No penalty")), *ranks]


def time_rules_of(policy, lang: str | None = None) -> dict:
    """The policy's time rules for the phone's live figures (static/js/owed.js): by reason, the threshold, the extra,
    and the words and section to show (in `lang`, the request's language when None)."""
    lang = lang or language()
    return {
        rule.reason.value: {
            "over": rule.over_minutes,
            "plus": rule.plus_minutes,
            "summary": text_in(rule, "summary", lang),
            "section": text_in(rule, "section", lang),
        }
        for rule in policy.time_rules
    }
