"""Load and validate a catalog YAML file into immutable domain objects.

Shape (types, required and unknown keys) is checked by pydantic; meaning (ranks, levels and
sub-sections that exist, unique codes, min <= max) by the checks below. Every problem names the
file, the YAML line and the path of the field; a file with any problem is refused whole.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path
from typing import Annotated, Any, Literal

import yaml
from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field, StringConstraints, ValidationError

from .catalog import (
    Alternative,
    AppealRules,
    Catalog,
    Confirmation,
    ConfirmedBy,
    Counts,
    EventSettings,
    ExtensionReason,
    Infraction,
    LateRow,
    Level,
    Names,
    PenaltyRange,
    Phrases,
    Policy,
    Rank,
    RelatedErrors,
    RepeatRule,
    Repeats,
    RepeatScope,
    Subsection,
    Texts,
    TimeCap,
    TimeRule,
    UnnamedPenalties,
    UpgradeResult,
)
from .search import fold

_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

# Bounds a catalog file is checked against before anything is composed (a policy needs none of what they refuse: the
# shipped catalog of several policies is 154 KB, 7,400 YAML events, 9 levels deep, no anchor, no scalar over 800
# characters).
MAX_DEPTH = 16  # mappings and lists inside one another
MAX_EVENTS = 100_000  # YAML events (scalars, starts and ends of mappings and lists)
MAX_SCALAR_CHARS = 10_000  # one string
MAX_PROBLEMS = 20  # problems kept and formatted (all shown at the upload's field); the rest are counted
MAX_INFRACTIONS = 500
MAX_SYNONYMS = 40  # per infraction
MAX_LANGUAGES = 16  # language codes in one policy's names and texts


class CatalogError(Exception):
    """A catalog file that cannot be used; `problems` lists the messages (at most MAX_PROBLEMS of them, then one
    line counting the rest)."""

    def __init__(self, path: str, problems: list[str]):
        self.path = path
        self.problems = problems
        super().__init__("\n".join(problems))

    def __reduce__(self) -> tuple[type[CatalogError], tuple[str, list[str]]]:  # raised again in the parent process
        return (CatalogError, (self.path, self.problems))


class _Problems(list[Any]):
    """Problems kept up to MAX_PROBLEMS; `more` counts those past it (never formatted, never kept)."""

    def __init__(self, limit: int = MAX_PROBLEMS):
        super().__init__()
        self.limit, self.more = limit, 0

    def append(self, item: Any) -> None:
        if len(self) < self.limit:
            super().append(item)
        else:
            self.more += 1

    def __iadd__(self, items: Any) -> _Problems:  # type: ignore[misc]
        for item in items:
            self.append(item)
        self.more += getattr(items, "more", 0)
        return self

    def extend(self, items: Any) -> None:
        self.__iadd__(items)


def _more_line(more: int) -> str:
    return f"… and {more:,} more problems" if more != 1 else "… and 1 more problem"


def _yaml_refusal(path: str, exc: yaml.YAMLError) -> CatalogError:
    """A file libyaml could not read, said with its line and column where the error has them."""
    if isinstance(exc, yaml.MarkedYAMLError):
        mark = exc.problem_mark or exc.context_mark
        where = f"{path}:{mark.line + 1}:{mark.column + 1}" if mark else path
        return CatalogError(path, [f"{where}: YAML syntax error: {exc.problem or exc.context}"])
    return CatalogError(path, [f"{path}: YAML error: {exc}"])


def _bounded(text: str, path: str) -> None:
    """Refuse, before anything is composed, a file that no policy needs and that could cost the server dear: an
    anchor or alias (`&a`, `*a`: the "billion laughs" of YAML), nesting deeper than MAX_DEPTH, more than MAX_EVENTS
    events, a string longer than MAX_SCALAR_CHARS. One linear pass over libyaml's event stream, stopped at the
    first excess."""
    depth = events = 0
    loader = _Loader(text)
    try:
        while loader.check_event():
            event = loader.get_event()
            events += 1
            where = f"{path}:{event.start_mark.line + 1}" if event.start_mark else path
            if isinstance(event, yaml.AliasEvent) or getattr(event, "anchor", None):
                raise CatalogError(
                    path, [f"{where}: anchors and aliases (&name, *name) are not allowed: a policy never needs them"]
                )
            if isinstance(event, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
                depth += 1
                if depth > MAX_DEPTH:
                    raise CatalogError(path, [f"{where}: nested more than {MAX_DEPTH} levels deep; a policy is not"])
            elif isinstance(event, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
                depth -= 1
            elif isinstance(event, yaml.ScalarEvent) and len(event.value) > MAX_SCALAR_CHARS:
                raise CatalogError(path, [f"{where}: a text longer than {MAX_SCALAR_CHARS:,} characters"])
            if events > MAX_EVENTS:
                raise CatalogError(path, [f"{where}: more than {MAX_EVENTS:,} entries; a policy has far fewer"])
    except yaml.YAMLError as exc:
        raise _yaml_refusal(path, exc) from None
    finally:
        loader.dispose()


# ---- shape -------------------------------------------------------------------------------


def _single_rank_shorthand(value: Any) -> Any:
    """`level_1: warning` means `level_1: {min: warning, max: warning}`."""
    return {"min": value, "max": value} if isinstance(value, str) else value


class _Strict(BaseModel):
    """Unknown keys are refused, and so is a value of the wrong YAML type: `version: 1.10` (a number, read as 1.1)
    or `code: 3.5` is an error, not silently turned into a string, and `penalized: "no"` is not a boolean."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


