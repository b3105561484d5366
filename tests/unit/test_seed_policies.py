"""The seed policies as their texts say them (issue 19): appeals, extra turns, what a text leaves unnamed, event
settings per level. Each expectation cites the text's section; the tables here come from the texts, not the YAML."""

import pytest

from judgeapp.infractions import CatalogError, load_catalog, parse_catalog, suggest
from judgeapp.infractions.catalog import ExtensionReason
from tests.conftest import CATALOG


@pytest.fixture(scope="module")
def catalog():
    return load_catalog(CATALOG)


# ---- appeals ---------------------------------------------------------------------------------------------------------

# policy: (challenges, spent only by the head judge's own decision, what an opponent may contest, proxy)
APPEALS = {
    # Bushiroad Floor Rules 1.2.2: the event may set a limit; the number drops only when the head judge's decision
    # matches the first ruling. 1.2.1 and Penalty Guide 3.8.1: no asking for the opponent's penalty to be retracted
    # (or given). No proxy is named.
    "bushiroad-afr": ("set_by_event", "head_judge", "remedy_only", False),
    # Transformers 2.9: appeals to the head judge, who may appoint another judge as proxy for a second ruling.
    "transformers-tcg": (None, "any_decision", "penalty_and_remedy", True),
    # Wheel of Time Floor Rules 1: the Judge may overrule an assistant referee and is final. No challenges, no proxy.
    "wot-ccg": (None, "any_decision", "penalty_and_remedy", False),
    # WARS TCG general rules: the tournament director is the final authority.
    "wars-tcg": (None, "any_decision", "penalty_and_remedy", False),
}


@pytest.mark.parametrize("policy_id", sorted(APPEALS))
def test_each_policy_states_its_appeal_rules_as_its_text_gives_them(catalog, policy_id):
    rules = catalog.policy(policy_id).appeals
    assert (rules.challenges, rules.challenge_spent_by, rules.opponent_may_contest, rules.proxy) == APPEALS[policy_id]
    assert rules.section


def test_bushiroad_cites_where_an_opponent_is_limited_to_the_remedy(catalog):
    rules = catalog.policy("bushiroad-afr").appeals
    assert rules.opponent_remedy_only and "1.2.1" in rules.opponent_section and "3.8.1" in rules.opponent_section


def test_the_challenge_limit_follows_the_policy_not_the_event_setting_where_the_policy_limits_none(catalog):
    assert catalog.policy("bushiroad-afr").challenge_limit(2) == 2
    assert catalog.policy("bushiroad-afr").challenge_limit(None) is None
    assert catalog.policy("transformers-tcg").challenge_limit(2) is None


def test_a_policy_may_fix_the_number_of_challenges_itself():
    policy = parse_catalog(HOUSE.replace("challenges: set_by_event", "challenges: 3")).policy("house")
    assert policy.challenge_limit(None) == 3 and policy.challenge_limit(1) == 3


def test_a_policy_without_appeal_rules_has_no_challenge_limit_and_no_proxy():
    rules = parse_catalog(HOUSE.replace(APPEALS_BLOCK, "")).policy("house").appeals
    assert (rules.challenges, rules.proxy, rules.opponent_may_contest) == (None, False, "penalty_and_remedy")


# ---- extra turns -----------------------------------------------------------------------------------------------------


def test_bushiroad_rulings_may_give_extra_turns_announced_before_the_result_floor_rules_1_2_2_and_4_2(catalog):
    rule = catalog.policy("bushiroad-afr").time_rule(ExtensionReason.RULING)
    assert rule.extra_turns_allowed and rule.announce_before_result
    assert "1.2.2" in rule.section and "4.2" in rule.section


@pytest.mark.parametrize("policy_id", ["transformers-tcg", "wot-ccg", "wars-tcg"])
def test_no_other_seed_text_gives_extra_turns_as_an_extension(catalog, policy_id):
    assert not any(r.extra_turns_allowed or r.announce_before_result for r in catalog.policy(policy_id).time_rules)


# ---- missing rules ---------------------------------------------------------------------------------------------------


def test_bushiroad_intentional_draw_floor_rules_4_4_is_an_infraction_without_a_default(catalog):
    inf = catalog.policy("bushiroad-afr").infraction("FR4.4")
    assert inf.discretion and inf.subsection == "FR4" and "4.4" in inf.section_note


def test_bushiroad_result_agreements_by_bribery_or_a_coin_flip_are_severe_unsportsmanlike_conduct(catalog):
    policy = catalog.policy("bushiroad-afr")
    inf = policy.infraction("3.8.3")
    assert {"bribery", "splitting of prizes", "coin flip"} <= set(inf.synonyms) and "4.3" in inf.section_note
    assert suggest(policy, 1, inf).suggested.id == "disqualification"


