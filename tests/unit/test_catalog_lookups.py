"""Looking things up in a policy: the infraction search a judge types into, ranks, levels and policies by id (an
unknown one is refused with the valid choices), and the plain JSON the phone's engine reads."""

import json
from datetime import timedelta
from pathlib import Path

import pytest

from judgeapp.infractions import UnknownChoice, extension_owed, load_catalog
from judgeapp.infractions.export import policy_as_json
from judgeapp.infractions.search import rank

FIX = Path(__file__).resolve().parents[1] / "fixtures" / "catalogs"


@pytest.fixture(scope="module")
def catalog():
    return load_catalog(FIX / "valid.yaml")


@pytest.fixture(scope="module")
def house(catalog):
    return catalog.policy("house-rules")


@pytest.mark.parametrize(
    "look_up, kind, value",
    [
        (lambda c: c.policy("nope"), "policy", "nope"),
        (lambda c: c.policy("house-rules").rank("yellow_card"), "rank", "yellow_card"),
        (lambda c: c.policy("house-rules").level(3), "level", "3"),
        (lambda c: c.policy("house-rules").infraction("9.9"), "infraction", "9.9"),
    ],
)
def test_an_unknown_id_is_refused_with_the_valid_choices(catalog, look_up, kind, value):
    with pytest.raises(UnknownChoice) as err:
        look_up(catalog)
    assert (err.value.kind, err.value.value) == (kind, value)
    assert str(err.value).startswith(f"unknown {kind} {value!r}; valid choices: ")
    assert err.value.choices  # what the judge (or the CLI) may use instead


def test_the_ranks_climb_one_at_a_time_and_stop_at_the_top(house):
    caution, warning, loss_of_game, dq = house.ranks
    assert house.rank_above(caution) == warning and house.rank_above(loss_of_game) == dq
    assert house.top_rank == dq and house.rank_above(dq) == dq


def test_the_serious_penalties_start_at_the_lowest_rank_reported_to_the_head_judge(house):
    assert house.reported_from == house.rank("loss_of_game")


def test_a_default_penalty_reads_as_one_rank_or_a_range(house):
    extra_card = house.infraction("1.1")
    assert extra_card.default_at(1).label() == "Caution"
    assert extra_card.default_at(2).label() == "Warning ~ Loss of Game"
    assert extra_card.default_at(2).contains(house.rank("loss_of_game"))
    assert not extra_card.default_at(2).contains(house.rank("caution"))


def test_time_under_the_policys_threshold_is_explained_as_none_owed(house):
    owed = extension_owed(house, "ruling", timedelta(seconds=50))
    assert owed.minutes == 0
    assert owed.explanation() == "No time owed: rulings over a minute are given back (§2)"


def test_the_phones_copy_of_a_policy_is_plain_json_with_what_the_engine_reads_and_no_prose(house):
    data = json.loads(json.dumps(policy_as_json(house)))
    assert [r["id"] for r in data["ranks"]] == ["caution", "warning", "loss_of_game", "disqualification"]
    assert (data["repeat_rules"][0]["window"], data["head_judge_only"]) == ("day", ["disqualification"])
    extra_card = data["infractions"][0]
    assert extra_card["defaults"] == {
        "1": {"min": "caution", "max": "caution"},
        "2": {"min": "warning", "max": "loss_of_game"},
    }
    assert "notes" not in extra_card and "remedy" not in extra_card


@pytest.mark.parametrize(
    "policy, query, found",
    [
        ("bushiroad-afr", "phone", ["3.17"]),  # §3.17's devices, which the floor rules call mobile or smart phones
        ("bushiroad-afr", "tardy", ["3.9.1", "3.9.2"]),
        ("bushiroad-afr", "bribery", ["3.8.3"]),
        ("bushiroad-afr", "candy", ["3.16"]),
        ("transformers-tcg", "stalling", ["5.5"]),
        ("wot-ccg", "coaching", ["FR6"]),
        ("mtg-ipg", "disguise", ["2.3"]),  # IPG 2.3's face-down disguise permanents
        ("mtg-ipg", "bathroom", ["3.1", "3.3"]),  # IPG 3.1's approved delay and 3.3's example
    ],
)
def test_the_shipped_policies_are_found_first_by_the_words_their_own_texts_use(policy, query, found):
    shipped = load_catalog(Path(__file__).resolve().parents[2] / "data" / "infractions.yaml")
    first = [hit.code for hit in rank(shipped.policy(policy), query)][: len(found)]
    assert sorted(first) == sorted(found)


def test_a_policy_may_name_its_levels_as_its_text_does_and_key_defaults_and_rules_by_those_names(tmp_path):
    text = (FIX / "valid.yaml").read_text()
    text = text.replace("{number: 1, name:", "{number: 1, id: casual, name:").replace(
        "{number: 2, name:", "{number: 2, id: competitive, name:"
    )
    text = text.replace("level_1:", "casual:").replace("level_2:", "competitive:")
    path = tmp_path / "named.yaml"
    path.write_text(text)
    policy = load_catalog(path).policy("house-rules")
    assert policy.level("competitive").number == 2 and policy.level("2").id == "competitive"
    assert policy.infraction("1.1").default_at(2).label() == "Warning ~ Loss of Game"
    with pytest.raises(LookupError, match=r"unknown level 'pro'; valid choices: casual, competitive"):
        policy.level("pro")
