"""Time-extension arithmetic for the Bushiroad and Transformers policies."""

from datetime import datetime, timedelta

import pytest

from judgeapp.infractions import ExtensionReason as R
from judgeapp.infractions import extension_owed, load_catalog, table_end_time
from tests.conftest import CATALOG

CAT = load_catalog(CATALOG)


@pytest.mark.parametrize(
    "policy, reason, taken, owed, turns",
    [
        ("bushiroad-afr", R.RULING, timedelta(seconds=60), 0, False),  # exactly one minute: not over it
        ("bushiroad-afr", R.RULING, timedelta(seconds=61), 2, True),  # rounded up, players' favour
        ("bushiroad-afr", R.RULING, timedelta(minutes=4), 4, True),
        ("bushiroad-afr", R.DECK_CHECK, timedelta(minutes=7), 7, False),
        ("bushiroad-afr", R.DECK_CHECK, timedelta(seconds=30), 1, False),
        ("bushiroad-afr", R.OTHER, timedelta(minutes=5), 0, False),  # no rule: the judge decides
        ("transformers-tcg", R.RULING, timedelta(seconds=50), 0, False),
        ("transformers-tcg", R.RULING, timedelta(minutes=3), 3, False),
        ("transformers-tcg", R.OTHER, timedelta(minutes=2, seconds=1), 3, False),
        ("transformers-tcg", R.DECK_CHECK, timedelta(minutes=6), 9, False),  # time taken plus three
        ("wot-ccg", R.DECK_CHECK, timedelta(minutes=6), 0, False),
        ("mtg-ipg", R.RULING, timedelta(seconds=60), 0, False),  # IPG 1.1: only a ruling over a minute
        ("mtg-ipg", R.RULING, timedelta(seconds=61), 2, False),
        ("mtg-ipg", R.DECK_CHECK, timedelta(minutes=6), 9, False),  # MTR 2.6: time taken plus three
        ("mtg-ipg", R.OTHER, timedelta(minutes=2), 2, False),
    ],
)
def test_extension_owed(policy, reason, taken, owed, turns):
    result = extension_owed(CAT.policy(policy), reason, taken)
    assert (result.minutes, result.extra_turns_allowed) == (owed, turns)


def test_extension_names_the_rule_and_its_section():
    result = extension_owed(CAT.policy("transformers-tcg"), "deck_check", timedelta(minutes=6))
    assert (
        result.explanation()
        == "9 min owed: a deck check gives back the time it took plus three minutes (2.6 (Time Extensions))"
    )


def test_policy_without_a_rule_says_the_judge_decides():
    result = extension_owed(CAT.policy("bushiroad-afr"), "other", timedelta(minutes=5))
    assert result.rule is None and "judge decides" in result.explanation()


def test_negative_time_is_refused():
    with pytest.raises(ValueError):
        extension_owed(CAT.policy("bushiroad-afr"), "ruling", timedelta(seconds=-1))


@pytest.mark.parametrize(
    "length, extensions, end",
    [(50, [], "10:50"), (50, [3], "10:53"), (50, [3, 4, 2], "10:59"), (40, [25], "11:05")],
)
def test_table_end_time_adds_every_extension_to_the_round_end(length, extensions, end):
    start = datetime(2026, 11, 21, 10, 0)
    assert table_end_time(start, length, extensions).strftime("%H:%M") == end


def test_extensions_cannot_shorten_a_round():
    with pytest.raises(ValueError):
        table_end_time(datetime(2026, 11, 21, 10, 0), 50, [-5])


def test_the_shared_cases_the_phone_checks_too_are_what_the_engine_owes():
    import json
    from dataclasses import replace
    from datetime import timedelta
    from pathlib import Path

    from judgeapp.infractions import ExtensionReason, extension_owed, load_catalog

    policy = load_catalog(Path(__file__).resolve().parents[2] / "data" / "infractions.yaml").policy("bushiroad-afr")
    base = policy.time_rule(ExtensionReason.RULING)
    cases = json.loads((Path(__file__).resolve().parents[1] / "shared" / "owed_cases.json").read_text())["cases"]
    for case in cases:
        rule = replace(base, over_minutes=case["over"], plus_minutes=case["plus"])
        ruled = replace(policy, time_rules=(rule,))
        got = extension_owed(ruled, ExtensionReason.RULING, timedelta(milliseconds=case["taken_ms"])).minutes
        assert got == case["owed"], case
