"""Typed, immutable view of a penalty catalog: policies, ranks, levels and infractions."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum


class RepeatScope(str, Enum):
    """Over what stretch earlier penalties count as repeats."""

    EVENT = "event"
    DAY = "day"


class ExtensionReason(str, Enum):
    """Why a match was given time back."""

    RULING = "ruling"
    DECK_CHECK = "deck_check"
    OTHER = "other"

    @property
    def label(self) -> str:
        return self.value.replace("_", " ")


@dataclass(frozen=True)
class Rank:
    id: str
    name: str
    order: int


@dataclass(frozen=True)
class Level:
    number: int
    name: str
    description: str

    @property
    def key(self) -> str:
        return f"level_{self.number}"


@dataclass(frozen=True)
class PenaltyRange:
    """A default penalty: from min to max rank, inclusive (min == max for a single rank)."""

    min: Rank
    max: Rank

    @property
    def is_single(self) -> bool:
        return self.min == self.max

    def label(self) -> str:
        return self.min.name if self.is_single else f"{self.min.name} ~ {self.max.name}"

    def contains(self, rank: Rank) -> bool:
        return self.min.order <= rank.order <= self.max.order


@dataclass(frozen=True)
class Alternative:
    """A special case the text allows instead of the default (for example a warning after the game is legalised)."""

    condition: str
    levels: tuple[int, ...]
    penalty: PenaltyRange


@dataclass(frozen=True)
class Subsection:
    code: str
    name: str


@dataclass(frozen=True)
class Infraction:
    code: str
    name: str
    subsection: str
    notes: str
    remedy: str
    defaults: dict[int, PenaltyRange] | None  # None: no default, the judge's discretion
    penalized: bool = True
    repeat_any_action: bool = False
    alternatives: tuple[Alternative, ...] = ()
    section_note: str = ""
    synonyms: tuple[str, ...] = ()  # other words the source text itself uses for this infraction, for search

    @property
    def discretion(self) -> bool:
        return self.penalized and self.defaults is None

    def default_at(self, level: int) -> PenaltyRange | None:
        return None if self.defaults is None else self.defaults[level]

    def alternatives_at(self, level: int) -> tuple[Alternative, ...]:
        return tuple(a for a in self.alternatives if level in a.levels)


@dataclass(frozen=True)
class TimeRule:
    """How much time a match is owed back for one reason."""

    reason: ExtensionReason
    over_minutes: float  # the stop must last longer than this for time to be owed
    plus_minutes: int  # added to the time the stop took
    extra_turns_allowed: bool
    section: str
    summary: str


@dataclass(frozen=True)
class Policy:
    id: str
    name: str
    version: str
    source: str
    repeat_scope: RepeatScope
    repeat_rule: str
    repeat_section: str
    ranks: tuple[Rank, ...]
    levels: tuple[Level, ...]
    head_judge_only: frozenset[str]
    report_to_head_judge: frozenset[str]
    subsections: tuple[Subsection, ...]
    infractions: tuple[Infraction, ...]
    time_rules: tuple[TimeRule, ...]
    _by_code: dict[str, Infraction] = field(default_factory=dict, repr=False, compare=False)

    def __post_init__(self) -> None:
        self._by_code.update({i.code: i for i in self.infractions})

    @property
    def top_rank(self) -> Rank:
        return self.ranks[-1]

    @property
    def reported_from(self) -> Rank:
        """The lowest rank a floor judge reports to the head judge (Bushiroad: loss of game). It and every rank
        above it are the serious penalties, listed one by one in the post-event report."""
        orders = [self.rank(r).order for r in self.report_to_head_judge]
        return self.ranks[min(orders)] if orders else self.top_rank

    def rank(self, rank_id: str) -> Rank:
        for r in self.ranks:
            if r.id == rank_id:
                return r
        raise UnknownChoice("rank", rank_id, [r.id for r in self.ranks])

    def level(self, number: int) -> Level:
        for lv in self.levels:
            if lv.number == number:
                return lv
        raise UnknownChoice("level", str(number), [str(lv.number) for lv in self.levels])

    def infraction(self, code: str) -> Infraction:
        try:
            return self._by_code[code]
        except KeyError:
            raise UnknownChoice("infraction", code, list(self._by_code)) from None

    def subsection(self, code: str) -> Subsection:
        return next(s for s in self.subsections if s.code == code)

    def time_rule(self, reason: ExtensionReason) -> TimeRule | None:
        return next((t for t in self.time_rules if t.reason == reason), None)

    def rank_above(self, rank: Rank) -> Rank:
        return self.ranks[min(rank.order + 1, len(self.ranks) - 1)]


@dataclass(frozen=True)
class Catalog:
    path: str
    policies: dict[str, Policy]

    def policy(self, policy_id: str) -> Policy:
        try:
            return self.policies[policy_id]
        except KeyError:
            raise UnknownChoice("policy", policy_id, list(self.policies)) from None


class UnknownChoice(LookupError):
    """A policy, level, rank or infraction id that the catalog does not know."""

    def __init__(self, kind: str, value: str, choices: list[str]):
        self.kind, self.value, self.choices = kind, value, choices
        shown = ", ".join(choices[:60]) + (" …" if len(choices) > 60 else "")
        super().__init__(f"unknown {kind} {value!r}; valid choices: {shown}")