class RawRange(_Strict):
    min: str
    max: str


Range = Annotated[RawRange, BeforeValidator(_single_rank_shorthand)]

# A language code of the names in other languages (`ja`, `pt-BR`); English is the catalog's own `name`.
LanguageCode = Annotated[str, StringConstraints(pattern=r"^[a-z]{2,3}(-[A-Z]{2})?$")]
LocalName = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=160)]
LocalText = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=2000)]
# The explanatory fields an entry may give in other languages (`texts: {ja: {notes: …}}`), by kind of entry.
_LANGS = Field(max_length=MAX_LANGUAGES)
InfractionTexts = Annotated[dict[LanguageCode, dict[Literal["notes", "remedy", "section_note"], LocalText]], _LANGS]
LevelTexts = Annotated[dict[LanguageCode, dict[Literal["description"], LocalText]], _LANGS]
RuleTexts = Annotated[dict[LanguageCode, dict[Literal["description"], LocalText]], _LANGS]
TimeRuleTexts = Annotated[dict[LanguageCode, dict[Literal["summary", "section"], LocalText]], _LANGS]
AppealTexts = Annotated[
    dict[
        LanguageCode,
        dict[Literal["summary", "section", "challenge_section", "opponent_section", "proxy_section"], LocalText],
    ],
    _LANGS,
]
PolicyTexts = Annotated[dict[LanguageCode, dict[Literal["source"], LocalText]], _LANGS]
LocalNames = Annotated[dict[LanguageCode, LocalName], _LANGS]
# A reading in kana: hiragana, katakana (full- or half-width, with the long-vowel mark and middle dot) and spaces.
KANA = re.compile("^[\u3041-\u309f\u30a0-\u30ff\uff66-\uff9f\u3000 ]+$")


def _kana(value: str) -> str:
    if not KANA.match(value):
        raise ValueError("a reading is written in kana only (hiragana or katakana, and spaces)")
    return value


Reading = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=160), AfterValidator(_kana)]


class RawAlternative(_Strict):
    condition: str
    levels: list[int | str]
    penalty: Range
    texts: Annotated[dict[LanguageCode, dict[Literal["condition"], LocalText]], _LANGS] = {}


Phrase = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=80)]


def _one_or_more(value: Any) -> Any:
    """`en: {source: …, words: […]}` means a list of that one block."""
    return [value] if isinstance(value, dict) else value


class RawPhrases(_Strict):
    """Judges' words for an infraction in one language, and where they come from."""

    source: Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=300)]
    words: Annotated[list[Phrase], Field(min_length=1)]


class RawLateRow(_Strict):
    """Defaults for a player at least `from` minutes late."""

    from_: int = Field(alias="from", ge=0)
    defaults: dict[str, Range]


class RawInfraction(_Strict):
    code: str
    severity: str | None = Field(default=None, pattern=r"^[a-z][a-z]*$")  # a section split by severity: `major`
    name: str
    subsection: str
    notes: str
    remedy: str = ""
    penalized: bool = True
    discretion: bool = False
    defaults: dict[str, Range] | None = None
    minutes_late: list[RawLateRow] = []  # defaults by minutes late (tardiness), earliest first
    repeat_any_action: bool = False
    alternatives: list[RawAlternative] = []
    section_note: str = ""
    repeats: Annotated[Repeats, Field(strict=False)] = Repeats.COUNTED
    repeat_rules: list[str] | None = None
    synonyms: Annotated[
        list[Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=60)]],
        Field(max_length=MAX_SYNONYMS),
    ] = []
    head_judge_only: bool = False
    names: LocalNames = {}
    readings: Annotated[dict[LanguageCode, Reading], _LANGS] = {}  # the reading of names[lang] in kana, for search
    texts: InfractionTexts = {}
    # the finder's words, per language: one block, or several with different sources (table talk, game words, …)
    phrases: dict[LanguageCode, Annotated[list[RawPhrases], BeforeValidator(_one_or_more)]] = {}


class RawRank(_Strict):
    id: str = Field(pattern=r"^[a-z][a-z0-9_]*$")
    name: str
    names: LocalNames = {}


class RawLevel(_Strict):
    number: int = Field(ge=1)
    id: str | None = Field(default=None, pattern=r"^[a-z][a-z0-9-]*$")  # the text's own name: defaults use it as key
    name: str
    description: str
    names: LocalNames = {}
    texts: LevelTexts = {}


def _level_key(lv: RawLevel) -> str:
    """The key a level's defaults are written under: its id (`competitive`) or `level_<number>`."""
    return lv.id or f"level_{lv.number}"


def _level_number(p: RawPolicy, ref: int | str) -> int | None:
    """A level named in a list by its number or its id; None when the policy has no such level."""
    for lv in p.levels:
        if ref == lv.number or ref == lv.id:
            return lv.number
    return None


class RawSubsection(_Strict):
    code: str
    name: str
    names: LocalNames = {}


