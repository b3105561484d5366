"""Riftbound Tournament Rules (Last Updated 7/16/2026), §700 Enforcement and Penalties, as the `riftbound` policy.

The tables are typed from the text, not read back from the catalog: every numbered error of 702-704 with its
bracketed penalty at the three Organized Play Levels (205), and every repeat rule of 702.1.b, 703.1.b and 704.1.b
with a case that reaches its threshold and one just below it. Reading used throughout: each numbered error is its
own "category", and an error whose penalty is a Warning counts each time it is committed, also when that Warning
was upgraded to a Game Loss (the text calls those upgrades of the same penalty); a category's own Game Loss or
Match Loss is not a Warning and does not count.
"""

import json
from datetime import date, timedelta

import pytest

from judgeapp.infractions import Prior, extension_owed, load_catalog, suggest
from judgeapp.infractions.engine import expected_ranks, head_judge_range
from judgeapp.infractions.search import rank
from tests.conftest import CATALOG

W, GL, ML, DQ = "warning", "game_loss", "match_loss", "disqualification"
CASUAL, COMPETITIVE, PROFESSIONAL = "casual", "competitive", "professional"
LEVELS = (CASUAL, COMPETITIVE, PROFESSIONAL)

# code: (section the penalty is stated in, default at casual, competitive, professional)
SOURCE = {
    "702.5": ("702.5", W, W, W),
    "702.6": ("702.6", W, W, W),
    "702.9": ("702.9", W, W, W),
    "702.10": ("702.10", W, W, W),
    "702.11": ("702.11", W, W, W),
    "702.12": ("702.12", W, W, W),
    "702.13": ("702.13", W, W, W),
    "702.14": ("702.14", W, W, W),
    "702.16": ("702.16", W, W, W),
    "702.17": ("702.17", W, W, W),
    "703.2": ("703.2", W, W, W),
    "703.3": ("703.3", GL, GL, GL),
    "703.4": ("703.4", W, W, W),
    "703.5": ("703.5", W, W, W),
    "703.6": ("703.6", W, W, W),
    "703.7": ("703.7", W, W, W),
    "703.8": ("703.8.a", W, W, W),  # within 2 minutes; later arrivals are alternatives
    "703.9": ("703.9.a", ML, ML, ML),  # unless refused by calling a judge
    "703.10": ("703.10", ML, ML, ML),
    "704.2": ("704.2", W, W, W),
    "704.3": ("704.3", DQ, DQ, DQ),
    "704.4": ("704.4", W, W, W),
    "704.5": ("704.5", ML, ML, ML),
    "704.6": ("704.6", DQ, DQ, DQ),
    "704.7": ("704.7", DQ, DQ, DQ),
    "704.8": ("704.8", DQ, DQ, DQ),
}
# "[ No Penalty ]" errors, and the section that makes them a Warning when missing the step helped the player
NO_PENALTY = {"702.2": "702.2.e", "702.3": None, "702.4": "702.4.b", "702.7": "702.7.c", "702.8": "702.8.b.1.a",
              "702.15": "702.15.b"}  # fmt: skip


@pytest.fixture(scope="module")
def policy():
    return load_catalog(CATALOG).policy("riftbound")


def answer(policy, level, code, *priors):
    """The engine's suggestion for `code` at `level` after earlier penalties given as (code, rank) pairs."""
    earlier = [Prior(c, r, ref=n, round=n) for n, (c, r) in enumerate(priors, start=1)]
    return suggest(policy, policy.level(level).number, code, earlier)


# ---- the catalog against the text ---------------------------------------------------------------------------


def test_catalog_lists_exactly_the_numbered_errors_of_702_to_704(policy):
    assert {i.code for i in policy.infractions} == set(SOURCE) | set(NO_PENALTY)
    assert [s.code for s in policy.subsections] == ["702", "703", "704"]
    assert all(i.subsection == i.code.split(".")[0] for i in policy.infractions)


