"""Issue 35's review: the cases a judge would pose from the texts of the three shipped policies, each run through
`flask penalty suggest` as the team's hold-back cases will be.

Each row is a situation as a judge meets it (the section of the text that decides it, the level, the infraction as the
judge names it, the player's earlier penalties at this event as CODE:RANK, and for tardiness the minutes late) with
the penalty the text gives, and where the text says so who must confirm it, what is offered as the judge's call,
and whether only the head judge may give it. Typed from the texts, not read back from the catalog:
- yugioh: Official KDE-E Tournament Infractions and Penalties Policy v2.2 (in effect 6 March 2023), III-IV;
- pokemon: Play! Pokémon Penalty Guidelines, last revision January 1, 2026, 3-5 (TCG rows);
- lorcana: Disney Lorcana TCG Play Correction Guidelines (effective 5/21/2024), 1-4, with the levels of the
  Tournament Rules (effective 07/14/2026) 1.2.
The rows that first disagreed with the catalog are in each policy's own test (test_policy_<id>.py).
"""

import json
from pathlib import Path

import pytest

from judgeapp import create_app
from tests.conftest import app_config

C, W, DPC, QPC, GL, ML, DQ = (
    "caution",
    "warning",
    "double_prize_card",
    "quadruple_prize_card",
    "game_loss",
    "match_loss",
    "disqualification",
)
HJ, HJ_OR_AHJ, JUDGES = "head_judge", "head_judge_or_assistant", "judges"

# (section, the case, level, infraction, earlier penalties, the penalty the text gives, {minutes, confirm, offered,
# hjo})
YUGIOH = [
    ("IV.B.1", "field center not agreed, first time, Regional", "tier-2", "PE-minor", [], W, {"confirm": None}),
    (
        "III.E",
        "life points not on paper, day 2 of a YCS after a Warning day 1",
        "tier-3",
        "PE-minor",
        ["PE-minor:warning"],
        GL,
        {"confirm": HJ},
    ),
    (
        "III.E",
        "PE-minor a 3rd time after W then GL",
        "tier-2",
        "PE-minor",
        ["PE-minor:warning", "PE-minor:game_loss"],
        ML,
        {"confirm": HJ},
    ),
    (
        "III.E",
        "PE-minor after a GL actually given (upgraded) last time",
        "tier-2",
        "PE-minor",
        ["PE-minor:game_loss"],
        ML,
        {},
    ),
    ("IV.B.2", "hand shuffled into the deck", "tier-2", "PE-major", [], GL, {"confirm": None}),
    ("IV.B.3 / III.C", "deck soaked by a drink, cannot finish", "tier-2", "PE-strict", [], ML, {"confirm": HJ}),
    ("IV.C.1", "not seated at 3 minutes", "tier-2", "T-major", [], GL, {"confirm": None}),
    (
        "IV.C",
        "late again after a T-major GL: never upgraded",
        "tier-2",
        "T-major",
        ["T-major:game_loss"],
        GL,
        {"confirm": None},
    ),
    (
        "IV.C.2 / III.C",
        "not seated at 10 minutes: floor judge gives ML alone",
        "tier-3",
        "T-strict",
        [],
        ML,
        {"confirm": None},
    ),
    ("IV.C", "T-strict again: never upgraded", "tier-3", "T-strict", ["T-strict:match_loss"], ML, {"confirm": None}),
    ("IV.C.1", "sealed deck not registered in time", "tier-1", "T-major", [], GL, {}),
    ("IV.D.1", "two copies of a Limited card reported before round 1", "tier-1", "DE-minor", [], W, {}),
    ("IV.D.1", "unreadable handwriting on the list, Tier 2", "tier-2", "DE-minor", [], W, {}),
    ("IV.D.2", "39-card deck found at deck check", "tier-2", "DE-major", [], GL, {"confirm": None}),
    ("III.E", "DE-major a second time", "tier-2", "DE-major", ["DE-major:game_loss"], ML, {"confirm": HJ}),
    ("IV.E.1", "knocked cards off the top of the deck", "tier-2", "DC-minor", [], W, {}),
    ("IV.E.2", "searched card added unseen", "tier-3", "DC-major", [], GL, {}),
    ("IV.F.1", "two worn sleeves, no pattern", "tier-2", "MC-minor", [], W, {}),
    ("IV.F.2", "worn corners on 8 of 12 spells, HJ finds insignificant", "tier-2", "MC-major", [], GL, {"hjo": True}),
    ("IV.F.3", "warped side deck near the end of round", "tier-3", "MC-strict", [], ML, {"confirm": HJ, "hjo": True}),
    (
        "III.D",
        "second MC-strict in the last Swiss round",
        "tier-3",
        "MC-strict",
        ["MC-strict:match_loss"],
        DQ,
        {"hjo": True},
    ),
    ("III.E", "slow play again at a Regional", "tier-2", "SP", ["SP:warning"], GL, {"confirm": HJ}),
    ("IV.G.1", "slow play a third time: SP-Strict", "tier-2", "SP", ["SP:warning", "SP:game_loss"], ML, {}),
    ("III.E", "slow play second time at a Tier 1: HJ's call", "tier-1", "SP", ["SP:warning"], W, {"offered": [GL]}),
    (
        "III.E",
        "slow play third time at Tier 1, HJ declined before",
        "tier-1",
        "SP",
        ["SP:warning", "SP:warning"],
        GL,
        {},
    ),
    ("IV.H.1", "trash left on the table", "tier-2", "UC-minor", [], W, {}),
    (
        "III.D",
        "third UC-major in the final playoff",
        "tier-4",
        "UC-major",
        ["UC-major:game_loss", "UC-major:match_loss"],
        DQ,
        {"hjo": True},
    ),
    ("IV.H.3", "threat to a player", "tier-1", "UC-severe", [], DQ, {"hjo": True}),
    ("IV.H.4", "die rolled for the match", "tier-2", "UC-cheating", [], DQ, {"hjo": True}),
    (
        "III.E",
        "different infraction before: no upgrade",
        "tier-2",
        "PE-minor",
        ["UC-minor:warning"],
        W,
        {"confirm": None},
    ),
    ("III.E", "DE-minor again after a Warning", "tier-2", "DE-minor", ["DE-minor:warning"], GL, {}),
]