class RawRepeatRule(_Strict):
    id: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$")
    name: str = ""
    counts: Annotated[Counts, Field(strict=False)]
    group: list[str] = []
    applies_to: list[str] = []
    prior_ranks: list[str] = []
    upgrades: list[str] = []  # the rule upgrades only a penalty of these ranks (the default's); empty: any
    window: Annotated[RepeatScope, Field(strict=False)]
    from_count: int = Field(default=2, ge=2)
    result: Annotated[UpgradeResult, Field(strict=False)]
    steps: int = Field(default=1, ge=1)
    above: Literal["default", "highest_prior", "last_given"] = "default"
    offered: bool = False  # "the judge may escalate": offered and explained, never applied by itself
    rank: str | None = None
    ladder: list[str] = []
    cap: str | None = None
    range_to: str | None = None
    range_to_by: Literal["head_judge"] | None = None  # only the head judge goes above the rule's rank (704.1.b)
    levels: list[int | str] = []
    section: str
    description: str
    names: LocalNames = {}  # `name` in other languages
    sections: LocalNames = {}  # `section` in other languages
    texts: RuleTexts = {}


class RawConfirmation(_Strict):
    """Penalties a floor judge may only recommend: who must decide or confirm them, per rank and level."""

    ranks: Annotated[list[str], Field(min_length=1)]
    by: Annotated[ConfirmedBy, Field(strict=False)]
    judges: int | None = Field(default=None, ge=2)
    # who must be among the judges (Play! Pokémon 4.1: "including the Head Judge"); the head judge is always one of
    # them in judgeapp (they issue it), so the only value, written where the text says it
    including: Literal["head_judge"] | None = None
    levels: list[int | str] = []
    exceptions: list[str] = []  # infractions and sub-sections the floor judge still gives alone
    off_default: bool = False  # only a penalty other than the infraction's default at the level (an up- or downgrade)
    section: str


class RawTimeRule(_Strict):
    reason: Annotated[ExtensionReason, Field(strict=False)]  # a YAML string naming one of the enum's values
    over_minutes: float = Field(ge=0)
    plus_minutes: int = Field(default=0, ge=0)
    extra_turns_allowed: bool = False
    announce_before_result: bool = False
    section: str
    summary: str
    texts: TimeRuleTexts = {}


class RawTimeCap(_Strict):
    """The most minutes one table may get back in a round, in all, at some levels (Play! Pokémon 4.4)."""

    minutes: int = Field(ge=1)
    levels: list[int | str] = []
    section: str


class RawAppeals(_Strict):
    section: str
    summary: str = ""
    challenges: Literal["none", "set_by_event"] | Annotated[int, Field(ge=1)] = "none"
    challenge_spent_by: Literal["head_judge", "any_decision"] | None = None
    challenge_section: str = ""
    opponent_may_contest: Literal["remedy_only", "penalty_and_remedy"] = "penalty_and_remedy"
    opponent_section: str = ""
    proxy: bool = False
    proxy_section: str = ""
    texts: AppealTexts = {}


class RawUnnamedPenalties(_Strict):
    section: str
    summary: str


class RawRelatedErrors(_Strict):
    section: str
    summary: str


class RawEventSettings(_Strict):
    section: str
    decklist_required: list[int | str] = []
    random_deck_checks: list[int | str] = []


class RawPolicy(_Strict):
    name: str
    names: LocalNames = {}
    name_sources: Annotated[dict[LanguageCode, str], _LANGS] = {}  # per language: where its names come from
    texts: PolicyTexts = {}
    version: str
    source: str
    repeat_rules: list[RawRepeatRule]
    ranks: list[RawRank]  # empty only when the text names no penalty and says so (unnamed_penalties)
    levels: list[RawLevel] = Field(min_length=1)
    head_judge_only: list[str] = []
    report_to_head_judge: list[str] = []
    time_extensions: list[RawTimeRule] = []
    time_cap: RawTimeCap | None = None
    subsections: list[RawSubsection] = Field(min_length=1)
    infractions: list[RawInfraction] = Field(min_length=1, max_length=MAX_INFRACTIONS)
    appeals: RawAppeals | None = None
    unnamed_penalties: RawUnnamedPenalties | None = None
    related_errors: RawRelatedErrors | None = None  # one penalty for several errors of one cause (IPG 1.2)
    event_settings: RawEventSettings | None = None
    confirm: list[RawConfirmation] = []


class RawCatalog(_Strict):
    policies: dict[Annotated[str, Field(pattern=r"^[a-z0-9][a-z0-9-]*$")], RawPolicy] = Field(min_length=1)


# a code's severity suffix, as judges write a section split by severity: `5.5.1-major`
SEVERITY_SUFFIX = re.compile(r"-([a-z]+)$")


# ---- paths and lines ---------------------------------------------------------------------

PathT = tuple[str | int, ...]


def _fmt_path(path: PathT) -> str:
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def _line_of(root: yaml.Node | None, path: PathT) -> int | None:
    """1-based line of the deepest YAML node that `path` reaches."""
    node, line = root, None
    for part in path:
        if node is None:
            break
        line = node.start_mark.line + 1
        nxt = None
        if isinstance(node, yaml.MappingNode):
            for key, value in node.value:
                if key.value == str(part):
                    nxt = value
                    line = key.start_mark.line + 1
                    break
        elif isinstance(node, yaml.SequenceNode) and isinstance(part, int) and part < len(node.value):
            nxt = node.value[part]
        node = nxt
    if node is not None:
        line = node.start_mark.line + 1
    return line


