"""Disney Lorcana TCG Play Correction Guidelines (effective 5/21/2024) with the levels of the Tournament Rules
(effective 07/14/2026, 1.2), as the `lorcana` policy.

The tables are typed from the text, not read back from the catalog: every numbered infraction of sections 2-4 with
its Casual and Competitive corrective action (Entry-level takes the Casual column; Competitive and Premier Play the
Competitive one), tardiness at each minutes-late column of 3.1 and just below it, and the upgrades at the head of
sections 2, 3 and 4 at their threshold and just below, counting Warnings of one category only (Cautions are never
tracked, 1.1) and upgrading only a Warning being given.
"""

import pytest

from judgeapp.infractions import Prior, load_catalog, suggest
from judgeapp.reference.services import found
from tests.conftest import CATALOG

C, W, GL, ML, DQ = "caution", "warning", "game_loss", "match_loss", "disqualification"
ENTRY, COMPETITIVE, PREMIER = "entry-level", "competitive", "premier-play"
LEVELS = (ENTRY, COMPETITIVE, PREMIER)

# code: (Casual, Competitive) as the text's "Corrective Action" line gives them
SOURCE = {
    "2.1": (C, C),
    "2.2": (C, W),
    "2.3": (C, W),
    "2.4": (C, W),
    "3.1": (C, W),  # 0-2 minutes; the other columns below
    "3.2": (C, W),
    "3.3": (W, W),
    "3.4": (GL, GL),
    "3.5": (C, W),
    "3.6": (C, W),
    "3.7": (W, W),
    "3.8": (GL, ML),
    "4.1": (W, W),
    "4.2": (ML, ML),
    "4.3": (DQ, DQ),
    "4.4": (DQ, DQ),
    "4.5": (ML, DQ),
    "4.6": (ML, DQ),
}
COLUMN = {ENTRY: 0, COMPETITIVE: 1, PREMIER: 1}

# (minutes late, Casual, Competitive): the columns 0-2, 3-9, 10 or more of 3.1, each at its edge
TARDINESS = [(0, C, W), (2, C, W), (3, W, GL), (9, W, GL), (10, ML, ML), (25, ML, ML)]

# (section, code, earlier penalties, level, suggested, rule or None)
REPEATS = [
    ("2", "2.3", [("2.3", W), ("2.3", W)], COMPETITIVE, GL, "rule-error-third-warning"),
    ("2", "2.3", [("2.3", W)], COMPETITIVE, W, None),
    ("2", "2.4", [("2.4", W), ("2.3", W)], PREMIER, W, None),  # another category does not add up
    ("2", "2.2", [("2.2", W), ("2.2", C), ("2.2", W)], COMPETITIVE, GL, "rule-error-third-warning"),
    ("2", "2.2", [("2.2", W), ("2.2", C)], COMPETITIVE, W, None),  # a Caution is not tracked
    ("3", "3.2", [("3.2", W)], COMPETITIVE, GL, "tournament-error-second-warning"),
    ("3", "3.2", [], COMPETITIVE, W, None),
    ("3", "3.3", [("3.3", W)], ENTRY, GL, "tournament-error-second-warning"),
    ("3", "3.3", [("3.6", W)], ENTRY, W, None),
    ("3", "3.2", [("3.2", W)], ENTRY, C, None),  # a Caution being given is not "the second Warning"
    ("4", "4.1", [("4.1", W)], PREMIER, GL, "unsporting-second-warning"),
    ("4", "4.1", [], PREMIER, W, None),
]


@pytest.fixture(scope="module")
def policy():
    return load_catalog(CATALOG).policy("lorcana")


def answer(policy, level, code, *priors, minutes_late=None):
    earlier = [Prior(c, r, ref=n, round=n) for n, (c, r) in enumerate(priors, start=1)]
    return suggest(policy, policy.level(level).number, code, earlier, minutes_late=minutes_late)


def test_catalog_lists_exactly_the_numbered_infractions_of_sections_2_to_4(policy):
    assert {i.code for i in policy.infractions} == set(SOURCE)
    assert [s.code for s in policy.subsections] == ["2", "3", "4"]
    assert all(i.subsection == i.code.split(".")[0] for i in policy.infractions)