POKEMON = [
    ("5.1.1 1a", "walked into the staff-only area", "league", "5.1.1-minor", [], C, {"confirm": None}),
    (
        "5.1.1 1b",
        "left without signing the slip, called back at once",
        "regional-championships",
        "5.1.1-minor",
        [],
        C,
        {},
    ),
    ("5.1.1 2a", "left without signing, staff had to find them", "league", "5.1.1-major", [], W, {"confirm": None}),
    ("5.1.1 2d", "no Special Condition markers", "regional-championships", "5.1.1-major", [], W, {}),
    (
        "5.1.1 3a",
        "damaged provided equipment in anger",
        "regional-championships",
        "5.1.1-severe",
        [],
        GL,
        {"confirm": HJ_OR_AHJ},
    ),
    ("5.2.1 1a", "3 minutes late", "league", "5.2.1", [], W, {"minutes": 3}),
    ("5.2.1", "4 minutes late (just below Major)", "regional-championships", "5.2.1", [], W, {"minutes": 4}),
    ("5.2.1 2a", "5 minutes late", "regional-championships", "5.2.1", [], GL, {"minutes": 5, "confirm": HJ_OR_AHJ}),
    ("5.2.1 2a", "10 minutes late", "league", "5.2.1", [], GL, {"minutes": 10}),
    ("5.2.1 3", "12 minutes late", "regional-championships", "5.2.1", [], ML, {"minutes": 12, "confirm": HJ_OR_AHJ}),
    ("5.3.1 1a", "mild swearing", "league", "5.3.1-minor", [], W, {}),
    (
        "5.3.1 2a",
        "tried to intimidate the opponent",
        "regional-championships",
        "5.3.1-major",
        [],
        ML,
        {"confirm": HJ_OR_AHJ},
    ),
    ("5.3.1 2c", "refused to sign the match slip", "league", "5.3.1-major", [], ML, {}),
    (
        "5.3.1 3d / 4.1",
        "lied to staff during an investigation, Regionals",
        "regional-championships",
        "5.3.1-severe",
        [],
        DQ,
        {"confirm": JUDGES},
    ),
    (
        "5.3.1 3f / 4.1 / 6.2",  # 4.1 names the HJ or an AHJ; the disqualification and its report are the HJ's (6.2)
        "rolled a die for the match at a League Cup",
        "league",
        "5.3.1-severe",
        [],
        DQ,
        {"confirm": HJ},
    ),
    ("5.4 / 4.1", "moved damage counters, Regionals", "regional-championships", "5.4", [], DQ, {"confirm": JUDGES}),
    ("5.4", "cheating again: no escalation offered", "league", "5.4", ["5.4:disqualification"], DQ, {"offered": []}),
    ("5.5.1 1a", "card into hand without revealing", "league", "5.5.1-minor", [], W, {"confirm": None}),
    ("5.5.1 2a", "drew an extra card", "regional-championships", "5.5.1-major", [], DPC, {"confirm": HJ_OR_AHJ}),
    ("5.5.1 2b", "took a Prize card without a KO", "league", "5.5.1-major", [], DPC, {}),
    ("5.5.1 3c", "no Prizes set up, found after 3 searches", "regional-championships", "5.5.1-severe", [], GL, {}),
    ("5.5.1 3a", "shuffled hand into deck", "league", "5.5.1-severe", [], GL, {}),
    (
        "4.2.2",
        "second minor gameplay error: starting penalty, one step offered",
        "league",
        "5.5.1-minor",
        ["5.5.1-minor:warning"],
        W,
        {"offered": [DPC]},
    ),
    ("5.6.1 1a", "sleeve wear, no pattern", "league", "5.6.1-minor", [], W, {}),
    ("5.6.1 2a", "deck list not 60 cards", "regional-championships", "5.6.1-major", [], GL, {"confirm": HJ_OR_AHJ}),
    ("5.6.1 3a", "cards intentionally marked", "regional-championships", "5.6.1-severe", [], DQ, {"confirm": JUDGES}),
    ("5.7 1a", "repeated deck searching", "league", "5.7-minor", [], W, {}),
    ("5.7 2b", "slow again after a pace Warning: severe row", "league", "5.7-severe", [], DPC, {}),
    # one step up from a Warning is a DPC: 3.3 gives it "when a Warning has been given and a QPC would be too harsh"
    (
        "4.2.2 / 3.3",
        "late again: minutes still pick the start",
        "league",
        "5.2.1",
        ["5.2.1:warning"],
        W,
        {"minutes": 2, "offered": [DPC]},
    ),
    ("4.2.2", "first infraction: nothing offered", "league", "5.1.1-major", [], W, {"offered": []}),
]