def test_ranks_are_the_four_penalties_of_701_2_and_the_levels_are_the_opl_of_205(policy):
    assert [r.id for r in policy.ranks] == [W, GL, ML, DQ]
    assert [(lv.number, lv.id, lv.name) for lv in policy.levels] == [
        (1, CASUAL, "Casual"),
        (2, COMPETITIVE, "Competitive"),
        (3, PROFESSIONAL, "Professional"),
    ]


def test_game_loss_and_above_are_reported_to_the_head_judge_701_3_a_and_no_rank_is_reserved(policy):
    assert policy.report_to_head_judge == {GL, ML, DQ}
    assert policy.head_judge_only == frozenset()


@pytest.mark.parametrize("code", sorted(SOURCE))
@pytest.mark.parametrize("level", LEVELS)
def test_default_penalty_at_every_level_is_the_one_in_brackets(policy, code, level):
    section, *by_level = SOURCE[code]
    rng = policy.infraction(code).default_at(policy.level(level).number)
    assert (rng.min.id, rng.max.id) == (by_level[LEVELS.index(level)],) * 2, section


@pytest.mark.parametrize("code", sorted(NO_PENALTY))
def test_no_penalty_errors_carry_none_unless_the_warning_condition_applies(policy, code):
    inf = policy.infraction(code)
    assert not inf.penalized and inf.defaults is None
    s = answer(policy, COMPETITIVE, code)
    section = NO_PENALTY[code]
    if section is None:  # 702.3 has no Warning case
        assert s.suggested is None and s.explanation() == "Not an infraction: no penalty."
        assert inf.alternatives == ()
        return
    assert s.suggested is None and s.explanation().startswith("No penalty by default at Competitive; Warning when ")
    for level in LEVELS:
        (alt,) = inf.alternatives_at(policy.level(level).number)
        assert (alt.penalty.min.id, alt.penalty.max.id) == (W, W) and section in alt.condition


@pytest.mark.parametrize(
    "code, level, section, rank",
    [
        ("703.8", CASUAL, "703.8.c", ML),
        ("703.8", COMPETITIVE, "703.8.b", GL),
        ("703.8", PROFESSIONAL, "703.8.b", GL),
        ("703.8", PROFESSIONAL, "703.8.d", ML),
        ("702.13", CASUAL, "702.13.b.2.a", GL),
        ("702.13", PROFESSIONAL, "702.13.b.2.b", GL),
        ("703.4", PROFESSIONAL, "703.4.a.5.a", GL),
        ("703.4", CASUAL, "703.4.b.3)", GL),
        ("703.4", COMPETITIVE, "703.4.b.3.a", W),
        ("703.4", PROFESSIONAL, "703.4.b.4.a", W),
        ("703.9", CASUAL, "703.9.a", W),
    ],
)
def test_conditions_the_engine_cannot_know_are_alternatives_at_their_levels(policy, code, level, section, rank):
    alts = policy.infraction(code).alternatives_at(policy.level(level).number)
    assert [a.penalty.min.id for a in alts if section in a.condition] == [rank]


@pytest.mark.parametrize(
    "code, level, section",
    [
        ("703.8", CASUAL, "703.8.b"),  # 2-10 minutes late stays a Warning at low OPL
        ("703.4", CASUAL, "703.4.a.5.a"),  # extra cards in the deck box: Professional only
        ("703.4", COMPETITIVE, "703.4.a.5.a"),
        ("703.4", PROFESSIONAL, "703.4.b.3.a"),  # the champion downgrade: Casual and Competitive only
    ],
)
def test_level_bound_alternatives_are_absent_at_other_levels(policy, code, level, section):
    alts = policy.infraction(code).alternatives_at(policy.level(level).number)
    assert not [a for a in alts if section in a.condition]


def test_failure_to_maintain_game_state_is_never_upgraded_702_17_b(policy):
    assert policy.infraction("702.17").repeats.value == "never_upgraded"


