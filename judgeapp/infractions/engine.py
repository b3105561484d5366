"""The penalty engine: the default penalty at a level, upgraded by the policy's repeat rules (data: what counts as an
earlier offence, over which window, from which count, and what the penalty becomes)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date
from enum import Enum
from typing import Any

from .catalog import (
    Alternative,
    Confirmation,
    Counts,
    Infraction,
    Level,
    PenaltyRange,
    Policy,
    Rank,
    RepeatRule,
    Repeats,
    RepeatScope,
    UpgradeResult,
    base_language,
    text_in,
)


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
    # the event's day it was given on (its round's: Day 1, Day 2…), which a "day" window compares with the incident's
    # own; a calendar date where a caller has no event days (the same comparison)
    day: int | date | None = None
    status: PriorStatus = PriorStatus.STANDING
    subsection: str | None = None  # as logged; defaults to the catalog's sub-section for the code
    game: int | None = None  # the game of the round's match it was given in (1, 2, 3…), when the judge gave it


@dataclass(frozen=True)
class Offer:
    """An escalation the text leaves to the judge ("repeats may be escalated"): shown with its reason, never applied
    by itself."""

    rule: RepeatRule
    rank: Rank
    because: tuple[Prior, ...]


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
    rule: RepeatRule | None = None  # the repeat rule that upgraded it
    range_to: Rank | None = None  # the top the judge may choose without a reason, when the rule widens the range
    range_to_by: str | None = None  # "head_judge": above the rule's rank only the head judge gives it (704.1.b)
    offered: tuple[Offer, ...] = ()  # escalations the judge may choose, each with the rule that offers it
    confirmation: Confirmation | None = None  # who must confirm the suggested penalty when a floor judge gives it
    minutes_late: int | None = None  # the row chosen by minutes late, when the infraction has such rows
    asks_game: bool = False  # a rule counting per game may upgrade it: the form asks the game number
    game: int | None = None  # the game number it was suggested for, when asked
    # the earlier record of the same player and round the judge linked this one to as the same cause, where the text
    # gives one penalty for related errors (IPG 1.2): this record carries no penalty of its own
    related: Prior | None = None

    def explanation(self, lang: str | None = None) -> str:
        """One sentence a judge can read at the table, naming the rule and the earlier penalties it counted, in `lang`
        (the phrases of PHRASES; English for a language it has none for). The catalog's names are in `lang` too;
        what the policy's text gives only in English (a condition, a rule's own name) stays English."""
        words = phrases(lang)
        level = self.level.name_in(lang)
        if self.related is not None and self.policy.related_errors is not None:
            return self._related_words(self.related, lang)
        if not self.infraction.penalized:
            if self.alternatives:  # no penalty unless a condition holds (IPG 2.1)
                when = words["or"].join(
                    words["alternative"].format(penalty=a.penalty.label(lang), condition=text_in(a, "condition", lang))
                    for a in self.alternatives
                )
                return words["no_default_but"].format(level=level, when=when)
            return words["not_penalized"]
        if self.suggested is None or self.default is None:  # no default, so nothing suggested
            return words["discretion"]
        offers = "".join(words["offered"].format(**self._offer_words(o, lang)) for o in self.offered)
        if not self.upgraded or self.rule is None:
            if self.minutes_late is not None:
                return (
                    words["default_late"].format(
                        level=level, penalty=self.default.label(lang), minutes=self.minutes_late
                    )
                    + offers
                )
            return words["default"].format(level=level, penalty=self.default.label(lang)) + offers
        return self._upgraded_words(self.rule, self.suggested, lang) + offers

    def _related_words(self, related: Prior, lang: str | None) -> str:
        """The sentence for a record linked to an earlier one of the same cause (one penalty for related errors)."""
        words = phrases(lang)
        where = _where(related, lang)
        known = {r.id: r for r in self.policy.ranks}
        given = known.get(related.rank_id)
        text = words["related"].format(
            section=self.policy.related_errors.section if self.policy.related_errors else "",
            where=where,
            rank=given.name_in(lang) if given else related.rank_id,
        )
        if self.default is not None and given is not None and self.default.min.order > given.order:
            text += words["related_more"].format(penalty=self.default.label(lang), where=where)
        return text

    def _offer_words(self, offer: Offer, lang: str | None) -> dict[str, str]:
        words = phrases(lang)
        return {
            "rank": offer.rank.name_in(lang),
            "section": offer.rule.section_in(lang),
            "nth": _ordinal(len(offer.because) + 1, lang),
            "n": str(len(offer.because) + 1),
            "what": rule_subject(offer.rule, self.infraction, lang),
            "window": words[f"window_{offer.rule.window.value}"],
        }

    def _upgraded_words(self, rule: RepeatRule, suggested: Rank, lang: str | None) -> str:
        words = phrases(lang)
        where = _where(self.because[-1], lang)
        return words["upgraded"].format(
            nth=_ordinal(len(self.because) + 1, lang),
            n=len(self.because) + 1,
            what=rule_subject(rule, self.infraction, lang),
            window=words[f"window_{rule.window.value}"],
            section=rule.section_in(lang),
            rank=suggested.name_in(lang),
            where=where,
        )

    def as_dict(self, lang: str | None = None) -> dict[str, Any]:
        """The JSON shape the CLI prints and the web layer serves; the explanation in `lang`."""
        return {
            "policy": self.policy.id,
            "level": self.level.number,
            "infraction": {"code": self.infraction.code, "name": self.infraction.name_in(lang)},
            "default": None if self.default is None else {"min": self.default.min.id, "max": self.default.max.id},
            "suggested": None if self.suggested is None else self.suggested.id,
            "upgraded": self.upgraded,
            "rule": None if self.rule is None or not self.upgraded else self.rule.id,
            "because": [
                {"infraction": p.infraction_code, "rank": p.rank_id, "ref": p.ref, "round": p.round}
                for p in self.because
            ],
            "head_judge_only": self.head_judge_only,
            "head_judge_range": [r.id for r in head_judge_range(self.policy, self)],
            "offered": [
                {"rule": o.rule.id, "rank": o.rank.id, "because": [p.ref for p in o.because]} for o in self.offered
            ],
            "confirm": _confirm_dict(self.confirmation),
            "asks_minutes_late": bool(self.infraction.late_rows),
            "minutes_late": self.minutes_late,
            "asks_game": self.asks_game,
            "game": self.game,
            "related_allowed": self.policy.related_errors is not None,
            "related_to": None if self.related is None else self.related.ref,
            "unnamed_allowed": self.policy.may_leave_rank_unnamed(self.infraction),
            "explanation": self.explanation(lang),
        }


def _where(prior: Prior, lang: str | None) -> str:
    """An earlier record as the explanation names it: "incident #3, round 2" (", game 1" where its game is known)."""
    words = phrases(lang)
    where = words["incident"].format(ref=prior.ref) if prior.ref is not None else prior.infraction_code
    if prior.round is not None and prior.game is not None:
        return words["in_round_game"].format(where=where, round=prior.round, game=prior.game)
    if prior.round is not None:
        return words["in_round"].format(where=where, round=prior.round)
    return where


def _confirm_dict(c: Confirmation | None) -> dict[str, Any] | None:
    return None if c is None else {"by": c.by.value, "judges": c.judges, "section": c.section}


# The explanation's phrases per language (kept here, not in the gettext catalogs: the domain is pure Python, and
# judgeapp/static/js/engine.js holds the same table so the phone writes the same sentence offline). Placeholders
# are str.format's; engine.js fills them alike. A language without an entry uses English.
PHRASES: dict[str, dict[str, str]] = {
    "en": {
        "no_default_but": "No penalty by default at {level}; {when}.",
        "alternative": "{penalty} when {condition}",
        "or": "; ",
        "not_penalized": "Not an infraction: no penalty.",
        "discretion": "No default penalty: the judge decides, guided by similar infractions.",
        "default": "Default at {level}: {penalty}.",
        "default_late": "Default at {level} for {minutes} minutes late: {penalty}.",
        "upgraded": "Upgraded: {nth} {what} {window} ({section}): {rank} — after {where}",
        "incident": "incident #{ref}",
        "in_round": "{where}, round {round}",
        "in_round_game": "{where}, round {round}, game {game}",
        "window_event": "at this event",
        "window_day": "today",
        "window_match": "in this match",
        "window_game": "in this game",
        "related": (
            "One penalty for related errors ({section}): the same cause as {where}, whose {rank} stands for both;"
            " no second penalty."
        ),
        "related_more": " This error's default ({penalty}) is more severe: correct the penalty of {where} instead.",
        "penalty_in": "penalty in {subsection}",
        "penalty": "penalty",
        "offered": (
            " The judge may escalate to {rank} ({section}: {nth} {what} {window}): their call, never applied by itself."
        ),
    },
    "ja": {
        "no_default_but": "{level}では標準の罰則はありません。{when}。",
        "alternative": "{condition}の場合は{penalty}",
        "or": "、",
        "not_penalized": "違反ではありません。罰則はありません。",
        "discretion": "標準の罰則はありません。類似の違反を参考にジャッジが決めます。",
        "default": "{level}の標準の罰則：{penalty}",
        "default_late": "{level}で{minutes}分の遅刻の標準の罰則：{penalty}",
        "upgraded": "格上げ：{window}{what}の{n}回目（{section}）：{rank} — 前回：{where}",
        "incident": "違反記録 #{ref}",
        "in_round": "{where}（第{round}ラウンド）",
        "in_round_game": "{where}（第{round}ラウンド第{game}ゲーム）",
        "window_event": "この大会で",
        "window_day": "本日",
        "window_match": "このマッチで",
        "window_game": "このゲームで",
        "related": (
            "関連する違反は1つの罰則（{section}）：{where}と同じ原因で、その{rank}が両方に対する罰則です。"
            "2つ目の罰則はありません。"
        ),
        "related_more": "この違反の標準の罰則（{penalty}）の方が重いため、代わりに{where}の罰則を訂正してください。",
        "penalty_in": "{subsection}の罰則",
        "penalty": "罰則",
        "offered": (
            "ジャッジの判断で{rank}に格上げできます（{section}：{window}{what}の{n}回目）。自動では適用されません。"
        ),
    },
}


def phrases(lang: str | None) -> dict[str, str]:
    return PHRASES.get(base_language(lang), PHRASES["en"])


def _ordinal(n: int, lang: str | None = None) -> str:
    if base_language(lang) != "en":
        return str(n)
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def rule_subject(rule: RepeatRule, infraction: Infraction, lang: str | None = None) -> str:
    """What a rule counts, in words: its own name, or what `counts` says."""
    if rule.name:
        return rule.name_in(lang)
    if rule.counts is Counts.INFRACTION:
        return f"{infraction.code} {infraction.name_in(lang)}"
    if rule.counts is Counts.SUBSECTION:
        return phrases(lang)["penalty_in"].format(subsection=infraction.subsection)
    return phrases(lang)["penalty"]


def _in(codes: frozenset[str], code: str, subsection: str | None) -> bool:
    return code in codes or (subsection is not None and subsection in codes)


def _counts_repeats_of(rule: RepeatRule, infraction: Infraction, level: int | None) -> bool:
    """Whether `rule` counts repeats of `infraction` at `level` (None: at any level): the infraction's repeats are
    counted, by this rule among those it names, at a level the rule is for. rule_applies and counting_priors ask
    this one question."""
    if infraction.repeats is not Repeats.COUNTED:
        return False
    if infraction.repeat_rules is not None and rule.id not in infraction.repeat_rules:
        return False
    return level is None or not rule.levels or level in rule.levels


def rule_applies(policy: Policy, rule: RepeatRule, infraction: Infraction, level: int) -> bool:
    """Whether `rule` may upgrade `infraction` at `level`."""
    if not _counts_repeats_of(rule, infraction, level):
        return False
    scope = rule.applies_to or (rule.group if rule.counts is Counts.GROUP else frozenset())
    return not scope or _in(scope, infraction.code, infraction.subsection)


def counted_by(
    policy: Policy,
    rule: RepeatRule,
    infraction: Infraction,
    prior: Iterable[Prior],
    today: int | date | None = None,
    this_round: int | None = None,
    this_game: int | None = None,
) -> tuple[Prior, ...]:
    """The earlier penalties `rule` counts as earlier offences: standing, in its window, of what it counts. A rule
    counting per game counts only a penalty of the same round and game, both known: without the game numbers it
    cannot tell the games of a match apart, and suggests no upgrade by it."""
    out = []
    for p in prior:
        if p.status is not PriorStatus.STANDING:
            continue
        if rule.window is RepeatScope.DAY and today is not None and p.day is not None and p.day != today:
            continue
        if (
            rule.window is RepeatScope.MATCH
            and this_round is not None
            and p.round is not None
            and p.round != this_round
        ):
            continue
        if rule.window is RepeatScope.GAME and (
            this_round is None or this_game is None or p.round != this_round or p.game != this_game
        ):
            continue
        if rule.prior_ranks and p.rank_id not in rule.prior_ranks:
            continue
        known = policy.infraction(p.infraction_code) if p.infraction_code in policy._by_code else None
        if known is not None and known.repeats is Repeats.TRACKING_ONLY:
            continue
        subsection = p.subsection or (known.subsection if known else None)
        if rule.counts is Counts.ANY:
            out.append(p)
        elif rule.counts is Counts.INFRACTION:
            if p.infraction_code == infraction.code:
                out.append(p)
        elif subsection is None:
            continue  # a code the catalog no longer has cannot be matched to a sub-section
        elif rule.counts is Counts.SUBSECTION:
            if subsection == infraction.subsection:
                out.append(p)
        elif _in(rule.group, p.infraction_code, subsection):
            out.append(p)
    return tuple(out)


def counting_priors(
    policy: Policy,
    infraction: Infraction,
    prior: Iterable[Prior],
    today: int | date | None = None,
    this_round: int | None = None,
    level: int | None = None,
    this_game: int | None = None,
) -> tuple[Prior, ...]:
    """The earlier penalties that make this one a repeat under any of the policy's rules (for the player's history:
    whether the next penalty of this kind would be upgraded)."""
    prior = tuple(prior)
    seen: dict[int, Prior] = {}
    for rule in policy.repeat_rules:
        if not _counts_repeats_of(rule, infraction, level):
            continue
        for p in counted_by(policy, rule, infraction, prior, today, this_round, this_game):
            seen.setdefault(id(p), p)
    return tuple(p for p in prior if id(p) in seen)


def _upgraded_rank(policy: Policy, rule: RepeatRule, base: Rank, counted: tuple[Prior, ...]) -> Rank:
    n = len(counted) + 1
    if rule.result is UpgradeResult.RANK and rule.rank is not None:
        rank = rule.rank
    elif rule.result is UpgradeResult.LADDER and rule.ladder:
        rank = rule.ladder[min(n - rule.from_count, len(rule.ladder) - 1)]
    else:
        start = base
        if rule.above_last_given and counted and counted[-1].rank_id in {r.id for r in policy.ranks}:
            start = policy.rank(counted[-1].rank_id)  # the penalty actually given last time, even below the default
        elif rule.above_highest_prior:
            earlier = [policy.rank(p.rank_id) for p in counted if p.rank_id in {r.id for r in policy.ranks}]
            start = max([base, *earlier], key=lambda r: r.order)
        rank = policy.rank_above(start, rule.steps)
    if rule.cap is not None and rank.order > rule.cap.order:
        rank = rule.cap
    return rank if rank.order > base.order else base


def suggest(
    policy: Policy,
    level: int,
    infraction: str | Infraction,
    prior: Iterable[Prior] = (),
    today: int | date | None = None,
    this_round: int | None = None,
    minutes_late: int | None = None,
    this_game: int | None = None,
    related_to: Prior | None = None,
) -> Suggestion:
    """Suggest the penalty for `infraction` at `level`, given the player's earlier penalties in this event: the
    default's minimum, or the highest rank any of the policy's repeat rules gives (the first rule on a tie). For an
    infraction with defaults by minutes late, `minutes_late` picks the row; for one a rule counts per game,
    `this_game` is the game of the round's match. `related_to`: the earlier record the judge linked this one to as the
    same cause, where the policy gives one penalty for related errors: then nothing is suggested (no second penalty)."""
    lv = policy.level(level)
    inf = infraction if isinstance(infraction, Infraction) else policy.infraction(infraction)
    if related_to is not None and policy.related_errors is None:
        raise ValueError(f"{policy.id} gives every error its own penalty: no record links to another")
    game_asked = asks_game(policy, inf, lv.number)
    row = inf.late_row(minutes_late) if inf.penalized else None
    default = inf.default_at(lv.number, minutes_late) if inf.penalized else None
    because: tuple[Prior, ...] = ()
    suggested: Rank | None = None
    chosen: RepeatRule | None = None
    offered: tuple[Offer, ...] = ()
    if default is not None and related_to is None:
        prior = tuple(prior)
        suggested = default.min
        offers: list[Offer] = []
        for rule in policy.repeat_rules:
            if not rule_applies(policy, rule, inf, lv.number):
                continue
            if rule.upgrades and default.min.id not in rule.upgrades:
                continue  # e.g. "the second Warning becomes a Game Loss": a Caution being given stays one
            counted = counted_by(policy, rule, inf, prior, today, this_round, this_game)
            if len(counted) + 1 < rule.from_count:
                continue
            rank = _upgraded_rank(policy, rule, default.min, counted)
            if rule.offered:
                offers.append(Offer(rule, rank, counted))
            elif rank.order > suggested.order:
                suggested, chosen, because = rank, rule, counted
        offered = tuple(o for o in offers if o.rank.order > suggested.order)
    upgraded = chosen is not None
    return Suggestion(
        policy=policy,
        level=lv,
        infraction=inf,
        default=default,
        suggested=suggested,
        upgraded=upgraded,
        because=because,
        head_judge_only=inf.head_judge_only or (suggested is not None and suggested.id in policy.head_judge_only),
        report_to_head_judge=suggested is not None and suggested.id in policy.report_to_head_judge,
        alternatives=inf.alternatives_at(lv.number),
        rule=chosen,
        range_to=chosen.range_to if chosen is not None else None,
        range_to_by=chosen.range_to_by if chosen is not None else None,
        offered=offered,
        confirmation=policy.confirmation_for(inf, suggested.id if suggested else None, lv.number),
        minutes_late=minutes_late if row is not None else None,
        asks_game=game_asked,
        game=this_game if game_asked else None,
        related=related_to,
    )


def asks_game(policy: Policy, infraction: Infraction, level: int) -> bool:
    """Whether a rule counting per game (window: game) may upgrade `infraction` at `level`: the form then asks the
    game of the round's match (FaB PPG 3.3)."""
    return infraction.penalized and any(
        r.window is RepeatScope.GAME and rule_applies(policy, r, infraction, level) for r in policy.repeat_rules
    )