LORCANA = [
    ("2.1", "missed Doc's cost reduction, Set Championship", "competitive", "2.1", [], C, {"confirm": None}),
    ("2.1", "missed trigger at a prerelease", "entry-level", "2.1", [], C, {}),
    ("2.2", "flipped an inkwell card, prerelease", "entry-level", "2.2", [], C, {}),
    ("2.2", "knocked off the top card, Challenge", "premier-play", "2.2", [], W, {}),
    ("2.3", "drew 2 instead of 1, competitive", "competitive", "2.3", [], W, {}),
    ("2", "third Card Count Warning", "competitive", "2.3", ["2.3:warning", "2.3:warning"], GL, {}),
    ("2", "second Card Count Warning: below threshold", "competitive", "2.3", ["2.3:warning"], W, {}),
    (
        "2",
        "two Card Count Warnings then a General Rule Error",
        "competitive",
        "2.4",
        ["2.3:warning", "2.3:warning"],
        W,
        {},
    ),
    (
        "1.1 / 2",
        "Cautions never count (entry-level cautions then a competitive-ish warning)",
        "competitive",
        "2.4",
        ["2.4:caution", "2.4:caution"],
        W,
        {},
    ),
    ("2.4", "quested with a Reckless character at a prerelease", "entry-level", "2.4", [], C, {}),
    ("3.1", "2 minutes late, competitive", "competitive", "3.1", [], W, {"minutes": 2}),
    ("3.1", "3 minutes late, competitive", "competitive", "3.1", [], GL, {"minutes": 3}),
    ("3.1", "3 minutes late, prerelease", "entry-level", "3.1", [], W, {"minutes": 3}),
    ("3.1", "9 minutes late, Challenge", "premier-play", "3.1", [], GL, {"minutes": 9}),
    ("3.1", "10 minutes late, prerelease", "entry-level", "3.1", [], ML, {"minutes": 10}),
    ("3.1", "1 minute late at a prerelease", "entry-level", "3.1", [], C, {"minutes": 1}),
    (
        "3",
        "late twice at competitive (both 0-2 min): second Warning is a GL",
        "competitive",
        "3.1",
        ["3.1:warning"],
        GL,
        {"minutes": 1},
    ),
    ("3", "slow play after a tardiness Warning: other category", "competitive", "3.2", ["3.1:warning"], W, {}),
    ("3", "second slow play Warning", "competitive", "3.2", ["3.2:warning"], GL, {}),
    ("3.3", "59-card deck, card in deck box", "entry-level", "3.3", [], W, {}),
    ("3", "second Deck/Registration Minor", "entry-level", "3.3", ["3.3:warning"], GL, {}),
    ("3.4", "three inks in the deck", "competitive", "3.4", [], GL, {}),
    ("3.5", "passed the pack the wrong way, prerelease draft", "entry-level", "3.5", [], C, {}),
    ("3.6", "wrong Strength announced", "competitive", "3.6", [], W, {}),
    ("3.7", "three marked sleeves", "premier-play", "3.7", [], W, {}),
    ("3", "second Marked Cards Warning at a prerelease", "entry-level", "3.7", ["3.7:warning"], GL, {}),
    ("3.8", "asked a spectator for advice, competitive", "competitive", "3.8", [], ML, {}),
    ("3.8", "asked a spectator for advice, prerelease", "entry-level", "3.8", [], GL, {}),
    ("4.1", "profanity", "competitive", "4.1", [], W, {}),
    ("4", "second Unsporting Minor Warning", "entry-level", "4.1", ["4.1:warning"], GL, {}),
    ("4.2", "ignored an official's instruction", "entry-level", "4.2", [], ML, {}),
    ("4.3", "slur", "entry-level", "4.3", [], DQ, {}),
    ("4.4", "saw a misplay and said nothing", "competitive", "4.4", [], DQ, {}),
    ("4.5", "dice for 2-0 or draw at a prerelease", "entry-level", "4.5", [], ML, {}),
    ("4.5", "promo card for a concession, Challenge", "premier-play", "4.5", [], DQ, {}),
    ("4.6", "bet on the Top 8, competitive", "competitive", "4.6", [], DQ, {}),
    ("4.6", "bet at a prerelease", "entry-level", "4.6", [], ML, {}),
]