def test_every_rule_cites_its_section_and_counts_over_the_whole_event(policy):
    assert {r.id: r.section for r in policy.repeat_rules} == {
        "gpe-same-category": "702.1.b.1",
        "gpe-total-competitive": "702.1.b.2",
        "gpe-total-professional": "702.1.b.3",
        "te-same-category": "703.1.b.1",
        "te-total-competitive": "703.1.b.2",
        "te-total-professional": "703.1.b.3",
        "usc-same-category": "704.1.b",
    }
    assert {r.window.value for r in policy.repeat_rules} == {"event"}


# ---- repeat rules: at the threshold and just below it -------------------------------------------------------

# (name, level, infraction, earlier penalties, suggested, rule that upgrades or None)
REPEATS = [
    # 702.1.b.1: the same exact game play error a third time, at every level
    ("702.1.b.1 third Looking at Extra Cards", CASUAL, "702.5", [("702.5", W), ("702.5", W)], GL, "gpe-same-category"),
    ("702.1.b.1 second is still a Warning", CASUAL, "702.5", [("702.5", W)], W, None),
    ("702.1.b.1 other categories do not count", CASUAL, "702.5", [("702.9", W), ("702.10", W)], W, None),
    ("702.1.b.1 at Professional too", PROFESSIONAL, "702.12", [("702.12", W), ("702.12", W)], GL, "gpe-same-category"),
    (
        "702.1.b.1 a fourth stays a Game Loss",
        COMPETITIVE,
        "702.5",
        [("702.5", W), ("702.5", W), ("702.5", GL)],
        GL,
        "gpe-same-category",
    ),
    ("702.1.b.1 except 702.17", PROFESSIONAL, "702.17", [("702.17", W), ("702.17", W)], W, None),
    # 702.1.b.2: six game play error Warnings in total at Competitive
    (
        "702.1.b.2 sixth in total",
        COMPETITIVE,
        "702.16",
        [("702.5", W), ("702.5", W), ("702.9", W), ("702.9", W), ("702.14", W)],
        GL,
        "gpe-total-competitive",
    ),
    (
        "702.1.b.2 fifth in total is below",
        COMPETITIVE,
        "702.16",
        [("702.5", W), ("702.5", W), ("702.9", W), ("702.14", W)],
        W,
        None,
    ),
    (
        "702.1.b.2 no total at Casual",
        CASUAL,
        "702.16",
        [("702.5", W), ("702.5", W), ("702.9", W), ("702.9", W), ("702.14", W), ("702.14", W)],
        W,
        None,
    ),
    # 702.1.b.3: five in total at Professional
    (
        "702.1.b.3 fifth in total",
        PROFESSIONAL,
        "702.16",
        [("702.5", W), ("702.9", W), ("702.14", W), ("702.10", W)],
        GL,
        "gpe-total-professional",
    ),
    (
        "702.1.b.3 fourth in total is below",
        PROFESSIONAL,
        "702.16",
        [("702.5", W), ("702.9", W), ("702.14", W)],
        W,
        None,
    ),
    (
        "702.1.b.3 a Warning upgraded to a Game Loss still counts",
        PROFESSIONAL,
        "702.16",
        [("702.5", W), ("702.5", W), ("702.5", GL), ("702.14", W)],
        GL,
        "gpe-total-professional",
    ),
    (
        "702.1.b.3 Failure to Maintain Game State counts in the total",
        PROFESSIONAL,
        "702.5",
        [("702.17", W), ("702.17", W), ("702.17", W), ("702.17", W)],
        GL,
        "gpe-total-professional",
    ),
    (
        "702.1.b.3 but is itself never upgraded",
        PROFESSIONAL,
        "702.17",
        [("702.5", W), ("702.9", W), ("702.14", W), ("702.10", W)],
        W,
        None,
    ),
    (
        "702.1.b.3 tournament errors are not game play errors",
        PROFESSIONAL,
        "702.16",
        [("703.2", W), ("703.5", W), ("703.6", W), ("703.7", W)],
        W,
        None,
    ),
    # 703.1.b.1: the same tournament error a third time
    ("703.1.b.1 third Slow Play", CASUAL, "703.2", [("703.2", W), ("703.2", W)], GL, "te-same-category"),
    ("703.1.b.1 second is still a Warning", CASUAL, "703.2", [("703.2", W)], W, None),
    (
        "703.1.b.1 third late arrival within two minutes",
        COMPETITIVE,
        "703.8",
        [("703.8", W), ("703.8", GL)],
        GL,
        "te-same-category",
    ),
    ("703.1.b.1 a late Match Loss is not a Warning", CASUAL, "703.8", [("703.8", W), ("703.8", ML)], W, None),
    # 703.1.b.2: six tournament error Warnings in total at Competitive
    (
        "703.1.b.2 sixth in total",
        COMPETITIVE,
        "703.7",
        [("703.2", W), ("703.2", W), ("703.5", W), ("703.5", W), ("703.6", W)],
        GL,
        "te-total-competitive",
    ),
    (
        "703.1.b.2 fifth in total is below",
        COMPETITIVE,
        "703.7",
        [("703.2", W), ("703.2", W), ("703.5", W), ("703.6", W)],
        W,
        None,
    ),
    # 703.1.b.3: five in total at Professional
    (
        "703.1.b.3 fifth in total",
        PROFESSIONAL,
        "703.7",
        [("703.2", W), ("703.5", W), ("703.6", W), ("703.9", W)],
        GL,
        "te-total-professional",
    ),
    ("703.1.b.3 fourth in total is below", PROFESSIONAL, "703.7", [("703.2", W), ("703.5", W), ("703.6", W)], W, None),
    (
        "703.1.b.3 a Decklist Error Game Loss is not a Warning",
        PROFESSIONAL,
        "703.7",
        [("703.2", W), ("703.5", W), ("703.6", W), ("703.3", GL)],
        W,
        None,
    ),
    (
        "703.1.b.3 a late arrival's Game Loss is an upgraded Warning and counts",
        PROFESSIONAL,
        "703.7",
        [("703.2", W), ("703.5", W), ("703.6", W), ("703.8", GL)],
        GL,
        "te-total-professional",
    ),
    (
        "703.1.b.3 an Outside Assistance Match Loss does not count",
        PROFESSIONAL,
        "703.7",
        [("703.2", W), ("703.5", W), ("703.6", W), ("703.9", ML)],
        W,
        None,
    ),
    # 704.1.b: the same unsporting conduct Warning a second time
    ("704.1.b second Unsporting Minor", CASUAL, "704.2", [("704.2", W)], GL, "usc-same-category"),
    ("704.1.b first Unsporting Minor", CASUAL, "704.2", [], W, None),
    ("704.1.b second Angle Shooting", PROFESSIONAL, "704.4", [("704.4", W)], GL, "usc-same-category"),
    ("704.1.b another category does not count", PROFESSIONAL, "704.4", [("704.2", W)], W, None),
]