def _duplicate_keys(root: yaml.Node | None, found: list[Any] | None = None) -> list[tuple[PathT, str, int]]:
    """Keys given twice in one mapping (safe_load would silently keep the last), at the second one's line. Walks the
    tree with its own stack (no recursion), each node once: the file was checked by `_bounded` (no aliases)."""
    found = [] if found is None else found
    stack: list[tuple[yaml.Node | None, PathT]] = [(root, ())]
    while stack:
        node, path = stack.pop()
        if isinstance(node, yaml.MappingNode):
            seen: set[str] = set()
            for key, value in node.value:
                if key.value in seen:
                    found.append(((*path, key.value), f"key {key.value!r} appears twice", key.start_mark.line + 1))
                seen.add(key.value)
                stack.append((value, (*path, key.value)))
        elif isinstance(node, yaml.SequenceNode):
            stack.extend((item, (*path, i)) for i, item in enumerate(node.value))
    return found


# ---- meaning -----------------------------------------------------------------------------


def _check_policy(pid: str, p: RawPolicy) -> list[tuple[PathT, str]]:
    base: PathT = ("policies", pid)
    errs: list[tuple[PathT, str]] = _Problems()
    rank_ids = [r.id for r in p.ranks]
    level_keys = [_level_key(lv) for lv in p.levels]

    def dupes(items: list[str], what: str, field: str, key: str) -> None:
        seen: set[str] = set()
        for i, v in enumerate(items):
            if v in seen:
                errs.append(((*base, field, i, key), f"{what} {v!r} appears twice"))
            seen.add(v)

    dupes(rank_ids, "rank", "ranks", "id")
    dupes([str(lv.number) for lv in p.levels], "level", "levels", "number")
    dupes([s.code for s in p.subsections], "sub-section", "subsections", "code")
    dupes([i.code for i in p.infractions], "infraction code", "infractions", "code")
    dupes([t.reason.value for t in p.time_extensions], "time-extension reason", "time_extensions", "reason")
    dupes([r.id for r in p.repeat_rules], "repeat rule", "repeat_rules", "id")

    def known_rank(value: str, path: PathT) -> bool:
        if value not in rank_ids:
            errs.append((path, f"{value!r} is not a rank of this policy (ranks: {', '.join(rank_ids)})"))
            return False
        return True

    for field in ("head_judge_only", "report_to_head_judge"):
        for i, r in enumerate(getattr(p, field)):
            known_rank(r, (*base, field, i))

    def check_range(rng: RawRange, path: PathT) -> None:
        ok_min = known_rank(rng.min, (*path, "min"))
        ok_max = known_rank(rng.max, (*path, "max"))
        if ok_min and ok_max and rank_ids.index(rng.min) > rank_ids.index(rng.max):
            errs.append((path, f"min {rng.min!r} is above max {rng.max!r}"))

    if not p.ranks and p.unnamed_penalties is None:
        errs.append(
            ((*base, "ranks"), "a policy needs at least one rank (or `unnamed_penalties` saying why it has none)")
        )
    if p.appeals is not None:
        apath = (*base, "appeals")
        if p.appeals.opponent_may_contest == "remedy_only" and not p.appeals.opponent_section:
            errs.append(((*apath, "opponent_section"), "say where the text limits what an opponent may contest"))
        if p.appeals.challenges == "none" and p.appeals.challenge_spent_by is not None:
            errs.append(((*apath, "challenge_spent_by"), "the policy limits no challenges (challenges: none)"))
        if p.appeals.challenges != "none" and p.appeals.challenge_spent_by is None:
            errs.append(
                ((*apath, "challenge_spent_by"), "say whose decision uses a challenge up: head_judge or any_decision")
            )
        if p.appeals.proxy and not p.appeals.proxy_section:
            errs.append(((*apath, "proxy_section"), "say where the text provides the proxy"))
    if p.event_settings is not None:
        for field in ("decklist_required", "random_deck_checks"):
            for i, lv in enumerate(getattr(p.event_settings, field)):
                if _level_number(p, lv) is None:
                    errs.append(((*base, "event_settings", field, i), f"{lv} is not a level of this policy"))

    languages = _languages(p)
    if len(languages) > MAX_LANGUAGES:
        shown = ", ".join(languages[:5])
        errs.append((base, f"{len(languages):,} languages ({shown}, …); a policy is given in at most {MAX_LANGUAGES}"))
    else:
        errs += _check_names(base, p)
        errs += _check_texts(base, p)
    subsection_codes = {s.code for s in p.subsections}
    names = subsection_codes | {i.code for i in p.infractions}
    rule_ids = {r.id for r in p.repeat_rules}
    for n, rule in enumerate(p.repeat_rules):
        rpath = (*base, "repeat_rules", n)
        for field in ("group", "applies_to"):
            for i, code in enumerate(getattr(rule, field)):
                if code not in names:
                    errs.append(
                        ((*rpath, field, i), f"{code!r} is neither an infraction nor a sub-section of this policy")
                    )
        if (rule.counts is Counts.GROUP) != bool(rule.group):
            errs.append(((*rpath, "group"), "a group is given exactly when the rule counts a group (counts: group)"))
        for i, r in enumerate(rule.prior_ranks):
            known_rank(r, (*rpath, "prior_ranks", i))
        for i, r in enumerate(rule.upgrades):
            known_rank(r, (*rpath, "upgrades", i))
        for i, r in enumerate(rule.ladder):
            known_rank(r, (*rpath, "ladder", i))
        for field in ("rank", "cap", "range_to"):
            if getattr(rule, field) is not None:
                known_rank(getattr(rule, field), (*rpath, field))
        if rule.result is UpgradeResult.RANK and rule.rank is None:
            errs.append(((*rpath, "rank"), "result: rank needs the rank"))
        if rule.result is UpgradeResult.LADDER and not rule.ladder:
            errs.append(((*rpath, "ladder"), "result: ladder needs the ranks, one for each count"))
        for i, lv in enumerate(rule.levels):
            if _level_number(p, lv) is None:
                errs.append(((*rpath, "levels", i), f"{lv} is not a level of this policy"))
        if rule.above != "default" and rule.result is not UpgradeResult.UP:
            errs.append(
                (
                    (*rpath, "above"),
                    f"above: {rule.above} says where result: up counts from; this rule's result is {rule.result.value}",
                )
            )
        if rule.range_to_by is not None and rule.range_to is None:
            errs.append(((*rpath, "range_to_by"), "range_to_by says who may go up to range_to: give range_to too"))
        if rule.offered and rule.range_to is not None:
            errs.append(((*rpath, "range_to"), "an offered escalation is the judge's call already: no range_to"))
        if rule.window is RepeatScope.GAME and not rule.applies_to:
            errs.append(
                (
                    (*rpath, "applies_to"),
                    "a rule counting per game (window: game) names the infractions it upgrades: the form asks the "
                    "game number for those only",
                )
            )
    if p.related_errors is not None:
        for field in ("section", "summary"):
            if not getattr(p.related_errors, field).strip():
                errs.append(
                    (
                        (*base, "related_errors", field),
                        "say where the text gives one penalty for related errors, and what it says"
                        if field == "section"
                        else "say in our own words what the text gives for errors of one cause",
                    )
                )
    if p.time_cap is not None:
        for i, lv in enumerate(p.time_cap.levels):
            if _level_number(p, lv) is None:
                errs.append(((*base, "time_cap", "levels", i), f"{lv} is not a level of this policy"))
    for n, conf in enumerate(p.confirm):
        cpath = (*base, "confirm", n)
        for i, r in enumerate(conf.ranks):
            known_rank(r, (*cpath, "ranks", i))
        for i, lv in enumerate(conf.levels):
            if _level_number(p, lv) is None:
                errs.append(((*cpath, "levels", i), f"{lv} is not a level of this policy"))
        for i, code in enumerate(conf.exceptions):
            if code not in names:
                errs.append(
                    ((*cpath, "exceptions", i), f"{code!r} is neither an infraction nor a sub-section of this policy")
                )
        if (conf.by is ConfirmedBy.JUDGES) != (conf.judges is not None):
            errs.append(((*cpath, "judges"), "the number of judges is given exactly when by: judges"))
        if conf.including is not None and conf.by is not ConfirmedBy.JUDGES:
            errs.append(
                ((*cpath, "including"), "including names who is among a number of judges: only with by: judges")
            )
    split: dict[str, list[int]] = {}  # a section split by severity: its code without the suffix -> the infractions
    for n, inf in enumerate(p.infractions):
        ipath = (*base, "infractions", n)
        suffix = SEVERITY_SUFFIX.search(inf.code)
        if inf.severity is not None and not inf.code.endswith(f"-{inf.severity}"):
            section = SEVERITY_SUFFIX.sub("", inf.code)
            errs.append(((*ipath, "code"), f"a row of severity {inf.severity} is coded {section}-{inf.severity}"))
        elif inf.severity is not None:
            split.setdefault(inf.code[: -len(inf.severity) - 1], []).append(n)
        elif suffix:
            errs.append(((*ipath, "severity"), f"the code ends in a severity: say `severity: {suffix.group(1)}`"))
        if inf.subsection not in subsection_codes:
            errs.append(((*ipath, "subsection"), f"{inf.subsection!r} is not a sub-section of this policy"))
        for i, rid in enumerate(inf.repeat_rules or []):
            if rid not in rule_ids:
                errs.append(((*ipath, "repeat_rules", i), f"{rid!r} is not a repeat rule of this policy"))
        for a, alt in enumerate(inf.alternatives):  # also on what carries no penalty by default (Missed Trigger)
            apath = (*ipath, "alternatives", a)
            for li, lv in enumerate(alt.levels):
                if _level_number(p, lv) is None:
                    errs.append(((*apath, "levels", li), f"{lv} is not a level of this policy"))
            check_range(alt.penalty, (*apath, "penalty"))
        seen_terms: set[str] = set()
        for t, term in enumerate(inf.synonyms):
            if term.casefold() in seen_terms:
                errs.append(((*ipath, "synonyms", t), f"synonym {term!r} appears twice"))
            seen_terms.add(term.casefold())
        for lang, blocks in inf.phrases.items():
            if lang != "en" and lang not in p.names:
                errs.append(((*ipath, "phrases", lang), f"the policy is not named in {lang!r}: no phrases in it"))
            seen_words: set[str] = set()
            for b, block in enumerate(blocks):
                bpath = (*ipath, "phrases", lang, b, "words")
                for w, word in enumerate(block.words):
                    key = fold(word)
                    if key in seen_words:
                        errs.append(((*bpath, w), f"phrase {word!r} appears twice"))
                    seen_words.add(key)
        previous = -1
        for r, row in enumerate(inf.minutes_late):
            rpath = (*ipath, "minutes_late", r)
            if row.from_ <= previous:
                errs.append(((*rpath, "from"), f"rows by minutes late go upwards: {row.from_} after {previous}"))
            previous = row.from_
            for key, rng in row.defaults.items():
                if key not in level_keys:
                    errs.append(((*rpath, "defaults", key), f"{key!r} is not a level of this policy"))
                else:
                    check_range(rng, (*rpath, "defaults", key))
            for key in level_keys:
                if key not in row.defaults:
                    errs.append(((*rpath, "defaults"), f"{key} missing: every level of the policy needs a default"))
        if inf.minutes_late and inf.defaults is None:
            errs.append(((*ipath, "minutes_late"), "defaults by minutes late need `defaults` for unknown minutes"))
        if not inf.penalized or inf.discretion:
            if inf.defaults is not None:
                why = "not penalized" if not inf.penalized else "left to the judge's discretion"
                errs.append(((*ipath, "defaults"), f"an infraction {why} has no defaults"))
            continue
        if inf.defaults is None:
            errs.append((ipath, "defaults missing (or say `discretion: true` when the text gives none)"))
            continue
        for key, rng in inf.defaults.items():
            if key not in level_keys:
                errs.append(
                    (
                        (*ipath, "defaults", key),
                        f"{key!r} is not a level of this policy (levels: {', '.join(level_keys)})",
                    )
                )
            else:
                check_range(rng, (*ipath, "defaults", key))
        for key in level_keys:
            if key not in inf.defaults:
                errs.append(((*ipath, "defaults"), f"{key} missing: every level of the policy needs a default"))
    codes = {i.code for i in p.infractions}
    for section, members in split.items():
        if section in codes:
            n = next(i for i, inf in enumerate(p.infractions) if inf.code == section)
            errs.append(
                ((*base, "infractions", n, "code"), f"{section} is split by severity: its rows carry the severity")
            )
        if len(members) == 1:
            n = members[0]
            errs.append(
                (
                    (*base, "infractions", n, "severity"),
                    f"{section} has one severity only: a code carries a severity when its section has several",
                )
            )
    return errs


