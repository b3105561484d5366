"""A bad catalog never half-loads: every problem names the file, the line and the field."""

from pathlib import Path

import pytest

from judgeapp.infractions import CatalogError, load_catalog, suggest

FIX = Path(__file__).resolve().parent.parent / "fixtures" / "catalogs"


def problems(name: str) -> list[str]:
    with pytest.raises(CatalogError) as info:
        load_catalog(FIX / name)
    return info.value.problems


def test_the_readme_example_catalog_loads_and_suggests():
    policy = load_catalog(FIX / "valid.yaml").policy("house-rules")
    assert suggest(policy, 2, "1.1").default.label() == "Warning ~ Loss of Game"


def test_shipped_catalog_loads():
    load_catalog(Path(__file__).resolve().parents[2] / "data" / "infractions.yaml")


@pytest.mark.parametrize(
    "fixture, expected",
    [
        (
            "syntax_error.yaml",
            "syntax_error.yaml:27:33: YAML syntax error: mapping values are not allowed in this context",
        ),
        (
            "unknown_rank.yaml",
            "unknown_rank.yaml:30: policies.house-rules.infractions[0].defaults.level_2.max: "
            "'loss of gme' is not a rank of this policy (ranks: caution, warning, loss_of_game, disqualification)",
        ),
        (
            "min_above_max.yaml",
            "min_above_max.yaml:30: policies.house-rules.infractions[0].defaults.level_2: "
            "min 'loss_of_game' is above max 'warning'",
        ),
        (
            "duplicate_code.yaml",
            "duplicate_code.yaml:31: policies.house-rules.infractions[1].code: infraction code '1.1' appears twice",
        ),
        (
            "missing_level.yaml",
            "missing_level.yaml:35: policies.house-rules.infractions[1].defaults: "
            "level_2 missing: every level of the policy needs a default",
        ),
        (
            "unknown_level.yaml",
            "unknown_level.yaml:35: policies.house-rules.infractions[1].defaults.level_3: "
            "'level_3' is not a level of this policy (levels: level_1, level_2)",
        ),
        (
            "unknown_subsection.yaml",
            "unknown_subsection.yaml:33: policies.house-rules.infractions[1].subsection: "
            "'9' is not a sub-section of this policy",
        ),
        (
            "unknown_head_judge_rank.yaml",
            "unknown_head_judge_rank.yaml:18: policies.house-rules.head_judge_only[0]: "
            "'disqualifcation' is not a rank of this policy",
        ),
        (
            "unknown_field.yaml",
            "unknown_field.yaml:35: policies.house-rules.infractions[1].penalty_points: Extra inputs are not permitted",
        ),
        ("duplicate_key.yaml", "duplicate_key.yaml:6: policies.house-rules.version: key 'version' appears twice"),
        (
            "bad_repeat_scope.yaml",
            "bad_repeat_scope.yaml:8: policies.house-rules.repeat_rules[0].window: "
            "Input should be 'event', 'day', 'match' or 'game'",
        ),
        (
            "discretion_with_defaults.yaml",
            "discretion_with_defaults.yaml:36: policies.house-rules.infractions[1].defaults: "
            "an infraction left to the judge's discretion has no defaults",
        ),
        (
            "duplicate_synonym.yaml",
            "duplicate_synonym.yaml:35: policies.house-rules.infractions[1].synonyms[1]: "
            "synonym 'Taunting' appears twice",
        ),
    ],
)
def test_each_problem_is_reported_with_file_line_and_field_path(fixture, expected):
    found = problems(fixture)
    assert any(p.startswith(str(FIX / expected.split(":")[0])) for p in found)
    assert any(expected in p for p in found), "\n".join(found)


def test_a_file_that_is_not_a_mapping_is_refused(tmp_path):
    bad = tmp_path / "list.yaml"
    bad.write_text("- just\n- a list\n")
    with pytest.raises(CatalogError, match="top-level `policies`"):
        load_catalog(bad)


def test_a_missing_file_is_reported_by_name(tmp_path):
    with pytest.raises(CatalogError, match=r"nope\.yaml: cannot read the catalog"):
        load_catalog(tmp_path / "nope.yaml")


