"""The penalty engine: default penalty at a level, upgraded for repeats within a sub-section."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date
from enum import Enum
from typing import Any

from .catalog import Alternative, Infraction, Level, PenaltyRange, Policy, Rank, RepeatScope


class PriorStatus(str, Enum):
    STANDING = "standing"
    VOIDED = "voided"
    OVERTURNED = "overturned"


@dataclass(frozen=True)
class Prior:
    """An earlier penalty of the same player (or of their team) in this event."""

    infraction_code: str
    rank_id: str
    ref: int | str | None = None  # incident number, for the explanation and links
    round: int | None = None
    day: date | None = None
    status: PriorStatus = PriorStatus.STANDING
    subsection: str | None = None  # as logged; defaults to the catalog's sub-section for the code


@dataclass(frozen=True)
class Suggestion:
    policy: Policy
    level: Level
    infraction: Infraction
    default: PenaltyRange | None
    suggested: Rank | None
    upgraded: bool
    because: tuple[Prior, ...]
    head_judge_only: bool
    report_to_head_judge: bool
    alternatives: tuple[Alternative, ...]

    def explanation(self) -> str:
        """One line a judge can read at the table."""
        if not self.infraction.penalized:
            return "Not an infraction: no penalty."
        if self.suggested is None or self.default is None:  # no default, so nothing suggested
            return "No default penalty: the judge decides, guided by similar infractions."
        if not self.upgraded:
            return f"Default at {self.level.name}: {self.default.label()}."
        nth = _ordinal(len(self.because) + 1)
        last = self.because[-1]
        where = f"incident #{last.ref}" if last.ref is not None else last.infraction_code
        if last.round is not None:
            where += f", round {last.round}"
        return f"Upgraded: {nth} penalty in {self.infraction.subsection} for this player — {where}"

    def as_dict(self) -> dict[str, Any]:
        """The JSON shape the CLI prints and the web layer serves."""
        return {
            "policy": self.policy.id,
            "level": self.level.number,
            "infraction": {"code": self.infraction.code, "name": self.infraction.name},
            "default": None if self.default is None else {"min": self.default.min.id, "max": self.default.max.id},
            "suggested": None if self.suggested is None else self.suggested.id,
            "upgraded": self.upgraded,
            "because": [
                {"infraction": p.infraction_code, "rank": p.rank_id, "ref": p.ref, "round": p.round}
                for p in self.because
            ],
            "head_judge_only": self.head_judge_only,
            "explanation": self.explanation(),
        }


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def counting_priors(
    policy: Policy, infraction: Infraction, prior: Iterable[Prior], today: date | None = None
) -> tuple[Prior, ...]:
    """The earlier penalties that make this one a repeat: standing, same sub-section, same day when the policy says
    so."""
    out = []
    for p in prior:
        if p.status is not PriorStatus.STANDING:
            continue
        if policy.repeat_scope is RepeatScope.DAY and today is not None and p.day is not None and p.day != today:
            continue
        subsection = p.subsection
        if subsection is None:
            try:
                subsection = policy.infraction(p.infraction_code).subsection
            except LookupError:
                continue  # a code the catalog no longer has cannot be matched to a sub-section
        if subsection == infraction.subsection:
            out.append(p)
    return tuple(out)


def suggest(
    policy: Policy, level: int, infraction: str | Infraction, prior: Iterable[Prior] = (), today: date | None = None
) -> Suggestion:
    """Suggest the penalty for `infraction` at `level`, given the player's earlier penalties in this event."""
    lv = policy.level(level)
    inf = infraction if isinstance(infraction, Infraction) else policy.infraction(infraction)
    default = inf.default_at(lv.number) if inf.penalized else None
    because: tuple[Prior, ...] = ()
    suggested: Rank | None = None
    upgraded = False
    if default is not None:
        because = counting_priors(policy, inf, prior, today)
        suggested = default.min
        if because:
            suggested = policy.rank_above(default.min)
            upgraded = suggested != default.min
            if not upgraded:
                because = ()  # already at the top rank: nothing to upgrade
    return Suggestion(
        policy=policy,
        level=lv,
        infraction=inf,
        default=default,
        suggested=suggested,
        upgraded=upgraded,
        because=because,
        head_judge_only=suggested is not None and suggested.id in policy.head_judge_only,
        report_to_head_judge=suggested is not None and suggested.id in policy.report_to_head_judge,
        alternatives=inf.alternatives_at(lv.number),
    )


def expected_ranks(policy: Policy, suggestion: Suggestion) -> list[Rank]:
    """The penalties a judge may give without a reason: from the suggestion up to the default's top (or the upgrade)."""
    if suggestion.suggested is None or suggestion.default is None:
        return list(policy.ranks)
    top = max(suggestion.default.max.order, suggestion.suggested.order)
    return [r for r in policy.ranks if suggestion.suggested.order <= r.order <= top]