def test_ranks_are_the_five_corrective_actions_of_1_1_and_levels_those_of_tournament_rules_1_2(policy):
    assert [r.id for r in policy.ranks] == [C, W, GL, ML, DQ]
    assert [(lv.number, lv.id, lv.name) for lv in policy.levels] == [
        (1, ENTRY, "Entry-level"),
        (2, COMPETITIVE, "Competitive"),
        (3, PREMIER, "Premier Play"),
    ]
    assert policy.version == "2024-05-21" and "Effective 5/21/2024" in policy.source


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("code", sorted(SOURCE, key=lambda c: [int(x) for x in c.split(".")]))
def test_corrective_action_is_the_casual_column_at_entry_level_and_the_competitive_one_above(policy, code, level):
    s = answer(policy, level, code)
    assert (s.suggested.id, s.upgraded) == (SOURCE[code][COLUMN[level]], False), f"{code} at {level}"


@pytest.mark.parametrize("minutes, casual, competitive", TARDINESS, ids=[f"3.1 {m} min" for m, _, _ in TARDINESS])
def test_tardiness_follows_the_minutes_late_table_of_3_1(policy, minutes, casual, competitive):
    assert answer(policy, ENTRY, "3.1", minutes_late=minutes).suggested.id == casual
    assert answer(policy, COMPETITIVE, "3.1", minutes_late=minutes).suggested.id == competitive
    assert answer(policy, PREMIER, "3.1", minutes_late=minutes).suggested.id == competitive


@pytest.mark.parametrize(
    "section, code, priors, level, rank, rule",
    REPEATS,
    ids=[f"section {r[0]} {r[1]} after {len(r[2])} at {r[3]}" for r in REPEATS],
)
def test_warnings_in_one_category_upgrade_at_the_threshold_of_their_section(
    policy, section, code, priors, level, rank, rule
):
    s = answer(policy, level, code, *priors)
    assert s.suggested.id == rank
    assert (s.rule.id if s.rule else None) == rule
    if rule:
        assert s.rule.section == section


def test_the_missed_trigger_warning_is_an_alternative_at_competitive_only_2_1(policy):
    inf = policy.infraction("2.1")
    assert [a.penalty.min.id for a in inf.alternatives_at(policy.level(COMPETITIVE).number)] == [W]
    assert inf.alternatives_at(policy.level(ENTRY).number) == ()


def test_easily_abused_marked_cards_may_be_a_game_loss_at_competitive_only_3_7(policy):
    inf = policy.infraction("3.7")
    assert [a.penalty.min.id for a in inf.alternatives_at(policy.level(PREMIER).number)] == [GL]
    assert inf.alternatives_at(policy.level(ENTRY).number) == ()


def test_no_corrective_action_needs_a_confirmation_and_none_is_reserved(policy):
    assert policy.confirmations == () and not policy.head_judge_only
    assert answer(policy, PREMIER, "4.4").confirmation is None


# (section, what a judge types for an act the text names, the infraction the text files it under) — the review of issue
# 35 found the rows from 'wrong table' on unfindable
JUDGES_WORDS = [
    ("2.1", "missed trigger", "2.1"),
    ("2.3", "drew an extra card", "2.3"),
    ("3.5", "passed the pack the wrong way", "3.5"),
    ("4.6", "bet", "4.6"),
    ("3.1", "wrong table", "3.1"),  # Tardiness: sits at the incorrect table and plays the wrong opponent
    ("3.3", "more than 4 copies", "3.3"),  # Minor: more than 4 copies of a card, caught by the player
    ("3.6", "wrong strength announced", "3.6"),  # does not announce the correct Strength
    ("4.1", "swearing", "4.1"),  # vulgar or profane language
    ("4.5", "bribery", "4.5"),  # an incentive offered for a concession, or to a judge
    ("3.8", "coaching", "3.8"),  # a player asks a spectator whether a card is the right play
    ("3.8", "asked a friend for advice", "3.8"),
    ("3.3", "deck and list don't match", "3.3"),  # Minor: deck and deck list both legal but don't match
    ("4.2", "complained loudly about the opponent", "4.2"),  # Major: loudly complains about their opponent
    ("4.3", "stole", "4.3"),  # Severe: theft of any materials
    ("4.4", "drew an extra card and didn't call a judge", "4.4"),  # Cheating: realizes they drew one, fails to call
]


@pytest.mark.parametrize(("section", "words", "code"), JUDGES_WORDS)
def test_the_quick_reference_finds_an_infraction_by_the_judges_words_for_the_act(policy, section, words, code):
    assert code in [i.code for i in found(policy, words)][:3], section