@pytest.mark.parametrize("level, code, priors, rank, rule", [c[1:] for c in REPEATS], ids=[c[0] for c in REPEATS])
def test_repeat_rules_upgrade_exactly_at_their_threshold(policy, level, code, priors, rank, rule):
    s = answer(policy, level, code, *priors)
    assert (s.suggested.id, s.upgraded, s.rule.id if s.rule else None) == (rank, rule is not None, rule)


def test_every_repeat_rule_has_a_case_here(policy):
    assert {c[-1] for c in REPEATS} - {None} == {r.id for r in policy.repeat_rules}


def test_earlier_penalties_on_another_day_still_count_the_window_is_the_event(policy):
    earlier = [
        Prior("703.2", W, ref=1, round=2, day=date(2026, 8, 1)),
        Prior("703.2", W, ref=2, round=9, day=date(2026, 8, 2)),
    ]
    s = suggest(policy, 2, "703.2", earlier, today=date(2026, 8, 2))
    assert s.suggested.id == GL and s.upgraded


def test_unsporting_repeat_is_a_game_loss_and_going_further_is_left_to_the_head_judge_704_1_b(policy):
    s = answer(policy, COMPETITIVE, "704.2", ("704.2", W))
    assert [r.id for r in expected_ranks(policy, s)] == [GL]  # no wider range for a floor judge
    assert "head judge" in s.rule.description
    # range_to for the head judge only: up to a Disqualification (704.1.c), beyond the Game Loss theirs alone (704.1.b)
    assert (s.range_to.id, s.range_to_by) == (DQ, "head_judge")
    assert [r.id for r in head_judge_range(policy, s)] == [ML, DQ]
    assert [r.id for r in expected_ranks(policy, s, head_judge=True)] == [GL, ML, DQ]
    first = answer(policy, COMPETITIVE, "704.2")  # just below the rule: no range, nothing reserved
    assert head_judge_range(policy, first) == [] and first.range_to is None


