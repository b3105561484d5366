"""Find infractions by code or words: in English, or by the name in another language the catalog gives and its
reading in kana (hiragana or katakana, full- or half-width alike: `fold`). judgeapp/static/js/search.js is the same
on the phone (tests/shared/search_cases.json and finder_cases.json hold for both). The incident form's picker and the
quick reference both search with `rank`."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import Any

from .catalog import Infraction, Policy

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


# ---- Japanese word analysis (the same in judgeapp/static/js/search.js `pieces`): no dictionary, only the kind of each
# character. A run of Japanese script is cut where kanji, katakana and hiragana meet; a kanji run is a stem, a katakana
# run is a word, and hiragana is okurigana, particles, endings or now and then a word of its own. So 取った, 取る, 取り,
# 取って are all 取; 払ってない, 払わない, 払って are 払; 引きすぎた, 引き過ぎ and 引きすぎ are 引 + すぎ; and
# 山札から多めに取った is 山札, 多, 取. A field's text is cut the same way (`_fields`), so a query's pieces meet the
# infraction's by the same stems.

# particles and the like that end a word in hiragana (longest first where one starts another)
JA_PARTICLES = (
    "から", "まで", "より", "ので", "のに", "けど", "を", "が", "に", "で", "は", "へ", "と", "も", "の", "や",
)  # fmt: skip
# endings of a verb written in hiragana (いじった, いじって -> いじ), longest first; not る or り, which end many a word
# written in hiragana for its katakana (しゃっふる)
JA_ENDINGS = (
    "なかった", "ちゃった", "ってない", "ていた", "ている", "てない", "ました", "ません", "ってた", "ってる", "ます",
    "った", "って", "いた", "いて", "んだ", "んで", "ない", "てる", "てた", "た", "て",
)  # fmt: skip
# hiragana that says little (a piece of only these is dropped)
JA_STOP = frozenset(
    [
        "こと", "もの", "ため", "よう", "とき", "ところ", "ちゃん", "さん", "くん", "ない", "ある", "いる", "する",
        "なる", "これ", "それ", "あれ", "この", "その", "あの", "ここ", "そこ", "まだ", "もう", "ずっと", "ちょっと",
        "しま",
    ]
)  # fmt: skip
SUGI = "すぎ"  # ～すぎ / ～過ぎ (too much): a piece of its own


def _ja_kind(c: int) -> str:
    if 0x3041 <= c <= 0x309F:
        return "h"
    if 0x30A0 <= c <= 0x30FF:
        return "h" if c == 0x30FC else "k"  # ー joins the run before it (see _ja_chunks)
    return "c"  # kanji and 々


def _ja_chunks(run: str) -> list[tuple[str, str]]:
    """A run of Japanese script (not yet kana-folded) cut where its script changes: ("c", kanji), ("k", katakana),
    ("h", hiragana); the long vowel mark ー stays with the run before it (katakana at the start)."""
    out: list[tuple[str, str]] = []
    for ch in run:
        c = ord(ch)
        kind = _ja_kind(c)
        if c == 0x30FC:
            kind = out[-1][0] if out else "k"
        if out and out[-1][0] == kind:
            out[-1] = (kind, out[-1][1] + ch)
        else:
            out.append((kind, ch))
    return out


def _ja_stem(word: str) -> str:
    """A hiragana word without a verb's ending, when two characters or more are left (いじった -> いじ)."""
    for end in JA_ENDINGS:
        if word.endswith(end) and len(word) - len(end) >= 2:
            return word[: -len(end)]
    return word


def _ja_hiragana(text: str, after_word: bool) -> list[str]:
    """The pieces of a hiragana chunk: cut at particles (not right after て or で: してもらった, 見てもいい are one
    verb); its first part right after a kanji (okurigana: 取った) or after a katakana word as する (ドローした) is
    dropped, but for ～すぎ; another part is a word, by its stem (`_ja_stem`), unless it says little."""
    parts, cur, i = [], "", 0
    while i < len(text):
        hit = "" if cur[-1:] in ("て", "で") else next((p for p in JA_PARTICLES if text.startswith(p, i)), "")
        if hit:
            parts.append(cur)
            cur, i = "", i + len(hit)
        else:
            cur, i = cur + text[i], i + 1
    parts.append(cur)
    out: list[str] = []
    for n, part in enumerate(parts):
        at = part.find(SUGI)
        head = part[:at] if at >= 0 else part
        if head and not (n == 0 and after_word):
            word = _ja_stem(head)
            if (len(word) >= 2 or at >= 0) and word not in JA_STOP:
                out.append(word)
        if at >= 0:
            out.append(SUGI)
    return out