def expected_ranks(policy: Policy, suggestion: Suggestion, *, head_judge: bool = False) -> list[Rank]:
    """The penalties a judge may give without a reason: from the suggestion up to the default's top (or the upgrade),
    and up to a rule's `range_to` (for the head judge only where the rule says so, Riftbound 704.1.b)."""
    if suggestion.suggested is None or suggestion.default is None:
        return list(policy.ranks)
    top = max(suggestion.default.max.order, suggestion.suggested.order)
    if suggestion.range_to is not None and (suggestion.range_to_by is None or head_judge):
        top = max(top, suggestion.range_to.order)
    for offer in suggestion.offered:  # an escalation the text offers is the judge's call: no reason to type
        top = max(top, offer.rank.order)
    return [r for r in policy.ranks if suggestion.suggested.order <= r.order <= top]


def head_judge_range(policy: Policy, suggestion: Suggestion) -> list[Rank]:
    """The ranks a rule's `range_to` reaches that only the head judge gives (Riftbound 704.1.b: after a second
    Unsporting Minor, a Game Loss; only the head judge may go further): above the suggestion, the default's top and
    any offered escalation, up to `range_to`. A floor judge's choice among them is a recommendation."""
    s = suggestion
    if s.range_to is None or s.range_to_by != "head_judge" or s.suggested is None or s.default is None:
        return []
    top = max([s.default.max.order, s.suggested.order, *(o.rank.order for o in s.offered)])
    return [r for r in policy.ranks if top < r.order <= s.range_to.order]


def offered_alternative(suggestion: Suggestion, rank: Rank) -> Alternative | None:
    """The policy's own alternative that gives `rank` ("Instead: Warning when the judge can still legalise the game
    state…"), if any: taking it needs no typed reason, its condition is the reason."""
    return next((a for a in suggestion.alternatives if a.penalty.contains(rank)), None)