def test_transformers_cheating_is_decided_by_the_head_judge_alone_5_1(catalog):
    policy = catalog.policy("transformers-tcg")
    assert policy.infraction("5.1").head_judge_only and suggest(policy, 1, "5.1").head_judge_only
    assert not any(i.head_judge_only for i in policy.infractions if i.code != "5.1")


# ---- nothing invented ------------------------------------------------------------------------------------------------


def test_transformers_ranks_are_only_the_penalty_its_text_names(catalog):
    policy = catalog.policy("transformers-tcg")
    assert [r.id for r in policy.ranks] == ["disqualification"]  # 5.1; the rest is left to another guide
    assert policy.unnamed_penalties is not None and "5.1" in policy.unnamed_penalties.section
    assert all(policy.may_leave_rank_unnamed(i) for i in policy.infractions)


def test_wars_tcg_names_no_penalty_and_keeps_what_it_asks_of_each_level_as_event_settings(catalog):
    policy = catalog.policy("wars-tcg")
    assert policy.ranks == () and policy.top_rank is None and policy.repeat_rules == ()
    assert [lv.number for lv in policy.levels] == [1, 2, 3, 4]
    assert all(i.discretion for i in policy.infractions)
    settings = policy.event_settings
    assert settings is not None and "Championship-Level" in settings.section
    # "Decklists are required for all Level 2, 3 and 4 events"; the director "should randomly check decks"
    assert settings.at(1) == {"decklist_required": False, "random_deck_checks": False}
    for level in (2, 3, 4):
        assert settings.at(level) == {"decklist_required": True, "random_deck_checks": True}


def test_bushiroad_penalties_must_still_be_chosen_from_its_ranks(catalog):
    policy = catalog.policy("bushiroad-afr")
    assert policy.unnamed_penalties is None and not policy.may_leave_rank_unnamed(policy.infraction("3.24"))


# ---- validation ------------------------------------------------------------------------------------------------------

APPEALS_BLOCK = """    appeals:
      section: "§9"
      challenges: set_by_event
      challenge_spent_by: head_judge
      opponent_may_contest: remedy_only
      opponent_section: "§9.1"
      proxy: false
"""

HOUSE = (
    """policies:
  house:
    name: House
    version: "1"
    source: ours
    repeat_rules: []
    ranks:
      - {id: warning, name: Warning}
    levels:
      - {number: 1, name: One, description: Any.}
"""
    + APPEALS_BLOCK
    + """    subsections:
      - {code: "1", name: All}
    infractions:
      - {code: "1.1", name: Anything, subsection: "1", notes: Any., defaults: {level_1: warning}}
"""
)


@pytest.mark.parametrize(
    "change, expected",
    [
        (
            ('opponent_section: "§9.1"', 'opponent_section: ""'),
            "seed.yaml:16: policies.house.appeals.opponent_section: say where the text limits what an opponent may "
            "contest",
        ),
        (
            ("proxy: false", "proxy: true"),
            "seed.yaml:12: policies.house.appeals.proxy_section: say where the text provides the proxy",
        ),
        (
            ("challenges: set_by_event", "challenges: none"),
            "seed.yaml:14: policies.house.appeals.challenge_spent_by: the policy limits no challenges "
            "(challenges: none)",
        ),
        (
            ("opponent_may_contest: remedy_only", "opponent_may_contest: nothing"),
            "seed.yaml:15: policies.house.appeals.opponent_may_contest: Input should be 'remedy_only' or "
            "'penalty_and_remedy' (got 'nothing')",
        ),
        (
            ("    ranks:\n      - {id: warning, name: Warning}\n", "    ranks: []\n"),
            "seed.yaml:7: policies.house.ranks: a policy needs at least one rank "
            "(or `unnamed_penalties` saying why it has none)",
        ),
    ],
    ids=[
        "remedy-only-without-section",
        "proxy-without-section",
        "spent-by-without-limit",
        "unknown-contest",
        "no-rank",
    ],
)
def test_a_bad_appeals_block_or_a_policy_without_ranks_is_refused_with_file_line_and_field(change, expected):
    with pytest.raises(CatalogError) as info:
        parse_catalog(HOUSE.replace(*change), "seed.yaml")
    assert expected in info.value.problems


def test_event_settings_name_only_levels_of_the_policy():
    text = HOUSE.replace(
        "    subsections:", '    event_settings: {section: "§3", decklist_required: [1, 5]}\n    subsections:'
    )
    with pytest.raises(CatalogError) as info:
        parse_catalog(text, "seed.yaml")
    assert info.value.problems == [
        "seed.yaml:18: policies.house.event_settings.decklist_required[1]: 5 is not a level of this policy"
    ]