def test_all_problems_are_reported_at_once(tmp_path):
    text = (FIX / "valid.yaml").read_text().replace("max: loss_of_game", "max: nonsense")
    text = text.replace('subsection: "2"\n', 'subsection: "7"\n')
    bad = tmp_path / "two.yaml"
    bad.write_text(text)
    with pytest.raises(CatalogError) as info:
        load_catalog(bad)
    assert len(info.value.problems) == 2


@pytest.mark.parametrize(
    "change, field, message",
    [
        (
            'version: "2026.1"',
            "policies.house-rules.version",
            "Input should be a valid string",
        ),  # 2026.10 would read as 2026.1
        ('code: "1.1"', "policies.house-rules.infractions[0].code", "Input should be a valid string"),
        (
            "notes: Rude to an opponent.",
            "policies.house-rules.infractions[1].penalized",
            "Input should be a valid boolean",
        ),
        ("{number: 2,", "policies.house-rules.levels[1].number", "Input should be a valid integer"),
    ],
)
def test_a_value_of_the_wrong_type_is_refused_not_silently_converted(tmp_path, change, field, message):
    bad_value = {
        'version: "2026.1"': "version: 2026.10",
        'code: "1.1"': "code: 1.1",
        "notes: Rude to an opponent.": 'notes: Rude to an opponent.\n        penalized: "no"',
        "{number: 2,": '{number: "2",',
    }[change]
    path = tmp_path / "coerced.yaml"
    path.write_text((FIX / "valid.yaml").read_text().replace(change, bad_value, 1))
    with pytest.raises(CatalogError) as info:
        load_catalog(path)
    assert any(f": {field}: {message}" in p for p in info.value.problems), "\n".join(info.value.problems)


@pytest.mark.parametrize(
    "change, bad, where, message",
    [
        (
            "result: up, section",
            "result: ladder, ladder: [warning, red_card], section",
            "repeat_rules[0].ladder[1]",
            "'red_card' is not a rank of this policy",
        ),
        ("result: up, section", "result: rank, section", "repeat_rules[0].rank", "result: rank needs the rank"),
        (
            "counts: subsection,",
            "counts: group,",
            "repeat_rules[0].group",
            "a group is given exactly when the rule counts a group",
        ),
        (
            "counts: subsection,",
            "counts: subsection, applies_to: ['9'],",
            "repeat_rules[0].applies_to[0]",
            "'9' is neither an infraction nor a sub-section of this policy",
        ),
        (
            "counts: subsection,",
            "counts: subsection, levels: [4],",
            "repeat_rules[0].levels[0]",
            "4 is not a level of this policy",
        ),
        (
            "notes: Rude to an opponent.",
            "notes: Rude to an opponent.\n        repeat_rules: [no-such-rule]",
            "infractions[1].repeat_rules[0]",
            "'no-such-rule' is not a repeat rule of this policy",
        ),
        (
            "window: day,",
            "window: fortnight,",
            "repeat_rules[0].window",
            "Input should be 'event', 'day', 'match' or 'game'",
        ),
        (
            "counts: subsection,",
            "counts: subsection, from_count: 1,",
            "repeat_rules[0].from_count",
            "Input should be greater than or equal to 2",
        ),
    ],
)
def test_a_repeat_rule_that_cannot_mean_anything_is_refused_with_its_line_and_field(
    tmp_path, change, bad, where, message
):
    path = tmp_path / "rules.yaml"
    text = (FIX / "valid.yaml").read_text()
    assert change in text
    path.write_text(text.replace(change, bad, 1))
    with pytest.raises(CatalogError) as info:
        load_catalog(path)
    assert any("rules.yaml:" in p and f"policies.house-rules.{where}: {message}" in p for p in info.value.problems), (
        "\n".join(info.value.problems)
    )


def test_an_alternative_of_an_infraction_without_a_default_penalty_is_checked_too(tmp_path):
    text = (
        (FIX / "valid.yaml")
        .read_text()
        .replace(
            "        defaults: {level_1: warning, level_2: warning}",
            "        penalized: false\n        alternatives: [{condition: it hurt, levels: [2], penalty: yelow_card}]",
        )
    )
    path = tmp_path / "alt.yaml"
    path.write_text(text)
    with pytest.raises(CatalogError) as info:
        load_catalog(path)
    assert any(
        "policies.house-rules.infractions[1].alternatives[0].penalty.min: 'yelow_card' is not a rank" in p
        for p in info.value.problems
    ), "\n".join(info.value.problems)