def pieces(run: str) -> list[str]:
    """The content pieces of a run of Japanese script (NFKC, lower case, katakana as typed), folded: each kanji run as
    a stem (its okurigana and endings dropped), each katakana word, the hiragana words between particles by their
    stems, and すぎ for ～すぎ or ～過ぎ. Particles (を、が、に、で、から、の …) are dropped."""
    chunks = _ja_chunks(run)
    out: list[str] = []
    for n, (kind, text) in enumerate(chunks):
        nxt = chunks[n + 1][1] if n + 1 < len(chunks) else ""
        if kind == "c":
            sugi = text.endswith("過") and nxt.startswith("ぎ")
            stem_ = text[:-1] if sugi else text
            out += [stem_] if stem_ else []
            out += [SUGI] if sugi else []
        elif kind == "k":
            if len(text) >= 2:
                out.append(fold(text))
        else:
            after = chunks[n - 1][0] if n else ""
            out += _ja_hiragana(text, after == "c" or (after == "k" and text[0] in "しすさせ"))
    return out


def _normal(text: str) -> str:
    """Text as typed, made comparable but for kana: NFKC, lower case, one space between words."""
    return re.sub(r"\s+", " ", unicodedata.normalize("NFKC", text).lower()).strip()


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


def _kana_forms(a: str, b: str) -> bool:
    """Two pieces of kana that are forms of one word written in kana: one is the other and a character more
    (めく of めくった, and めくる; いじ, いじる), or they differ only in a last る, り, れ or っ (めくる, めくり); two
    characters or more shared, no kanji."""
    if len(a) < len(b):
        a, b = b, a
    if len(b) < 2 or any(_ja_kind(ord(c)) == "c" for c in b):
        return False
    if len(a) == len(b) + 1:
        return a[:-1] == b
    return len(a) == len(b) >= 3 and a[:-1] == b[:-1] and a[-1] in "るりれっ" and b[-1] in "るりれっ"