def test_upgrade_is_explained_in_one_sentence_naming_the_rule_section_count_and_incident(policy):
    s = answer(policy, CASUAL, "702.5", ("702.5", W), ("702.5", W))
    assert s.explanation() == (
        "Upgraded: 3rd 702.5 Looking at Extra Cards at this event (702.1.b.1): Game Loss — after incident #2, round 2"
    )
    total = answer(policy, PROFESSIONAL, "703.7", ("703.2", W), ("703.5", W), ("703.6", W), ("703.9", W))
    assert total.explanation() == (
        "Upgraded: 5th tournament error warning at this event (703.1.b.3): Game Loss — after incident #4, round 4"
    )


# ---- time extensions and the words of the text ----------------------------------------------------------------


@pytest.mark.parametrize(
    "reason, taken, owed",
    [
        ("ruling", timedelta(seconds=60), 0),  # 701.2.a.1, 412.2: only more than a minute is given back
        ("ruling", timedelta(seconds=61), 2),  # rounded up, in the players' favour
        ("deck_check", timedelta(minutes=6), 6),  # 411.3.a: enough to cover the check
        ("other", timedelta(minutes=5), 0),  # no figure in the text (late arrival, 703.8.e): the judge decides
    ],
)
def test_time_extensions_follow_701_2_a_1_412_2_and_411_3_a(policy, reason, taken, owed):
    result = extension_owed(policy, reason, taken)
    assert result.minutes == owed
    assert (result.rule is None) == (reason == "other")


@pytest.mark.parametrize(
    "query, found",
    [("pile shuffling", ["703.7"]), ("deck box", ["703.4"]), ("stealing", ["704.7"]), ("misgendering", ["704.3"])],
)
def test_the_words_the_text_itself_uses_find_the_error(policy, query, found):
    assert [hit.code for hit in rank(policy, query)][: len(found)] == found  # the finder names it first


# ---- through the command line ------------------------------------------------------------------------------


@pytest.fixture
def cli(app):
    runner = app.test_cli_runner()
    return lambda *args: runner.invoke(args=list(args))