@pytest.mark.parametrize(
    "change, bad, where, message",
    [
        (
            "result: up, section",
            "result: rank, rank: warning, above: last_given, section",
            "repeat_rules[0].above",
            "above: last_given says where result: up counts from; this rule's result is rank",
        ),
        (
            "result: up, section",
            "result: up, above: last_time, section",
            "repeat_rules[0].above",
            "Input should be 'default', 'highest_prior' or 'last_given'",
        ),
        (
            "result: up, section",
            "result: up, offered: true, range_to: loss_of_game, section",
            "repeat_rules[0].range_to",
            "an offered escalation is the judge's call already: no range_to",
        ),
        (
            "result: up, section",
            "result: up, range_to_by: head_judge, section",
            "repeat_rules[0].range_to_by",
            "range_to_by says who may go up to range_to: give range_to too",
        ),
        (
            "result: up, section",
            "result: up, range_to: disqualification, range_to_by: floor_judge, section",
            "repeat_rules[0].range_to_by",
            "Input should be 'head_judge'",
        ),
        (
            "result: up, section",
            'result: up, offered: "yes", section',
            "repeat_rules[0].offered",
            "Input should be a valid boolean",
        ),
        (
            "    head_judge_only: [disqualification]\n",
            "    head_judge_only: [disqualification]\n    confirm: [{ranks: [red_card], by: head_judge, section: C}]\n",
            "confirm[0].ranks[0]",
            "'red_card' is not a rank of this policy",
        ),
        (
            "    head_judge_only: [disqualification]\n",
            "    head_judge_only: [disqualification]\n"
            "    confirm: [{ranks: [warning], levels: [3], by: head_judge, section: C}]\n",
            "confirm[0].levels[0]",
            "3 is not a level of this policy",
        ),
        (
            "    head_judge_only: [disqualification]\n",
            "    head_judge_only: [disqualification]\n"
            "    confirm: [{ranks: [warning], exceptions: ['9.9'], by: head_judge, section: C}]\n",
            "confirm[0].exceptions[0]",
            "'9.9' is neither an infraction nor a sub-section of this policy",
        ),
        (
            "    head_judge_only: [disqualification]\n",
            "    head_judge_only: [disqualification]\n"
            "    confirm: [{ranks: [disqualification], by: judges, section: C}]\n",
            "confirm[0].judges",
            "the number of judges is given exactly when by: judges",
        ),
        (
            "    head_judge_only: [disqualification]\n",
            "    head_judge_only: [disqualification]\n"
            "    confirm: [{ranks: [disqualification], by: head_judge, judges: 3, section: C}]\n",
            "confirm[0].judges",
            "the number of judges is given exactly when by: judges",
        ),
        (
            "    head_judge_only: [disqualification]\n",
            "    head_judge_only: [disqualification]\n"
            "    confirm: [{ranks: [disqualification], by: head_judge, including: head_judge, section: C}]\n",
            "confirm[0].including",
            "including names who is among a number of judges: only with by: judges",
        ),
        (
            "    head_judge_only: [disqualification]\n",
            "    head_judge_only: [disqualification]\n"
            "    confirm: [{ranks: [disqualification], by: judges, judges: 3, including: organizer, section: C}]\n",
            "confirm[0].including",
            "Input should be 'head_judge'",
        ),
        (
            "    head_judge_only: [disqualification]\n",
            "    head_judge_only: [disqualification]\n    confirm: [{ranks: [warning], by: floor_judge, section: C}]\n",
            "confirm[0].by",
            "Input should be 'head_judge', 'head_judge_or_assistant' or 'judges'",
        ),
        (
            "    head_judge_only: [disqualification]\n",
            "    head_judge_only: [disqualification]\n"
            '    confirm: [{ranks: [warning], by: head_judge, off_default: "yes", section: C}]\n',
            "confirm[0].off_default",
            "Input should be a valid boolean",
        ),
        (
            "    head_judge_only: [disqualification]\n",
            "    head_judge_only: [disqualification]\n    confirm: [{ranks: [], by: head_judge, section: C}]\n",
            "confirm[0].ranks",
            "List should have at least 1 item",
        ),
        (
            "    head_judge_only: [disqualification]\n",
            "    head_judge_only: [disqualification]\n    time_cap: {minutes: 16, levels: [3], section: C}\n",
            "time_cap.levels[0]",
            "3 is not a level of this policy",
        ),
        (
            "    head_judge_only: [disqualification]\n",
            "    head_judge_only: [disqualification]\n    time_cap: {minutes: 0, section: C}\n",
            "time_cap.minutes",
            "Input should be greater than or equal to 1",
        ),
        (
            "result: up, section:",
            "result: up, upgrades: [yellow_card], section:",
            "repeat_rules[0].upgrades[0]",
            "'yellow_card' is not a rank of this policy",
        ),
        (  # FaB PPG 3.3: the form asks the game number only for the infractions a per-game rule upgrades
            "window: day, result: up",
            "window: game, result: up",
            "repeat_rules[0].applies_to",
            "a rule counting per game (window: game) names the infractions it upgrades: the form asks the game "
            "number for those only",
        ),
        (
            "window: day, result: up",
            "window: round, result: up",
            "repeat_rules[0].window",
            "Input should be 'event', 'day', 'match' or 'game'",
        ),
        (  # Magic IPG 1.2: one penalty for related errors, stated with its section
            "    head_judge_only: [disqualification]\n",
            "    head_judge_only: [disqualification]\n    related_errors: {section: ' ', summary: One penalty.}\n",
            "related_errors.section",
            "say where the text gives one penalty for related errors, and what it says",
        ),
        (
            "    head_judge_only: [disqualification]\n",
            "    head_judge_only: [disqualification]\n    related_errors: {section: IPG 1.2}\n",
            "related_errors.summary",
            "Field required",
        ),
        (
            "    head_judge_only: [disqualification]\n",
            "    head_judge_only: [disqualification]\n"
            "    related_errors: {section: IPG 1.2, summary: S, applies: all}\n",
            "related_errors.applies",
            "Extra inputs are not permitted",
        ),
    ],
)
def test_a_new_rule_form_that_cannot_mean_anything_is_refused_with_file_line_and_field(
    tmp_path, change, bad, where, message
):
    """Upgrades from the penalty given last time, offered escalations and confirmations per rank and level (issue 35)
    are checked like every other field: the file, the line and the field's path are named."""
    path = tmp_path / "rules.yaml"
    text = (FIX / "valid.yaml").read_text()
    assert change in text
    path.write_text(text.replace(change, bad, 1))
    with pytest.raises(CatalogError) as info:
        load_catalog(path)
    assert any(
        p.startswith(f"{path}:") and p.split(":")[1].isdigit() and f"policies.house-rules.{where}: {message}" in p
        for p in info.value.problems
    ), "\n".join(info.value.problems)


