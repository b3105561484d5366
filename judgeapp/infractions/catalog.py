"""Typed, immutable view of a penalty catalog: policies, ranks, levels and infractions."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import Enum


class RepeatScope(str, Enum):
    """Over what stretch earlier penalties count as repeats (a repeat rule's window)."""

    EVENT = "event"
    DAY = "day"
    MATCH = "match"  # the same round's match
    GAME = "game"  # the same game of the same round's match (FaB PPG 3.3: "in the same game")


class Counts(str, Enum):
    """What makes an earlier penalty an earlier offence for a repeat rule."""

    INFRACTION = "infraction"  # the same infraction code
    SUBSECTION = "subsection"  # any infraction of the same sub-section (category)
    GROUP = "group"  # any infraction of a named group of codes and sub-sections
    ANY = "any"  # any penalty at all


class UpgradeResult(str, Enum):
    UP = "up"  # some ranks above the default (or above the highest earlier penalty)
    RANK = "rank"  # a named rank
    LADDER = "ladder"  # a rank for each count: the rule's first count, the next, ... (the last one repeats)


class Repeats(str, Enum):
    """How an infraction takes part in repeat rules."""

    COUNTED = "counted"  # upgraded by the rules, and counts as an earlier offence for later ones
    NEVER_UPGRADED = "never_upgraded"  # counts for later ones, is never upgraded itself
    TRACKING_ONLY = "tracking_only"  # recorded only: neither upgraded nor counted


class ExtensionReason(str, Enum):
    """Why a match was given time back."""

    RULING = "ruling"
    DECK_CHECK = "deck_check"
    OTHER = "other"

    @property
    def label(self) -> str:
        return self.value.replace("_", " ")


def base_language(lang: str | None) -> str:
    """`ja`, `ja_JP`, `ja-JP` -> `ja`; None or "" -> `en` (the catalog's own language)."""
    return (lang or "en").replace("-", "_").split("_")[0].lower() or "en"


@dataclass(frozen=True)
class Names:
    """An entry's names in languages other than English (`names: {ja: 遅刻}` in the YAML), and, for languages written
    in kanji, the reading of each name in kana (`readings: {ja: ちこく}`) for search."""

    names: tuple[tuple[str, str], ...] = ()
    readings: tuple[tuple[str, str], ...] = ()

    def get(self, lang: str | None) -> str | None:
        want = base_language(lang)
        return next((n for code, n in self.names if code == want), None)

    def reading(self, lang: str | None) -> str | None:
        want = base_language(lang)
        return next((r for code, r in self.readings if code == want), None)

    @property
    def languages(self) -> frozenset[str]:
        return frozenset(code for code, _ in self.names)

    def search_words(self) -> tuple[str, ...]:
        """Every name and reading in every language, for search."""
        return tuple(n for _, n in self.names) + tuple(r for _, r in self.readings)


NO_NAMES = Names()


@dataclass(frozen=True)
class Texts:
    """An entry's explanatory texts in languages other than English (`texts: {ja: {notes: …, remedy: …}}` in the
    YAML): each (language, field, text). The English is the entry's own field."""

    texts: tuple[tuple[str, str, str], ...] = ()

    def get(self, lang: str | None, field_name: str) -> str | None:
        want = base_language(lang)
        return next((t for code, f, t in self.texts if code == want and f == field_name), None)


NO_TEXTS = Texts()


@dataclass(frozen=True)
class Phrases:
    """Words judges use for an infraction in one language (`phrases: {en: {source: …, words: […]}}` in the YAML),
    for the finder: everyday descriptions of its situations, table talk, game words, the short forms written on
    slips; `source` says where they come from."""

    lang: str
    source: str
    words: tuple[str, ...]


def text_in(entry: object, field_name: str, lang: str | None) -> str:
    """An entry's text (`notes`, `remedy`, `description`, `summary`, `section`, …) in `lang`, falling back to the
    English field: for pages and reports."""
    texts = getattr(entry, "texts", None)
    if isinstance(texts, Texts):
        found = texts.get(lang, field_name)
        if found:
            return found
    value = getattr(entry, field_name, "")
    return value if isinstance(value, str) else str(value)


RANGE_SEPARATORS = {"ja": "～"}  # between the two ranks of a range; " ~ " in other languages (engine.js alike)


class Named:
    """What an entry with a `name` and `names` shows in a language: its name there, else the English one."""

    name: str
    names: Names

    def name_in(self, lang: str | None) -> str:
        return self.names.get(lang) or self.name


def name_in(entry: object, lang: str | None) -> str:
    """The name of a policy, rank, level, sub-section or infraction in `lang`, falling back to English (the entry's
    `name`); any other object is shown as str()."""
    if isinstance(entry, Named):
        return entry.name_in(lang)
    name = getattr(entry, "name", None)
    return name if isinstance(name, str) else str(entry)


@dataclass(frozen=True)
class Rank(Named):
    id: str
    name: str
    order: int
    names: Names = field(default=NO_NAMES, compare=False)


@dataclass(frozen=True)
class Level(Named):
    number: int
    name: str
    description: str
    id: str = ""  # the text's own name for it (`competitive`), when the policy gives one
    names: Names = field(default=NO_NAMES, compare=False)
    texts: Texts = field(default=NO_TEXTS, compare=False)  # `description` in other languages

    @property
    def key(self) -> str:
        return self.id or f"level_{self.number}"


@dataclass(frozen=True)
class PenaltyRange:
    """A default penalty: from min to max rank, inclusive (min == max for a single rank)."""

    min: Rank
    max: Rank

    @property
    def is_single(self) -> bool:
        return self.min == self.max

    def label(self, lang: str | None = None) -> str:
        """`Warning ~ Loss of Match`, in `lang` (English when None): `警告～マッチの敗北`."""
        low, high = self.min.name_in(lang), self.max.name_in(lang)
        return low if self.is_single else f"{low}{RANGE_SEPARATORS.get(base_language(lang), ' ~ ')}{high}"

    def contains(self, rank: Rank) -> bool:
        return self.min.order <= rank.order <= self.max.order


@dataclass(frozen=True)
class Alternative:
    """A special case the text allows instead of the default (for example a warning after the game is legalised)."""

    condition: str
    levels: tuple[int, ...]
    penalty: PenaltyRange
    texts: Texts = field(default=NO_TEXTS, compare=False)  # `condition` in other languages


@dataclass(frozen=True)
class RepeatRule(Named):
    """One upgrade rule of a policy, as data: which earlier penalties count (`counts`, `group`, `prior_ranks`) over
    which `window`, from which count on (`from_count`: this offence included), and what the penalty becomes."""

    id: str
    name: str  # what it counts, for the explanation ("Game Play Error"); "" names it from `counts`
    counts: Counts
    window: RepeatScope
    from_count: int
    result: UpgradeResult
    section: str
    description: str
    steps: int = 1
    above_highest_prior: bool = False  # UP counts from the highest earlier penalty when it is above the default
    above_last_given: bool = False  # UP counts from the penalty actually given last time, even below the default
    offered: bool = False  # "the judge may escalate": offered and explained, never applied by itself
    rank: Rank | None = None
    ladder: tuple[Rank, ...] = ()
    cap: Rank | None = None
    range_to: Rank | None = None  # the judge may go up to this rank without giving a reason
    # who alone may go above the rule's rank up to range_to ("head_judge", Riftbound 704.1.b); None: any judge. A floor
    # judge's choice there is saved as recommended and waits for the head judge.
    range_to_by: str | None = None
    group: frozenset[str] = frozenset()  # codes and sub-sections, for Counts.GROUP
    applies_to: frozenset[str] = frozenset()  # codes and sub-sections the rule upgrades; empty: every infraction
    prior_ranks: frozenset[str] = frozenset()  # only earlier penalties of these ranks count; empty: every rank
    upgrades: frozenset[str] = frozenset()  # only a default of these ranks is upgraded; empty: any rank
    levels: frozenset[int] = frozenset()  # the levels it holds at; empty: every level
    names: Names = field(default=NO_NAMES, compare=False)  # `name` in other languages
    sections: Names = field(default=NO_NAMES, compare=False)  # `section` in other languages
    texts: Texts = field(default=NO_TEXTS, compare=False)  # `description` in other languages

    def section_in(self, lang: str | None) -> str:
        return self.sections.get(lang) or self.section


@dataclass(frozen=True)
class TimeCap:
    """At most `minutes` given back to one table in a round, in all, at `levels` (empty: every level)."""

    minutes: int
    section: str
    levels: frozenset[int] = frozenset()


class ConfirmedBy(str, Enum):
    """Who must decide or confirm a penalty before it stands."""

    HEAD_JUDGE = "head_judge"
    HEAD_JUDGE_OR_ASSISTANT = "head_judge_or_assistant"  # the head judge or an assistant head judge
    JUDGES = "judges"  # a number of judges, the head judge among them


@dataclass(frozen=True)
class Confirmation:
    """A penalty of one of `ranks`, at one of `levels` (empty: every level), that a floor judge may only recommend:
    it waits until the head judge (or as `by` says) confirms it. `exceptions` are infractions and sub-sections the
    rule leaves to the floor judge (Yu-Gi-Oh!: a match loss for tardiness)."""

    ranks: frozenset[str]
    by: ConfirmedBy
    section: str
    levels: frozenset[int] = frozenset()
    exceptions: frozenset[str] = frozenset()
    judges: int | None = None  # for ConfirmedBy.JUDGES: how many
    off_default: bool = False  # only a penalty other than the default (Yu-Gi-Oh! III.E: the head judge up/downgrades)

    def holds_for(self, infraction: Infraction, rank_id: str | None, level: int, off_default: bool = False) -> bool:
        """Whether the rule holds for this penalty; `off_default`: the penalty is not the infraction's default at
        `level` (the policy knows the ranks' order, so it tells)."""
        if rank_id is None or rank_id not in self.ranks:
            return False
        if self.off_default and not off_default:
            return False
        if self.levels and level not in self.levels:
            return False
        return infraction.code not in self.exceptions and infraction.subsection not in self.exceptions


@dataclass(frozen=True)
class LateRow:
    """Defaults for a player at least `from_minute` minutes late (tardiness by minutes, issue 35)."""

    from_minute: int
    defaults: dict[int, PenaltyRange]


@dataclass(frozen=True)
class Subsection(Named):
    code: str
    name: str
    names: Names = field(default=NO_NAMES, compare=False)


@dataclass(frozen=True)
class Infraction(Named):
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
    repeats: Repeats = Repeats.COUNTED
    repeat_rules: tuple[str, ...] | None = None  # the policy's rules that may upgrade it; None: every rule
    synonyms: tuple[str, ...] = ()  # other words the source text itself uses for this infraction, for search
    head_judge_only: bool = False  # only the head judge decides it: a floor judge's ruling is a recommendation
    severity: str = ""  # one row of a section split by severity (`major`: code `5.5.1-major`); "" when not split
    late_rows: tuple[LateRow, ...] = ()  # defaults by minutes late, earliest first; `defaults` when minutes unknown
    names: Names = field(default=NO_NAMES, compare=False)  # the name in other languages, and its reading
    texts: Texts = field(default=NO_TEXTS, compare=False)  # notes, remedy, section_note in other languages
    phrases: tuple[Phrases, ...] = field(default=(), compare=False)  # judges' words for it, for the finder

    @property
    def discretion(self) -> bool:
        return self.penalized and self.defaults is None

    def default_at(self, level: int, minutes_late: int | None = None) -> PenaltyRange | None:
        """The default at `level`; for an infraction with defaults by minutes late, the row for `minutes_late` (the
        general default when the minutes are not known, or fewer than the first row's)."""
        row = self.late_row(minutes_late)
        if row is not None:
            return row.defaults[level]
        return None if self.defaults is None else self.defaults[level]

    def late_row(self, minutes_late: int | None) -> LateRow | None:
        if minutes_late is None:
            return None
        return next((r for r in reversed(self.late_rows) if r.from_minute <= minutes_late), None)

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
    announce_before_result: bool = False  # the players must be told, and must declare it before the result
    texts: Texts = field(default=NO_TEXTS, compare=False)  # summary, section in other languages


@dataclass(frozen=True)
class AppealRules:
    """How appeals work under a policy: whether a player's challenges are limited (`challenges`: None for no limit,
    "set_by_event" when the event sets the number, or the number the text fixes), whose decision can use one up,
    what an opponent may contest, and whether the head judge may hand an appeal to a proxy."""

    section: str = ""
    summary: str = ""
    challenges: int | str | None = None
    challenge_spent_by: str = "any_decision"  # head_judge: only the head judge's own decision (never a proxy's)
    challenge_section: str = ""
    opponent_may_contest: str = "penalty_and_remedy"  # or remedy_only
    opponent_section: str = ""
    proxy: bool = False
    proxy_section: str = ""
    texts: Texts = field(default=NO_TEXTS, compare=False)  # summary and sections in other languages

    @property
    def limited(self) -> bool:
        return self.challenges is not None

    @property
    def opponent_remedy_only(self) -> bool:
        return self.opponent_may_contest == "remedy_only"


@dataclass(frozen=True)
class UnnamedPenalties:
    """The text leaves (some) penalties to a document outside it: for an infraction without a default the judge may
    record the penalty in words instead of choosing a rank."""

    section: str
    summary: str


@dataclass(frozen=True)
class RelatedErrors:
    """The text gives one penalty for several errors of one cause (Magic IPG 1.2): a record the judge links to an
    earlier one of the same player in the same round is kept, with no penalty of its own, and is never a repeat."""

    section: str
    summary: str


@dataclass(frozen=True)
class EventSettings:
    """What the text expects of an event at each level (WARS TCG: decklists and random deck checks from level 2)."""

    section: str
    decklist_required: frozenset[int] = frozenset()
    random_deck_checks: frozenset[int] = frozenset()

    def at(self, level: int) -> dict[str, bool]:
        return {
            "decklist_required": level in self.decklist_required,
            "random_deck_checks": level in self.random_deck_checks,
        }


@dataclass(frozen=True)
class Policy(Named):
    id: str
    name: str
    version: str
    source: str
    repeat_rules: tuple[RepeatRule, ...]
    ranks: tuple[Rank, ...]
    levels: tuple[Level, ...]
    head_judge_only: frozenset[str]
    report_to_head_judge: frozenset[str]
    subsections: tuple[Subsection, ...]
    infractions: tuple[Infraction, ...]
    time_rules: tuple[TimeRule, ...]
    appeals: AppealRules = AppealRules()
    unnamed_penalties: UnnamedPenalties | None = None
    related_errors: RelatedErrors | None = None  # "one penalty for related errors", where the text says it
    event_settings: EventSettings | None = None
    confirmations: tuple[Confirmation, ...] = ()
    time_cap: TimeCap | None = None  # the most time a table may get back in a round (Play! Pokémon 4.4)
    names: Names = field(default=NO_NAMES, compare=False)
    name_sources: tuple[tuple[str, str], ...] = ()  # per language: where the names in it come from
    texts: Texts = field(default=NO_TEXTS, compare=False)  # `source` in other languages
    _by_code: dict[str, Infraction] = field(default_factory=dict, repr=False, compare=False)

    def __post_init__(self) -> None:
        self._by_code.update({i.code: i for i in self.infractions})

    @property
    def languages(self) -> frozenset[str]:
        """The languages besides English every entry of the policy is named in (the loader checks it)."""
        return self.names.languages

    @property
    def top_rank(self) -> Rank | None:
        """The most severe rank; None for a policy whose text names no rank at all (WARS TCG)."""
        return self.ranks[-1] if self.ranks else None

    @property
    def reported_from(self) -> Rank | None:
        """The lowest rank a floor judge reports to the head judge (Bushiroad: loss of game). It and every rank
        above it are the serious penalties, listed one by one in the post-event report."""
        orders = [self.rank(r).order for r in self.report_to_head_judge]
        return self.ranks[min(orders)] if orders else self.top_rank

    def may_leave_rank_unnamed(self, infraction: Infraction) -> bool:
        """Whether a judge may record this infraction's penalty in words (no rank): the text leaves penalties to
        another document and gives this infraction no default."""
        return self.unnamed_penalties is not None and infraction.discretion

    def confirmation_for(self, infraction: Infraction, rank_id: str | None, level: int) -> Confirmation | None:
        """The first of the policy's confirmation rules that holds for this penalty: a floor judge's ruling is then a
        recommendation waiting for the head judge (or whom the rule names). A rule with `off_default` holds only for
        a penalty outside the infraction's default at the level (its general default, whatever the minutes late)."""
        default = infraction.default_at(level) if infraction.penalized else None
        off = (
            rank_id is not None
            and default is not None
            and any(r.id == rank_id for r in self.ranks)
            and not default.contains(self.rank(rank_id))
        )
        return next((c for c in self.confirmations if c.holds_for(infraction, rank_id, level, off)), None)

    def assistant_may_confirm(self, infraction: Infraction, rank_id: str | None, level: int) -> bool:
        """Whether an assistant head judge may confirm (or give) this penalty themselves: the policy's confirmation
        rule for it names "the head judge or an assistant head judge" (Play! Pokémon 4.1), and neither the rank nor
        the infraction is the head judge's alone (a disqualification and its report are the head judge's, PPG 6.2)."""
        if infraction.head_judge_only or rank_id in self.head_judge_only:
            return False
        found = self.confirmation_for(infraction, rank_id, level)
        return found is not None and found.by is ConfirmedBy.HEAD_JUDGE_OR_ASSISTANT

    def challenge_limit(self, event_limit: int | None) -> int | None:
        """A player's challenges at an event: the number the text fixes, the event's setting, or no limit."""
        rules = self.appeals
        if rules.challenges is None:
            return None
        return event_limit if rules.challenges == "set_by_event" else int(rules.challenges)

    def rank(self, rank_id: str) -> Rank:
        for r in self.ranks:
            if r.id == rank_id:
                return r
        raise UnknownChoice("rank", rank_id, [r.id for r in self.ranks])

    def level(self, ref: int | str) -> Level:
        """A level by its number, or by its id or number as text (`competitive`, `2`)."""
        for lv in self.levels:
            if ref == lv.number or (isinstance(ref, str) and ref in (lv.id, str(lv.number))):
                return lv
        raise UnknownChoice("level", str(ref), [lv.id or str(lv.number) for lv in self.levels])

    def infraction(self, code: str) -> Infraction:
        try:
            return self._by_code[code]
        except KeyError:
            raise UnknownChoice("infraction", code, list(self._by_code)) from None

    def subsection(self, code: str) -> Subsection:
        return next(s for s in self.subsections if s.code == code)

    def time_cap_at(self, level: int) -> TimeCap | None:
        cap = self.time_cap
        return cap if cap is not None and (not cap.levels or level in cap.levels) else None

    def time_rule(self, reason: ExtensionReason) -> TimeRule | None:
        return next((t for t in self.time_rules if t.reason == reason), None)

    def rank_above(self, rank: Rank, steps: int = 1) -> Rank:
        return self.ranks[min(rank.order + steps, len(self.ranks) - 1)]

    def with_window(self, window: RepeatScope) -> Policy:
        """The same policy with every repeat rule counting over `window` (a house variant: repeats reset daily)."""
        rules = tuple(replace(r, window=window) for r in self.repeat_rules)
        return replace(self, repeat_rules=rules, _by_code={})


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
