"""Write tests/shared/finder_cases.json: the finder's queries and the order of their top results, as the server's
ranker (judgeapp/infractions/search.py) gives them today. pytest (tests/unit/test_finder.py) and Node
(tests/js/search.test.mjs) both check every case, so the phone and the server cannot drift apart.

Run after changing the ranker or a policy's words, then read the diff: every changed order is a changed answer.
    .venv/bin/python scripts/finder_cases.py
"""

from __future__ import annotations

import json
import sys
import unicodedata
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from judgeapp.infractions import load_catalog  # noqa: E402
from judgeapp.infractions.search import finder_entries, pieces, rank_entries  # noqa: E402

OUT = ROOT / "tests" / "shared" / "finder_cases.json"
TOP = 3
# beyond the bench's phrases: codes, starts of codes and words, typos, width and kana forms, the examples
EXTRA = {
    ("bushiroad-afr", "en"): [
        "3.5.4",
        "3.12",
        "3.5",
        "fr4",
        "FR4.4",
        "ph",
        "pho",
        "eating",
        "Cheating",
        "shuffle",
        "Shuffling",
        "shuffled",
        "drew",
        "drawing",
        "draw",
        "drew extra card",
        "hand shuffle",
        "mulligan",
        "peek",
        "forgot",
        "stalling",
        "coaching",
        "swearing",
        "stacking",
        "missed trigger",
        "looked at extra",
        "shufle",
        "tardyness",
        "the",
        "a",
        "３．１２",
        "ＰＨＯＮＥ",
        "late",
        "marked",
        "dice",
        "3",
        "4.1",
        "improper",
        "drew 2",
        "slow",
        "sleeves",
    ],
    ("bushiroad-afr", "ja"): [
        "スロープレイ",
        "マーク",
        "ドロー",
        "暴言",
        "スリーブ",
        "引きすぎ",
        "シャッフル",
        "ｼｬｯﾌﾙ",
        "しゃっふる",
        "遅刻",
        "チコク",
        "見すぎ",
        "スマホ",
        "ｽﾏﾎ",
        "イカサマ",
        "マーキング",
        "非紳士的行為",
        "引き過ぎ",
        "ひきすぎ",
        "手札",
        # Japanese word analysis (issue 33, i33-ja): inflections to the stem, particles dropped, ～すぎ / ～過ぎ
        "相手を怒鳴りつけた",
        "山札をめくりすぎた",
        "手札を何度もシャッフルしてた",
        "デッキを切ってない",
        "勝敗を書き間違えた",
        "ストックを払わずにアタックした",
        "引き過ぎた",
        "ドローしすぎた",
        "ｽﾄｯｸ払ってなかった",
        "スマホいじってる",
        "カードを多めに引いた",
        "罵る",
        "見過ごした",
        "ちゃんと切ってない",
        "カットしてもらってない",
        "山札をめくる",
        "手札をいじった",
        # how judges say it, written by i33-ja after the words (not in the bench's lists: they were tuned on)
        "カードを2枚引いちゃった",
        "1枚余計にドローしました",
        "山札の一番上が見えてしまった",
        "めくる枚数を間違えた",
        "デッキをよく切らなかった",
        "シャッフルしないで渡した",
        "カットしてもらってない",
        "相手に怒鳴ってきた",
        "ジャッジの言うことを聞かない",
        "負けたらカードを投げつけた",
        "お金を払うから勝ちを譲って",
        "対戦中にスマホを見てた",
        "イヤホンで音楽を聴いてた",
        "相手のデッキを書き写した",
        "お菓子を食べてた",
        "10分遅れて来た",
        "時間になっても来ない",
        "違う卓に座ってた",
        "勝ち負けを間違えて報告した",
        "スコアシートを汚してしまった",
        "スコアシートが見当たらない",
        "なかなか動かない",
        "考える時間が長すぎる",
        "手札を何回もシャッフルする",
        "トリガーを処理しなかった",
        "ストックを払わずに能力を使った",
        "控え室に送り忘れた",
        "観客がプレイを教えてた",
        "わざとスリーブに印をつけた",
        "デッキにこっそりカードを足した",
        "試合の合間にカードを入れ替えた",
        "サイコロを振り直してしまった",
    ],
}