def _languages(p: RawPolicy) -> list[str]:
    """Every language code the policy's names, readings and texts use."""
    found: set[str] = set()
    for entry in (p, *p.ranks, *p.levels, *p.subsections, *p.infractions, *p.repeat_rules, *p.time_extensions):
        for field in ("names", "readings", "texts", "name_sources", "sections"):
            found.update(getattr(entry, field, None) or ())
    for inf in p.infractions:
        for alt in inf.alternatives:
            found.update(alt.texts)
    if p.appeals is not None:
        found.update(p.appeals.texts)
    return sorted(found)


def _check_texts(base: PathT, p: RawPolicy) -> list[tuple[PathT, str]]:
    """A policy whose texts are given in a language has every text in it: each field an entry has in English (notes,
    remedy, section note, level and rule descriptions, time-rule summaries and sections, the appeal texts, the
    source) has its `texts: {lang: {field: …}}` too, so a judge never reads a page half in one language."""
    entries: list[tuple[PathT, str, Any, Mapping[str, Mapping[Any, str]], tuple[str, ...]]] = [
        (base, "the policy", p, p.texts, ("source",))
    ]
    entries += [
        ((*base, "infractions", i), f"infraction {f.code}", f, f.texts, ("notes", "remedy", "section_note"))
        for i, f in enumerate(p.infractions)
    ]
    entries += [
        ((*base, "levels", i), f"level {lv.number}", lv, lv.texts, ("description",)) for i, lv in enumerate(p.levels)
    ]
    entries += [
        ((*base, "infractions", i, "alternatives", j), f"an alternative of {f.code}", a, a.texts, ("condition",))
        for i, f in enumerate(p.infractions)
        for j, a in enumerate(f.alternatives)
    ]
    entries += [
        ((*base, "repeat_rules", i), f"repeat rule {r.id!r}", r, r.texts, ("description",))
        for i, r in enumerate(p.repeat_rules)
    ]
    entries += [
        ((*base, "time_extensions", i), f"time rule {t.reason.value!r}", t, t.texts, ("summary", "section"))
        for i, t in enumerate(p.time_extensions)
    ]
    if p.appeals is not None:
        appeal_fields = ("summary", "section", "challenge_section", "opponent_section", "proxy_section")
        entries.append(((*base, "appeals"), "the appeal rules", p.appeals, p.appeals.texts, appeal_fields))
    languages = sorted({lang for *_, texts, _f in entries for lang in texts})
    errs: list[tuple[PathT, str]] = _Problems()
    for lang in languages:
        if lang == "en":
            errs.append((base, "English is the entries' own fields: `texts` holds other languages"))
            continue
        for path, what, raw, texts, fields in entries:
            given = texts.get(lang, {})
            for name in fields:
                if (getattr(raw, name, "") or "").strip() and name not in given:
                    why = f"{what} has no {lang!r} {name}: the policy gives texts in {lang!r}, so every text needs one"
                    errs.append(((*path, "texts", lang), why))
            for name in given:
                if not (getattr(raw, name, "") or "").strip():
                    errs.append(((*path, "texts", lang, name), f"{what} has no English {name} to translate"))
    return errs


