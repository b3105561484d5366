"""Find infractions by code or words: in English, or by the name in another language the catalog gives and its
reading in kana (hiragana or katakana, full- or half-width alike: `fold`). judgeapp/static/js/search.js is the same
on the phone (tests/shared/search_cases.json and finder_cases.json hold for both). The incident form's picker and the
quick reference both search with `rank`."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import Any

from .catalog import Policy

# ァ..ヶ and the iteration marks ヽ ヾ: each is its hiragana (ぁ..ゖ, ゝ ゞ) + 0x60
_KATAKANA = frozenset([*range(0x30A1, 0x30F7), 0x30FD, 0x30FE])


def fold(text: str) -> str:
    """Text as search compares it: NFKC (full-width letters and digits and half-width katakana become the usual
    ones), lower case, and katakana as hiragana (チコク, ﾁｺｸ and ちこく are one word). Infraction search and people's
    names (judgeapp/names.py) both fold with it."""
    text = unicodedata.normalize("NFKC", text).lower()  # lower(), not casefold(): as the phone's toLowerCase()
    return "".join(chr(ord(c) - 0x60) if ord(c) in _KATAKANA else c for c in text)


# ---- The finder: ranked search over what judges say. judgeapp/static/js/search.js `rank` is the same, step by step
# (tests/shared/finder_cases.json holds for both); README, "Finding an infraction", says why it is written twice rather
# than through a search library.

NAME, PHRASE, NOTE = 4, 3, 1  # field weights: a name (any language, its reading); phrases and synonyms; notes
EXACT, FORM, PREFIX, TYPO, CJK_PART = 10, 9, 6, 5, 8  # how well a query word matches a text word
_KIND = {NAME: "name", PHRASE: "phrase", NOTE: "note"}

STOP = frozenset(
    [
        "a", "an", "the", "of", "to", "in", "on", "at", "his", "her", "their", "my", "your", "our", "and", "or", "is",
        "was", "were", "be", "been", "for", "with", "from", "he", "she", "they", "it", "its", "i", "we", "you", "by",
        "as", "that", "this", "them", "him", "me", "so", "into", "up",
    ]
)  # fmt: skip

# Irregular forms judges say, each to the word it is a form of (the small stemmer handles the regular ones).
IRREGULAR = {
    "drew": "draw", "drawn": "draw", "saw": "see", "seen": "see", "took": "take", "taken": "take", "gave": "give",
    "given": "give", "forgot": "forget", "forgotten": "forget", "lost": "lose", "left": "leave", "threw": "throw",
    "thrown": "throw", "ate": "eat", "eaten": "eat", "spoke": "speak", "spoken": "speak", "told": "tell",
    "said": "say", "found": "find", "brought": "bring", "bought": "buy", "stole": "steal", "stolen": "steal",
    "shook": "shake", "shaken": "shake", "hid": "hide", "hidden": "hide", "made": "make", "went": "go", "gone": "go",
    "got": "get", "gotten": "get", "kept": "keep", "paid": "pay", "won": "win", "bent": "bend", "dealt": "deal",
    "wrote": "write", "written": "write", "ran": "run", "sat": "sit", "swore": "swear", "sworn": "swear",
    "chose": "choose", "chosen": "choose", "fell": "fall", "fallen": "fall", "knew": "know", "known": "know",
    "began": "begin", "begun": "begin", "stuck": "stick", "held": "hold", "let": "let", "put": "put", "cut": "cut",
    "hit": "hit", "read": "read", "bet": "bet", "slept": "sleep", "spent": "spend", "sent": "send", "flung": "fling",
    "tore": "tear", "torn": "tear", "did": "do", "done": "do", "does": "do", "has": "have", "had": "have",
    "men": "man", "dice": "die", "children": "child",
}  # fmt: skip


def _is_cjk(c: int) -> bool:
    return (
        0x3040 <= c <= 0x30FF or 0x3400 <= c <= 0x4DBF or 0x4E00 <= c <= 0x9FFF or 0xF900 <= c <= 0xFAFF or c == 0x3005
    )


def _is_word_char(c: int) -> bool:
    return 0x30 <= c <= 0x39 or 0x61 <= c <= 0x7A or (0xDF <= c <= 0x24F and c not in (0xF7, 0xD7))


def terms(text: str) -> list[tuple[str, str]]:
    """Folded text -> its terms: ("w", a word of Latin letters and digits) or ("j", a run of Japanese script, ー
    included); anything else separates them, and an apostrophe inside a word is dropped (don't -> dont)."""
    out: list[tuple[str, str]] = []
    cur, kind = "", ""
    for ch in text:
        c = ord(ch)
        if c in (0x27, 0x2019) and kind == "w":
            continue
        k = "w" if _is_word_char(c) else "j" if _is_cjk(c) else ""
        if k != kind and cur:
            out.append((kind, cur))
            cur = ""
        kind = k
        if k:
            cur += ch
    if cur:
        out.append((kind, cur))
    return out


def stem(word: str) -> str:
    """The word a form is of: irregular forms by the table, then -ies/-ied, -ing, -ed, -es, -s, -ly; a final e and a
    doubled last consonant dropped (shuffle, shuffled, shuffling, shuffles -> shuffl; stopped -> stop)."""
    if word in IRREGULAR:
        return IRREGULAR[word]
    w = word
    if len(w) < 4 or any(ch.isdigit() for ch in w):
        return w
    if w.endswith(("ies", "ied")) and len(w) > 4:
        w = w[:-3] + "y"
    elif w.endswith("ing") and len(w) >= 6:
        w = w[:-3]
    elif (w.endswith("ed") and len(w) >= 5) or (w.endswith("es") and len(w) >= 5):
        w = w[:-2]
    elif w.endswith("s") and not w.endswith(("ss", "us", "is")):
        w = w[:-1]
    elif w.endswith("ly") and len(w) >= 6:
        w = w[:-2]
    if w.endswith("e") and len(w) >= 4:
        w = w[:-1]
    if len(w) >= 4 and w[-1] == w[-2] and w[-1] in "bdfgkmnprtv":
        w = w[:-1]
    return w


def one_edit(a: str, b: str) -> bool:
    """One edit apart: a letter more, less or changed, or two neighbours swapped."""
    if a == b:
        return True
    la, lb = len(a), len(b)
    if abs(la - lb) > 1:
        return False
    i = 0
    while i < la and i < lb and a[i] == b[i]:
        i += 1
    if la == lb:
        if a[i + 1 :] == b[i + 1 :]:
            return True
        return i + 1 < la and a[i] == b[i + 1] and a[i + 1] == b[i] and a[i + 2 :] == b[i + 2 :]
    return a[i + 1 :] == b[i:] if la > lb else a[i:] == b[i + 1 :]


def _word_points(q: str, qs: str, w: str) -> int:
    if q == w:
        return EXACT
    if qs == stem(w):
        return FORM
    if len(w) > len(q) and w.startswith(q):
        return PREFIX
    if len(q) >= 5 and len(w) >= 4 and one_edit(q, w):
        return TYPO
    return 0


def _cjk_points(run: str, field: _Field) -> int:
    """How well a run of Japanese script matches a field: EXACT when the field holds it whole; else the better of
    the share of its two-character pieces the field holds (at least half of them, for a run of three or more), and a
    Japanese word of the field the run holds (a judge's sentence around a phrase: スマホ見てた holds スマホ) or most of
    whose pieces it holds; else 0."""
    if run in field.text:
        return EXACT
    best = 0
    if len(run) >= 3:
        total = len(run) - 1
        found = sum(1 for i in range(total) if run[i : i + 2] in field.text)
        if found * 2 >= total:
            best = CJK_PART * found // total
    for word in field.jwords:
        if len(word) < 2:
            continue
        if word in run:
            best = max(best, min(CJK_PART, 4 + len(word)))
        elif len(word) >= 3:
            total = len(word) - 1
            found = sum(1 for i in range(total) if word[i : i + 2] in run)
            if found * 3 >= total * 2:
                best = max(best, (CJK_PART - 2) * found // total)
    return best


@dataclass(frozen=True)
class Hit:
    """One result: the infraction's code, its score (higher is better), where it matched (`code`, `code-prefix`,
    `name`, `phrase`, `note`) and whether every query word matched a whole word or its form (only such a hit may be
    selected by itself: a word's start or a typo only lists)."""

    code: str
    score: int
    kind: str
    whole: bool

    def as_json(self) -> dict[str, object]:
        return {"code": self.code, "score": self.score, "kind": self.kind, "whole": self.whole}


@dataclass(frozen=True)
class _Field:
    weight: int
    text: str
    words: tuple[str, ...]  # its words of Latin letters and digits
    jwords: tuple[str, ...]  # its runs of Japanese script


def _looks_like_code(q: str) -> bool:
    return re.match(r"[a-z]{0,3}[0-9]", q) is not None and not re.search(r"\s", q)


def _fields(entry: dict[str, Any]) -> list[_Field]:
    fields = []
    for weight, text in entry["fields"]:
        found = terms(text)
        fields.append(
            _Field(weight, text, tuple(x for k, x in found if k == "w"), tuple(x for k, x in found if k == "j"))
        )
    return fields


_LAST: list[Any] = [None, []]  # the last entries list ranked and its fields: a judge's keystrokes search one list


def _entry_fields(entries: list[dict[str, Any]]) -> list[list[_Field]]:
    """Each entry's fields with their words, worked out once for the same (unchanged) entries list."""
    if _LAST[0] is not entries:
        _LAST[:] = [entries, [_fields(e) for e in entries]]
    fields: list[list[_Field]] = _LAST[1]
    return fields


def _term_matches(fields: list[_Field], qterms: list[tuple[str, str]]) -> list[tuple[int, int]]:
    """For each query term, its best (points, weight) in the entry's fields; (0, 0) when it matches none."""
    out = []
    for kind, t in qterms:
        top = top_weight = 0
        qs = stem(t) if kind == "w" else ""
        for f in fields:
            pts = _cjk_points(t, f) if kind == "j" else max((_word_points(t, qs, w) for w in f.words), default=0)
            if pts * f.weight > top * top_weight or (
                pts and pts * f.weight == top * top_weight and f.weight > top_weight
            ):
                top, top_weight = pts, f.weight
        out.append((top, top_weight))
    return out


def _score(
    fields: list[_Field], found: list[tuple[int, int]], rarity: list[int], qterms: list[tuple[str, str]]
) -> tuple[int, str, bool] | None:
    """An entry's score: per matched term its rarity (fewer entries matching it, more) times (20 + points x weight),
    plus a bonus when a field is the query itself, or holds its words in a run."""
    total = best = best_weight = 0
    whole = True
    for (top, top_weight), r in zip(found, rarity, strict=True):
        if top:
            total += r * (20 + top * top_weight)
            if top * top_weight > best * best_weight:
                best, best_weight = top, top_weight
        if top < FORM:
            whole = False
    if not total:
        return None
    joined, bonus = " ".join(t for _, t in qterms), 0
    for f in fields:
        b = (
            300 * f.weight
            if f.text == joined
            else 150 * f.weight
            if len(qterms) > 1 and f" {joined} " in f" {f.text} "
            else 0
        )
        bonus = max(bonus, b)
    return total + bonus, _KIND[best_weight], whole


def _rarity(n: int, df: int) -> int:
    return 100 * n // (n + 3 * df)


def rank_entries(entries: list[dict[str, Any]], query: str, usage: dict[str, int] | None = None) -> list[Hit]:
    """The entries (`finder_entries`) the query finds, best first: the exact code, then the start of a code, then by
    the query's words each entry matches, how well and where (a name above a phrase above a note), a word fewer
    entries match counting for more; ties go to the most used (`usage`: code -> count at this event), then to
    catalog order. An empty query, or only little words, finds nothing."""
    usage = usage or {}
    q = re.sub(r"\s+", " ", fold(query or "").strip())
    if not q:
        return []
    qterms = [t for t in terms(q) if t[0] != "w" or t[1] not in STOP]
    code_like = _looks_like_code(q)
    if not qterms and not code_like:
        return []
    fields = _entry_fields(entries)
    found = [_term_matches(f, qterms) for f in fields]
    rarity = [_rarity(len(entries), sum(1 for m in found if m[i][0])) for i in range(len(qterms))]
    hits = []
    for index, entry in enumerate(entries):
        code = entry["code"].lower()
        s: tuple[int, str, bool] | None
        if q == code:
            s = 1000000, "code", True
        elif code_like and code.startswith(q):
            s = 500000 + (1000 if code[len(q) : len(q) + 1] == "." else 0) - len(code), "code-prefix", False
        else:
            s = _score(fields[index], found[index], rarity, qterms)
        if s:
            hits.append((-s[0], -usage.get(entry["code"], 0), index, Hit(entry["code"], *s)))
    return [hit for *_, hit in sorted(hits, key=lambda x: x[:3])]


def finder_entries(policy: Policy) -> list[dict[str, Any]]:
    """What the finder searches, per infraction in catalog order, as JSON for the phone (judgeapp/static/js/search.js
    `rank`): `{"code", "fields": [[weight, folded text], …]}`. NAME: its name in every language and the readings;
    PHRASE: the policy's phrases for it in every language, the source text's synonyms, its sub-section's names; NOTE:
    its notes and remedy in every language. Every language is searched whatever the page's: a Japanese judge may type
    an English word."""
    out = []
    for inf in policy.infractions:
        sub = policy.subsection(inf.subsection)
        names = [inf.name, *inf.names.search_words()]
        phrases = [w for block in inf.phrases for w in block.words]
        phrases += [*inf.synonyms, sub.name, *sub.names.search_words()]
        notes = [inf.notes, inf.remedy, *(t for _, f, t in inf.texts.texts if f in ("notes", "remedy"))]
        fields: list[list[Any]] = []
        seen: set[tuple[int, str]] = set()
        for weight, texts in ((NAME, names), (PHRASE, phrases), (NOTE, notes)):
            for text in texts:
                folded = re.sub(r"\s+", " ", fold(text)).strip()
                if folded and (weight, folded) not in seen:
                    seen.add((weight, folded))
                    fields.append([weight, folded])
        out.append({"code": inf.code, "fields": fields})
    return out


def rank(policy: Policy, query: str, usage: dict[str, int] | None = None) -> list[Hit]:
    """The policy's infractions the query finds, best first (`rank_entries` over `finder_entries`)."""
    return rank_entries(finder_entries(policy), query, usage)