# Japanese runs and the pieces the analysis cuts them into (search.py and search.js `pieces`): one at least per rule
PIECES = [
    "取った", "取る", "取り", "取って", "払ってない", "払わない", "払って", "書いた", "書く", "罵った",
    "引きすぎ", "引き過ぎ", "引きすぎた", "見過ぎ", "見過ごした", "ひきすぎ", "ヒキスギ", "考えすぎ",
    "山札から多めに取った", "勝ち負けを逆に書いた", "デッキをシャッフルしてない", "デッキがシャッフルしてある",
    "ドローしすぎ", "スマホいじってた", "スマホをいじる", "手札をいじりすぎ", "いじった", "トリガー忘れ",
    "シャッフル不足", "しゃっふる", "ちゃんと切ってない", "遅れてきた", "うるさい", "相手にひどいことを言った",
    "対戦中にスマホ", "クライマックスだけ反ってる", "ストックの払い忘れ", "サイコロが落ちた", "々", "ー", "ーー",
    "すぎ", "を", "からまでの", "のぞいた", "わざとマーク", "カットしてもらってない", "見てもいい", "めくる",
    "めくった", "めくり", "めくれた", "いじめ",
]  # fmt: skip


def policy_words(policy) -> list[str]:
    """A word of each infraction's name, for the policies the bench has no phrases for."""
    return [inf.name.split()[0] for inf in policy.infractions] + [inf.code for inf in policy.infractions[:3]]


def main() -> None:
    catalog = load_catalog(str(ROOT / "data" / "infractions.yaml"))
    queries: dict[tuple[str, str], list[str]] = {}
    for path in sorted((ROOT / "bench" / "phrases").glob("*.tsv")):
        policy_id, lang, *_fresh = path.stem.split(".")
        rows = [line.split("\t")[0] for line in path.read_text(encoding="utf-8").splitlines()]
        queries.setdefault((policy_id, lang), []).extend(r for r in rows if r.strip() and not r.startswith("#"))
    for key, words in EXTRA.items():
        queries.setdefault(key, []).extend(words)
    for pid, policy in catalog.policies.items():
        if (pid, "en") not in queries:
            queries[(pid, "en")] = policy_words(policy)
    usage = {"3.20.2": 3, "3.20.1": 1}  # some cases with the event's usage: a tie goes to the most used
    cases = []
    for (pid, lang), words in sorted(queries.items()):
        entries = finder_entries(catalog.policy(pid))
        for query in dict.fromkeys(words):
            for use in ({}, usage) if query in ("slow", "slowplay", "スロープレイ") else ({},):
                hits = rank_entries(entries, query, use)[:TOP]
                case = {"policy": pid, "lang": lang, "query": query, "top": [h.code for h in hits]}
                if use:
                    case["usage"] = use
                if hits:
                    case["first"] = {"kind": hits[0].kind, "whole": hits[0].whole, "score": hits[0].score}
                cases.append(case)
    runs = [
        {"run": unicodedata.normalize("NFKC", r).lower(), "pieces": pieces(unicodedata.normalize("NFKC", r).lower())}
        for r in PIECES
    ]
    about = (
        "The finder's cases, shared by the server (judgeapp/infractions/search.py, tests/unit/test_finder.py) and the "
        "phone (judgeapp/static/js/search.js, tests/js/search.test.mjs): for each query of a policy, the codes of the "
        "top results in order, and the first result's kind, whole-word flag and score; and `pieces`: Japanese runs "
        "(NFKC, lower case) and the pieces the Japanese word analysis cuts them into (search.py and search.js "
        "`pieces`). Written by scripts/finder_cases.py; a changed order is a changed answer, read the diff."
    )
    OUT.write_text(
        json.dumps({"about": about, "cases": cases, "pieces": runs}, ensure_ascii=False, indent=1) + "\n",
        encoding="utf-8",
    )
    print(f"{len(cases)} cases and {len(runs)} runs written to {OUT.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