def _check_names(base: PathT, p: RawPolicy) -> list[tuple[PathT, str]]:
    """A policy named in a language besides English is named in it throughout: the policy itself, every rank, level,
    sub-section and infraction, with a `name_sources` entry saying where the names come from. A reading is given
    only with a name in its language."""
    entries: list[tuple[PathT, str, dict[str, str]]] = [(base, "the policy", p.names)]
    entries += [((*base, "ranks", i), f"rank {r.id!r}", r.names) for i, r in enumerate(p.ranks)]
    entries += [((*base, "levels", i), f"level {lv.number}", lv.names) for i, lv in enumerate(p.levels)]
    entries += [((*base, "subsections", i), f"sub-section {s.code}", s.names) for i, s in enumerate(p.subsections)]
    entries += [((*base, "infractions", i), f"infraction {f.code}", f.names) for i, f in enumerate(p.infractions)]
    rules = [((*base, "repeat_rules", i), f"repeat rule {r.id!r}", r) for i, r in enumerate(p.repeat_rules)]
    languages = sorted(
        {lang for *_, names in entries for lang in names}
        | set(p.name_sources)
        | {lang for *_, r in rules for lang in [*r.names, *r.sections]}
    )
    errs: list[tuple[PathT, str]] = _Problems()
    if "en" in languages:
        errs.append((base, "English is the entries' own `name`: `names` and `name_sources` hold other languages"))
        languages.remove("en")
    for lang in languages:
        for path, what, names in entries:
            if lang not in names:
                errs.append(
                    (
                        (*path, "names"),
                        f"{what} has no {lang!r} name: a policy named in {lang!r} needs it for the policy, every "
                        "rank, level, sub-section and infraction",
                    )
                )
        for path, what, rule in rules:
            if lang not in rule.sections:
                errs.append(((*path, "sections"), f"{what} has no {lang!r} section: give `sections: {{{lang}: …}}`"))
            if rule.name and lang not in rule.names:
                errs.append(((*path, "names"), f"{what} has no {lang!r} name for its name {rule.name!r}"))
        if lang not in p.name_sources:
            errs.append(((*base, "name_sources"), f"say where the {lang!r} names come from (name_sources.{lang})"))
    for i, inf in enumerate(p.infractions):
        for lang in inf.readings:
            if lang not in inf.names:
                errs.append(((*base, "infractions", i, "readings", lang), f"a reading without a {lang!r} name"))
    return errs