def _piece_points(piece: str, field: _Field) -> int:
    """How well a Japanese piece (`pieces`) matches a field: EXACT when the field has the same piece (the same stem:
    取 of 取った meets 取 of 取る); FORM when a piece of kana is another form of one of the field's (`_kana_forms`);
    CJK_PART when the field's text holds it (two characters or more with a kanji, three
    of kana: 山札 in 山札の上); for one kanji, PREFIX when a piece of the field starts with it (罵 of 罵った, 罵倒);
    else the better of a piece of the field it holds (対戦中 holds 対戦) and, for three characters or more, the share
    of its two-character pieces the field holds (at least half); else 0."""
    if piece in field.pieces:
        return EXACT
    kanji = any(_ja_kind(ord(c)) == "c" for c in piece)
    if not kanji and any(_kana_forms(piece, p) for p in field.pieces):
        return FORM
    if len(piece) >= (2 if kanji else 3) and piece in field.text:
        return CJK_PART
    best = 0
    if len(piece) == 1:
        return PREFIX if any(p.startswith(piece) for p in field.pieces) else 0
    for p in field.pieces:
        if len(p) >= 2 and p in piece:
            best = max(best, min(CJK_PART, 4 + len(p)))
    if len(piece) >= 3:
        total = len(piece) - 1
        found = sum(1 for i in range(total) if piece[i : i + 2] in field.text)
        if found * 2 >= total:
            best = max(best, CJK_PART * found // total)
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
    pieces: frozenset[str]  # the pieces of its runs of Japanese script (`pieces`)


def _looks_like_code(q: str) -> bool:
    return re.match(r"[a-z]{0,3}[0-9]", q) is not None and not re.search(r"\s", q)


def _fields(entry: dict[str, Any]) -> list[_Field]:
    fields = []
    for weight, text in entry["fields"]:
        folded, runs = fold(text), [t for k, t in terms(text) if k == "j"]
        words = tuple(x for k, x in terms(folded) if k == "w")
        fields.append(_Field(weight, folded, words, frozenset(p for run in runs for p in pieces(run))))
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
            pts = _piece_points(t, f) if kind == "j" else max((_word_points(t, qs, w) for w in f.words), default=0)
            if pts * f.weight > top * top_weight or (
                pts and pts * f.weight == top * top_weight and f.weight > top_weight
            ):
                top, top_weight = pts, f.weight
        out.append((top, top_weight))
    return out


def _score(
    fields: list[_Field], found: list[tuple[int, int]], rarity: list[int], joined: str, words: int
) -> tuple[int, str, bool] | None:
    """An entry's score: per matched term its rarity (fewer entries matching it, more) times (20 + points x weight),
    plus a bonus when a field is the query itself (`joined`: its words and Japanese runs, folded), or holds its
    `words` (more than one) in a run."""
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
    bonus = 0
    for f in fields:
        b = (
            300 * f.weight
            if f.text == joined
            else 150 * f.weight
            if words > 1 and f" {joined} " in f" {f.text} "
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
    typed = _normal(query or "")  # katakana as typed: the Japanese analysis tells it from hiragana
    q = fold(typed)
    if not q:
        return []
    said = [t for t in terms(typed) if t[0] != "w" or t[1] not in STOP]
    qterms = [(k, x) for k, t in said for x in ([t] if k == "w" else pieces(t))]
    joined = " ".join(fold(t) for _, t in said)
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
            s = _score(fields[index], found[index], rarity, joined, len(said))
        if s:
            hits.append((-s[0], -usage.get(entry["code"], 0), index, Hit(entry["code"], *s)))
    return [hit for *_, hit in sorted(hits, key=lambda x: x[:3])]


def finder_fields(policy: Policy, inf: Infraction) -> list[tuple[int, str]]:
    """One infraction's finder fields as (weight, text as written), in `finder_entries`' order: its names, then its
    phrases, then its notes, each text once per weight (compared folded)."""
    sub = policy.subsection(inf.subsection)
    names = [inf.name, *inf.names.search_words()]
    phrases = [w for block in inf.phrases for w in block.words]
    phrases += [*inf.synonyms, sub.name, *sub.names.search_words()]
    notes = [inf.notes, inf.remedy, *(t for _, f, t in inf.texts.texts if f in ("notes", "remedy"))]
    fields: list[tuple[int, str]] = []
    seen: set[tuple[int, str]] = set()
    for weight, texts in ((NAME, names), (PHRASE, phrases), (NOTE, notes)):
        for text in texts:
            folded = re.sub(r"\s+", " ", fold(text)).strip()
            if folded and (weight, folded) not in seen:
                seen.add((weight, folded))
                fields.append((weight, text))
    return fields


def finder_entries(policy: Policy) -> list[dict[str, Any]]:
    """What the finder searches, per infraction in catalog order (judgeapp/static/js/search.js `rank`):
    `{"code", "fields": [[weight, text], …]}`, the text in NFKC and lower case with its katakana as written
    (the Japanese analysis, `pieces`, tells katakana from hiragana; each side folds the text itself). NAME: its name
    in every language and the readings; PHRASE: the policy's phrases for it in every language, the source text's
    synonyms, its sub-section's names; NOTE: its notes and remedy in every language. Every language is searched
    whatever the page's: a Japanese judge may type an English word. The phone reads them from the policy's file
    (export.py `policy_file`, read back by `entries_of_file` and search.js `entriesOf`)."""
    return [
        {"code": inf.code, "fields": [[weight, _normal(text)] for weight, text in finder_fields(policy, inf)]}
        for inf in policy.infractions
    ]


def entries_of_file(data: dict[str, Any]) -> list[dict[str, Any]]:
    """The finder entries a policy's file (export.py `policy_file`) holds, as search.js `entriesOf` reads them."""
    out = []
    infractions, references = data["policy"]["infractions"], data["reference"]["infractions"]
    for inf, ref, groups in zip(infractions, references, data["finder"], strict=True):
        shown = [*ref["notes"].values(), *ref["remedy"].values()]  # export.py `_shown`: what a note's index names
        fields = [
            [w, _normal(shown[t] if isinstance(t, int) else t)]
            for w, group in zip((NAME, PHRASE, NOTE), groups, strict=True)
            for t in group
        ]
        out.append({"code": inf["code"], "fields": fields})
    return out


def rank(policy: Policy, query: str, usage: dict[str, int] | None = None) -> list[Hit]:
    """The policy's infractions the query finds, best first (`rank_entries` over `finder_entries`)."""
    return rank_entries(finder_entries(policy), query, usage)
