"""Issue 32: every hostile policy file the review reproduced is refused by the real parser, in its limited process
(judgeapp.sandbox), before anything is composed: anchors and aliases, deep nesting, too many entries, too many
problems. A crash or a runaway in the child is a clean refusal; this test process survives it."""

import ctypes

import pytest
import yaml

from judgeapp.infractions import CatalogError, parse_catalog
from judgeapp.infractions import loader as catalog_loader
from judgeapp.sandbox import Limits, ParseRefused, run_limited
from tests.shared import policy_bombs as bombs

LIMITS = Limits(cpu_seconds=20, memory_mb=512, wall_seconds=120)  # generous: the machine may be busy


def refusal(text: str) -> list[str]:
    with pytest.raises(CatalogError) as err:
        run_limited(parse_catalog, text, "bomb.yaml", limits_=LIMITS)
    return err.value.problems


def test_the_464_byte_alias_bomb_is_refused_before_anything_is_composed():
    text = bombs.alias_bomb()
    assert len(text) < 500
    assert refusal(text) == [
        "bomb.yaml:1: anchors and aliases (&name, *name) are not allowed: a policy never needs them"
    ]


def test_the_alias_bomb_with_a_duplicated_key_is_refused_before_the_duplicate_key_walk():
    assert refusal(bombs.duplicate_key_bomb()) == [
        "bomb.yaml:1: anchors and aliases (&name, *name) are not allowed: a policy never needs them"
    ]


def test_100000_open_brackets_are_refused_cleanly_and_the_process_survives():
    assert refusal(bombs.deep_brackets()) == ["bomb.yaml:1: nested more than 16 levels deep; a policy is not"]


def test_libyamls_composer_crashing_on_100000_brackets_costs_the_child_not_this_process():
    """Unbounded, the C composer dies on this file (a segfault, or a recursion error before it): in the limited
    process that is a refusal in one sentence."""
    with pytest.raises(ParseRefused) as err:
        run_limited(yaml.compose, bombs.deep_brackets(), Loader=yaml.CSafeLoader, limits_=LIMITS)
    assert err.value.why == "crash" and str(err.value) == (
        "The reader crashed on this file; it is not a file judgeapp can use."
    )


def test_a_list_holding_itself_is_refused_not_a_recursion_error():
    assert refusal(bombs.SELF_ALIAS) == [
        "bomb.yaml:1: anchors and aliases (&name, *name) are not allowed: a policy never needs them"
    ]


def test_2000_levels_of_nesting_are_refused_not_a_recursion_error():
    assert refusal(bombs.deep_levels()) == ["bomb.yaml:1: nested more than 16 levels deep; a policy is not"]


def test_2000_language_codes_and_1000_infractions_give_a_short_list_of_problems_not_two_million():
    problems = refusal(bombs.language_codes())
    assert len(problems) <= catalog_loader.MAX_PROBLEMS + 1
    assert any("should have at most 16 items" in p and ".names" in p for p in problems)
    assert any("infractions: List should have at most 500 items" in p for p in problems)


def test_2000_languages_spread_over_the_entries_are_one_problem_not_one_per_missing_name():
    """Each entry under the per-entry cap of 16, but 2,000 languages in all: one problem, never 2,000 x entries."""
    head = bombs.HOUSE.split("    infractions:\n", 1)[0]
    rows = "".join(
        f'      - {{code: "1.{n}", name: I{n}, subsection: "1", notes: N, '
        f"names: {{{', '.join(f'{bombs._language(n * 4 + k)}: N' for k in range(4))}}}, "
        "defaults: {level_1: caution, level_2: warning}}\n"
        for n in range(500)
    )
    problems = refusal(head + "    infractions:\n" + rows)
    assert (
        len(problems) == 1
        and "2,000 languages (aaa, aab, aac, aad, aae, …); a policy is given in at most 16" in (problems[0])
    )


def test_a_file_with_hundreds_of_problems_keeps_twenty_and_counts_the_rest():
    text = bombs.legitimate(40_000).replace("max: loss_of_game", "max: no_such_rank")
    count = text.count("no_such_rank")
    problems = refusal(text)
    assert count > 50
    assert len(problems) == 21 and "'no_such_rank' is not a rank of this policy" in problems[0]
    assert problems[-1] == f"… and {count - 20:,} more problems"


def test_the_560_kb_synonyms_alias_policy_that_validated_today_is_refused():
    text = bombs.synonyms_alias()
    assert len(text) > 500_000
    assert refusal(text) == [
        "bomb.yaml:26: anchors and aliases (&name, *name) are not allowed: a policy never needs them"
    ]


def test_totals_a_policy_legitimately_fits_in_are_capped():
    head = bombs.HOUSE.split("    infractions:\n", 1)[0]

    def infraction(n: int, extra: str = "") -> str:
        return (
            f'      - {{code: "1.{n}", name: I{n}, subsection: "1", notes: N{extra}, '
            "defaults: {level_1: caution, level_2: warning}}\n"
        )

    many = head + "    infractions:\n" + "".join(infraction(n) for n in range(501))
    assert any("infractions: List should have at most 500 items" in p for p in refusal(many))
    synonyms = ", ".join(f"s{n}" for n in range(41))
    assert any(
        "synonyms: List should have at most 40 items" in p
        for p in refusal(head + "    infractions:\n" + infraction(0, f", synonyms: [{synonyms}]"))
    )
    long_note = head + "    infractions:\n" + infraction(0, "x" * 10_001)
    assert refusal(long_note) == ["bomb.yaml:26: a text longer than 10,000 characters"]
    events = head + "    infractions:\n" + infraction(0) + "    extra: [" + "1, " * 100_000 + "]\n"
    assert refusal(events)[0].endswith("more than 100,000 entries; a policy has far fewer")


def test_a_legitimate_40_kb_policy_still_parses_in_the_limited_process():
    text = bombs.legitimate(40_000)
    catalog = run_limited(parse_catalog, text, "house.yaml", limits_=LIMITS)
    assert len(catalog.policies["house-rules"].infractions) == 80


def _segfault() -> None:
    ctypes.string_at(0)


def _spin() -> None:
    while True:
        pass


def _hog() -> int:
    return len(bytearray(4 * 1024**3))


def test_the_limited_process_turns_a_crash_a_runaway_and_a_memory_hog_into_refusals():
    with pytest.raises(ParseRefused) as crash:
        run_limited(_segfault, limits_=LIMITS)
    with pytest.raises(ParseRefused) as runaway:
        run_limited(_spin, limits_=Limits(cpu_seconds=1, memory_mb=256, wall_seconds=60))
    with pytest.raises(ParseRefused) as hog:
        run_limited(_hog, limits_=Limits(cpu_seconds=20, memory_mb=256, wall_seconds=60))
    assert (crash.value.why, runaway.value.why, hog.value.why) == ("crash", "time", "memory")
    assert str(runaway.value) == "The file took too long to read; it is not a file judgeapp can use."
    assert str(hog.value) == "The file took too much memory to read; it is not a file judgeapp can use."


def test_the_limited_process_gives_back_the_result_or_the_exception_the_parse_raised():
    assert run_limited(sorted, [3, 1, 2], limits_=LIMITS) == [1, 2, 3]
    with pytest.raises(CatalogError) as err:
        run_limited(parse_catalog, "policies: [", "broken.yaml", limits_=LIMITS)
    assert err.value.path == "broken.yaml" and "YAML syntax error" in err.value.problems[0]