# ---- building ----------------------------------------------------------------------------


def _build_policy(pid: str, p: RawPolicy) -> Policy:
    ranks = tuple(Rank(r.id, r.name, i, _names(r.names)) for i, r in enumerate(p.ranks))
    by_id = {r.id: r for r in ranks}

    def rng(raw: RawRange) -> PenaltyRange:
        return PenaltyRange(by_id[raw.min], by_id[raw.max])

    number_of_key = {_level_key(lv): lv.number for lv in p.levels}

    def numbers(refs: list[int | str]) -> list[int]:
        return [n for n in (_level_number(p, r) for r in refs) if n is not None]

    infractions = tuple(
        Infraction(
            code=i.code,
            severity=i.severity or "",
            late_rows=tuple(
                LateRow(row.from_, {number_of_key[k]: rng(v) for k, v in row.defaults.items()})
                for row in i.minutes_late
            ),
            name=i.name,
            subsection=i.subsection,
            notes=i.notes.strip(),
            remedy=i.remedy.strip(),
            defaults=None if i.defaults is None else {number_of_key[k]: rng(v) for k, v in i.defaults.items()},
            penalized=i.penalized,
            repeat_any_action=i.repeat_any_action,
            alternatives=tuple(
                Alternative(a.condition, tuple(numbers(a.levels)), rng(a.penalty), _texts(a.texts))
                for a in i.alternatives
            ),
            section_note=i.section_note,
            repeats=i.repeats,
            repeat_rules=None if i.repeat_rules is None else tuple(i.repeat_rules),
            synonyms=tuple(i.synonyms),
            head_judge_only=i.head_judge_only,
            names=_names(i.names, i.readings),
            texts=_texts(i.texts),
            phrases=tuple(
                Phrases(lang, " ".join(b.source.split()), tuple(b.words))
                for lang, blocks in i.phrases.items()
                for b in blocks
            ),
        )
        for i in p.infractions
    )
    return Policy(
        id=pid,
        name=p.name,
        names=_names(p.names),
        texts=_texts(p.texts),
        name_sources=tuple(sorted((lang, " ".join(text.split())) for lang, text in p.name_sources.items())),
        version=p.version,
        source=p.source,
        repeat_rules=tuple(
            RepeatRule(
                id=r.id,
                name=r.name,
                counts=r.counts,
                window=r.window,
                from_count=r.from_count,
                result=r.result,
                section=r.section,
                description=" ".join(r.description.split()),
                steps=r.steps,
                above_highest_prior=r.above == "highest_prior",
                above_last_given=r.above == "last_given",
                offered=r.offered,
                rank=by_id[r.rank] if r.rank else None,
                ladder=tuple(by_id[x] for x in r.ladder),
                cap=by_id[r.cap] if r.cap else None,
                range_to=by_id[r.range_to] if r.range_to else None,
                range_to_by=r.range_to_by,
                group=frozenset(r.group),
                applies_to=frozenset(r.applies_to),
                prior_ranks=frozenset(r.prior_ranks),
                upgrades=frozenset(r.upgrades),
                levels=frozenset(numbers(r.levels)),
                names=_names(r.names),
                sections=_names(r.sections),
                texts=_texts(r.texts),
            )
            for r in p.repeat_rules
        ),
        ranks=ranks,
        levels=tuple(
            sorted(
                (
                    Level(lv.number, lv.name, lv.description.strip(), lv.id or "", _names(lv.names), _texts(lv.texts))
                    for lv in p.levels
                ),
                key=lambda lv: lv.number,
            )
        ),
        head_judge_only=frozenset(p.head_judge_only),
        report_to_head_judge=frozenset(p.report_to_head_judge),
        subsections=tuple(Subsection(s.code, s.name, _names(s.names)) for s in p.subsections),
        infractions=infractions,
        time_rules=tuple(
            TimeRule(
                t.reason,
                t.over_minutes,
                t.plus_minutes,
                t.extra_turns_allowed,
                t.section,
                t.summary.strip(),
                t.announce_before_result,
                _texts(t.texts),
            )
            for t in p.time_extensions
        ),
        appeals=_build_appeals(p.appeals),
        related_errors=(
            RelatedErrors(p.related_errors.section, " ".join(p.related_errors.summary.split()))
            if p.related_errors
            else None
        ),
        unnamed_penalties=(
            UnnamedPenalties(p.unnamed_penalties.section, " ".join(p.unnamed_penalties.summary.split()))
            if p.unnamed_penalties
            else None
        ),
        confirmations=tuple(
            Confirmation(
                ranks=frozenset(c.ranks),
                by=c.by,
                section=c.section,
                levels=frozenset(numbers(c.levels)),
                exceptions=frozenset(c.exceptions),
                judges=c.judges,
                off_default=c.off_default,
            )
            for c in p.confirm
        ),
        time_cap=(
            TimeCap(p.time_cap.minutes, p.time_cap.section, frozenset(numbers(p.time_cap.levels)))
            if p.time_cap
            else None
        ),
        event_settings=(
            EventSettings(
                p.event_settings.section,
                frozenset(numbers(p.event_settings.decklist_required)),
                frozenset(numbers(p.event_settings.random_deck_checks)),
            )
            if p.event_settings
            else None
        ),
    )