def test_cli_penalty_suggest_upgrades_the_fifth_game_play_error_warning_at_professional(cli):
    result = cli(
        "penalty", "suggest", "--policy", "riftbound", "--level", "professional", "--infraction", "702.16",
        "--prior", "702.5:warning", "--prior", "702.5:warning", "--prior", "702.5:game_loss",
        "--prior", "702.14:warning",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    out = json.loads(result.output)
    assert out["policy"] == "riftbound" and out["level"] == 3
    assert out["infraction"] == {"code": "702.16", "name": "General Error"}
    assert out["default"] == {"min": W, "max": W}
    assert (out["suggested"], out["upgraded"], out["head_judge_only"]) == (GL, True, False)
    assert out["rule"] == "gpe-total-professional"
    assert (
        out["explanation"]
        == "Upgraded: 5th game play error warning at this event (702.1.b.3): Game Loss — after incident #4"
    )


def test_cli_penalty_suggest_leaves_the_same_history_a_warning_at_competitive(cli):
    result = cli(
        "penalty", "suggest", "--policy", "riftbound", "--level", "competitive", "--infraction", "702.16",
        "--prior", "702.5:warning", "--prior", "702.5:warning", "--prior", "702.5:game_loss",
        "--prior", "702.14:warning",
    )  # fmt: skip
    out = json.loads(result.output)
    assert (out["level"], out["suggested"], out["upgraded"]) == (2, W, False)
    assert out["explanation"] == "Default at Competitive: Warning."


# ---- the quick reference -----------------------------------------------------------------------------------


def test_quick_reference_page_shows_the_policy_at_professional(client, make_user, login_as):
    _, email = make_user()
    login_as(email)
    response = client.get("/reference/riftbound?level=3")
    assert response.status_code == 200
    page = response.get_data(as_text=True)
    assert "32 of 32 infractions" in page
    assert '<option value="3" selected>Professional</option>' in page
    assert "Late to Match" in page and "No penalty" in page
    assert "Instead:</strong> Game Loss when arrived more than 2 and at most 10 minutes" in page
    assert "(702.1.b.3; Professional only)" in page and "(704.1.b)" in page
    assert "any judge may issue every rank" in page


# ---- 701.3.d: a single error leading to several related penalties gets only the most severe ---------------------

# (this error, the earlier record of the same error it is linked to: code and rank) -> the sentence's tail about the
# more severe penalty ("" when the earlier penalty is at least this error's default)
RELATED = [
    # a General Error that drew extra cards, recorded first; the Looking at Extra Cards of the same slip is linked
    ("702.5", ("702.16", W), ""),
    # a Deck Registration Error's Game Loss stands; the Warning-level error of the same cause brings nothing more
    ("702.16", ("703.3", GL), ""),
    # the earlier record holds a Warning and this error's own default is a Match Loss: the more severe applies
    (
        "703.10",
        ("703.2", W),
        " This error's default (Match Loss) is more severe: correct the penalty of incident #4, round 2 instead.",
    ),
]  # fmt: skip


@pytest.mark.parametrize("code, linked, more_severe", RELATED)
def test_an_error_linked_to_one_of_the_same_cause_carries_no_second_penalty_701_3_d(policy, code, linked, more_severe):
    earlier = Prior(linked[0], linked[1], ref=4, round=2)
    s = suggest(policy, policy.level(COMPETITIVE).number, code, [], this_round=2, related_to=earlier)
    assert (s.suggested, s.upgraded, s.because) == (None, False, ())
    assert s.default is not None  # this error's own default stays shown
    rank_name = {W: "Warning", GL: "Game Loss"}[linked[1]]
    assert s.explanation() == (
        f"One penalty for related errors (701.3.d): the same cause as incident #4, round 2, whose {rank_name} stands "
        "for both; no second penalty." + more_severe
    )


def test_just_below_the_rule_an_unlinked_error_of_the_same_round_gets_its_own_penalty_701_3_d(policy):
    s = suggest(policy, policy.level(COMPETITIVE).number, "702.5", [Prior("702.16", W, ref=4, round=2)], this_round=2)
    assert (s.suggested.id, s.related) == (W, None)


def test_cli_penalty_suggest_prints_a_riftbound_linked_error_without_a_penalty_701_3_d(cli):
    result = cli(
        "penalty", "suggest", "--policy", "riftbound", "--level", "competitive", "--infraction", "702.5",
        "--related-to", "702.16:warning",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    out = json.loads(result.output)
    assert (out["suggested"], out["related_to"], out["default"]) == (None, 1, {"min": W, "max": W})
    assert out["explanation"].startswith("One penalty for related errors (701.3.d): the same cause as incident #1")