def test_the_new_rule_forms_load_from_the_rules_fixture():
    policy = load_catalog(FIX / "rules.yaml").policy("rules-demo")
    by_id = {r.id: r for r in policy.repeat_rules}
    assert by_id["from-given"].above_last_given and not by_id["from-given"].above_highest_prior
    assert by_id["may-escalate"].offered and not by_id["from-given"].offered
    first = policy.confirmations[0]
    assert (sorted(first.ranks), first.by.value, sorted(first.levels), sorted(first.exceptions)) == (
        ["game_loss", "match_loss"],
        "head_judge_or_assistant",
        [2],
        ["3.1"],
    )
    assert policy.confirmations[1].judges == 3
    assert by_id["warning-only"].upgrades == {"warning"} and by_id["from-given"].upgrades == frozenset()


@pytest.mark.parametrize(
    "bad, where, message",
    [
        (
            '      - {code: "3.1", severity: major, name: Split, subsection: "1", notes: N., '
            "defaults: {level_1: warning, level_2: warning}}\n"
            '      - {code: "3.1-minor", severity: minor, name: Split, subsection: "1", notes: N., '
            "defaults: {level_1: warning, level_2: warning}}\n",
            "infractions[2].code",
            "a row of severity major is coded 3.1-major",
        ),
        (
            '      - {code: "3.1-major", name: Split, subsection: "1", notes: N., '
            "defaults: {level_1: warning, level_2: warning}}\n",
            "infractions[2].severity",
            "the code ends in a severity: say `severity: major`",
        ),
        (
            '      - {code: "3.1-major", severity: major, name: Split, subsection: "1", notes: N., '
            "defaults: {level_1: warning, level_2: warning}}\n",
            "infractions[2].severity",
            "3.1 has one severity only: a code carries a severity when its section has several",
        ),
        (
            '      - {code: "1.1-major", severity: major, name: Split, subsection: "1", notes: N., '
            "defaults: {level_1: warning, level_2: warning}}\n"
            '      - {code: "1.1-minor", severity: minor, name: Split, subsection: "1", notes: N., '
            "defaults: {level_1: warning, level_2: warning}}\n",
            "infractions[0].code",
            "1.1 is split by severity: its rows carry the severity",
        ),
        (
            '      - {code: "3.1-Major", severity: Major, name: Split, subsection: "1", notes: N., '
            "defaults: {level_1: warning, level_2: warning}}\n",
            "infractions[2].severity",
            "String should match pattern",
        ),
    ],
)
def test_a_section_split_by_severity_is_coded_as_judges_write_it_or_refused_with_its_line(
    tmp_path, bad, where, message
):
    """`5.5.1-major`: a section the text splits by severity carries it as a lower-case suffix, said in `severity`."""
    path = tmp_path / "severity.yaml"
    text = (FIX / "valid.yaml").read_text()
    assert text.endswith("\n") and "    infractions:\n" in text
    path.write_text(text + bad)
    with pytest.raises(CatalogError) as info:
        load_catalog(path)
    assert any(
        p.startswith(f"{path}:") and f"policies.house-rules.{where}: {message}" in p for p in info.value.problems
    ), "\n".join(info.value.problems)