def _texts(texts: Mapping[str, Mapping[Any, str]]) -> Texts:
    return Texts(
        tuple(sorted((lang, f, " ".join(t.split())) for lang, fields in texts.items() for f, t in fields.items()))
    )


def _names(names: dict[str, str], readings: dict[str, str] | None = None) -> Names:
    return Names(tuple(sorted(names.items())), tuple(sorted((readings or {}).items())))


def _build_appeals(raw: RawAppeals | None) -> AppealRules:
    """A policy without `appeals`: appeals go to the head judge, with no challenge limit and no proxy."""
    if raw is None:
        return AppealRules()
    return AppealRules(
        section=raw.section,
        summary=" ".join(raw.summary.split()),
        challenges=None if raw.challenges == "none" else raw.challenges,
        challenge_spent_by=raw.challenge_spent_by or "any_decision",
        challenge_section=raw.challenge_section,
        opponent_may_contest=raw.opponent_may_contest,
        opponent_section=raw.opponent_section,
        proxy=raw.proxy,
        proxy_section=raw.proxy_section,
        texts=_texts(raw.texts),
    )


def _pydantic_problems(exc: ValidationError) -> list[tuple[PathT, str]]:
    out = []
    for e in exc.errors():
        loc = tuple(part for part in e["loc"] if not (isinstance(part, str) and part.startswith("function-")))
        value = e.get("input")
        shown = f" (got {value!r})" if isinstance(value, (str, int, float, bool)) else ""
        out.append((loc, f"{e['msg']}{shown}"))
    return out


def parse_catalog(text: str, path: str = "<catalog>") -> Catalog:
    """Validate catalog YAML text; raise CatalogError naming its problems (the first MAX_PROBLEMS, then a count).
    The file is bounded (`_bounded`) before anything is composed."""
    _bounded(text, path)
    loader = _Loader(text)  # the safe loader (C parser when present), as yaml.safe_load uses
    try:
        # One parse gives both the nodes (for line numbers and duplicate keys) and the data.
        root = loader.get_single_node()
        data = loader.construct_document(root) if root is not None else None
    except yaml.YAMLError as exc:
        raise _yaml_refusal(path, exc) from None
    finally:
        loader.dispose()

    problems = _Problems()
    _duplicate_keys(root, problems)
    raw = None
    if not isinstance(data, dict):
        problems.append(((), "the file must be a mapping with a top-level `policies` key"))
    else:
        try:
            raw = RawCatalog.model_validate(data)
        except ValidationError as exc:
            problems += _pydantic_problems(exc)
    if raw is not None:
        for pid, policy in raw.policies.items():
            problems += _check_policy(pid, policy)
    if problems:
        lines = []
        for p, msg, *known_line in problems:
            line = known_line[0] if known_line else _line_of(root, p)
            where = f"{path}:{line}" if line else path
            lines.append(f"{where}: {_fmt_path(p) or '(top level)'}: {msg}")
        if problems.more:
            lines.append(_more_line(problems.more))
        raise CatalogError(path, lines)
    assert raw is not None
    return Catalog(path=path, policies={pid: _build_policy(pid, p) for pid, p in raw.policies.items()})


def load_catalog(path: str | Path) -> Catalog:
    """Read and validate the catalog file at `path`."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as exc:
        raise CatalogError(str(p), [f"{p}: cannot read the catalog: {exc.strerror}"]) from None
    except UnicodeDecodeError as exc:
        raise CatalogError(str(p), [f"{p}: not UTF-8 text: {exc.reason} at byte {exc.start}"]) from None
    return parse_catalog(text, str(p))
