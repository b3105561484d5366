"""Find infractions by code or words."""

from __future__ import annotations

from .catalog import Infraction, Policy


def search_text(policy: Policy, inf: Infraction) -> str:
    """Everything a judge might type to find this infraction, lower-cased: its code, name, sub-section, our notes and
    remedy, and the other words the source text uses for it (its synonyms)."""
    sub = policy.subsection(inf.subsection)
    return " ".join([inf.code, inf.name, sub.name, inf.notes, inf.remedy, *inf.synonyms]).lower()


def search(policy: Policy, query: str) -> list[Infraction]:
    """Infractions whose code starts with the query, or whose text holds every word of it."""
    q = query.strip().lower()
    if not q:
        return list(policy.infractions)
    words = q.split()
    return [
        inf for inf in policy.infractions if inf.code.startswith(q) or all(w in search_text(policy, inf) for w in words)
    ]
