"""The quick reference's search: the incident form's finder (judgeapp/infractions/search.py `rank`), best first."""

from __future__ import annotations

from ..choices import finder_entries_of
from ..infractions.catalog import Infraction, Policy
from ..infractions.search import rank_entries


def found(policy: Policy, query: str) -> list[Infraction]:
    """The infractions the finder finds for `query`, best first, as the picker lists them (static/js/reference.js and
    incident.js): a code typed lists the codes it is or starts, not the texts that merely mention it. An empty query
    (or one of only little words) finds every infraction, in the policy's order."""
    if not query.strip():
        return list(policy.infractions)
    hits = rank_entries(finder_entries_of(policy), query)
    if any(hit.kind in ("code", "code-prefix") for hit in hits):
        hits = [hit for hit in hits if hit.kind in ("code", "code-prefix")]
    by_code = {inf.code: inf for inf in policy.infractions}
    return [by_code[hit.code] for hit in hits]