CASES = [
    pytest.param(policy, *row, id=f"{policy}: {row[1]}")
    for policy, rows in (("yugioh", YUGIOH), ("pokemon", POKEMON), ("lorcana", LORCANA))
    for row in rows
]


@pytest.fixture(scope="module")
def cli(tmp_path_factory):
    app = create_app(app_config(Path(tmp_path_factory.mktemp("review"))))
    runner = app.test_cli_runner()
    return lambda *args: runner.invoke(args=["penalty", "suggest", *args])


@pytest.mark.parametrize(("policy", "section", "case", "level", "code", "priors", "penalty", "also"), CASES)
def test_a_judges_case_from_the_text_gets_the_penalty_the_text_gives(
    cli, policy, section, case, level, code, priors, penalty, also
):
    args = ["--policy", policy, "--level", level, "--infraction", code]
    for prior in priors:
        args += ["--prior", prior]
    if "minutes" in also:
        args += ["--minutes-late", str(also["minutes"])]
    result = cli(*args)
    assert result.exit_code == 0, result.output
    out = json.loads(result.output)
    assert out["suggested"] == penalty, (section, out["explanation"])
    if "confirm" in also:
        assert (out["confirm"] or {}).get("by") == also["confirm"], section
    if "offered" in also:
        assert [o["rank"] for o in out["offered"]] == also["offered"], section
    if "hjo" in also:
        assert out["head_judge_only"] is also["hjo"], section