def test_the_rows_of_a_section_split_by_severity_load_with_their_severity():
    policy = load_catalog(FIX / "rules.yaml").policy("rules-demo")
    assert policy.infraction("11.1-major").severity == "major"
    assert policy.infraction("11.1-minor").severity == "minor"
    assert policy.infraction("2.1").severity == ""


LATE = (
    '      - {code: "3.1", name: Late, subsection: "1", notes: N., defaults: {level_1: warning, level_2: warning},\n'
    "         minutes_late: [%s]}\n"
)


@pytest.mark.parametrize(
    "rows, where, message",
    [
        (
            "{from: 5, defaults: {level_1: warning, level_2: warning}}, "
            "{from: 5, defaults: {level_1: warning, level_2: loss_of_game}}",
            "infractions[2].minutes_late[1].from",
            "rows by minutes late go upwards: 5 after 5",
        ),
        (
            "{from: 3, defaults: {level_1: warning}}",
            "infractions[2].minutes_late[0].defaults",
            "level_2 missing: every level of the policy needs a default",
        ),
        (
            "{from: 3, defaults: {level_1: warning, level_2: red_card}}",
            "infractions[2].minutes_late[0].defaults.level_2.max",
            "'red_card' is not a rank of this policy",
        ),
        (
            "{from: 3, defaults: {level_1: warning, level_2: warning, level_9: warning}}",
            "infractions[2].minutes_late[0].defaults.level_9",
            "'level_9' is not a level of this policy",
        ),
        (
            "{from: -1, defaults: {level_1: warning, level_2: warning}}",
            "infractions[2].minutes_late[0].from",
            "Input should be greater than or equal to 0",
        ),
        (
            "{after: 3, defaults: {level_1: warning, level_2: warning}}",
            "infractions[2].minutes_late[0].after",
            "Extra inputs are not permitted",
        ),
    ],
)
def test_defaults_by_minutes_late_that_cannot_mean_anything_are_refused_with_file_line_and_field(
    tmp_path, rows, where, message
):
    path = tmp_path / "late.yaml"
    path.write_text((FIX / "valid.yaml").read_text() + LATE % rows)
    with pytest.raises(CatalogError) as info:
        load_catalog(path)
    assert any(
        p.startswith(f"{path}:") and f"policies.house-rules.{where}: {message}" in p for p in info.value.problems
    ), "\n".join(info.value.problems)


def test_defaults_by_minutes_late_need_the_general_default_for_unknown_minutes(tmp_path):
    path = tmp_path / "late.yaml"
    text = (FIX / "valid.yaml").read_text() + (
        '      - {code: "3.1", name: Late, subsection: "1", notes: N., discretion: true,\n'
        "         minutes_late: [{from: 3, defaults: {level_1: warning, level_2: warning}}]}\n"
    )
    path.write_text(text)
    with pytest.raises(CatalogError) as info:
        load_catalog(path)
    assert any(
        "policies.house-rules.infractions[2].minutes_late: defaults by minutes late need `defaults` for unknown minutes"
        in p
        for p in info.value.problems
    ), "\n".join(info.value.problems)
