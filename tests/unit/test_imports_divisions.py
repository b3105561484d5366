"""Divisions in tournament files (issue 34): TOM pods as divisions, a table used once per round of a division, top
cuts named. Pure, no app. The samples under tests/data/imports are built from the public description of TOM files named
in judgeapp/imports/tom.py's docstring, with invented names and IDs."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from judgeapp.imports import FileMatch, FilePlayer, TournamentFile, Where, finish, tom
from judgeapp.imports.model import FileDivision, round_label, top_cut_label

DATA = Path(__file__).resolve().parent.parent / "data" / "imports"


def sample(name: str) -> bytes:
    return (DATA / name).read_bytes()


def divisions(file: TournamentFile) -> dict[str, dict]:
    keys = ("players", "rounds", "pairings", "byes")
    return {d["name"]: {k: d[k] for k in keys} for d in file.summary()["divisions"]}


def test_a_two_pod_tom_cup_gives_each_pod_as_its_division_with_its_own_counts():
    file = tom.read(sample("tom-cup-two-divisions.tdf"))
    summary = file.summary()
    assert {k: summary[k] for k in ("players", "rounds", "pairings", "byes")} == {
        "players": 23, "rounds": 8, "pairings": 56, "byes": 5,
    }  # fmt: skip
    assert divisions(file) == {
        "Juniors+Seniors": {"players": 9, "rounds": 6, "pairings": 19, "byes": 0},
        "Masters": {"players": 14, "rounds": 8, "pairings": 37, "byes": 5},
    }
    assert summary["rejected"] == []


def test_no_division_round_of_the_two_pod_cup_seats_two_matches_at_one_table():
    file = tom.read(sample("tom-cup-two-divisions.tdf"))
    used = Counter((m.division, m.round, m.table) for m in file.matches if m.table is not None)
    assert max(used.values()) == 1
    # the shared number: table 2 of round 5 is a Juniors+Seniors semifinal and a Masters Swiss match
    at_table_two = sorted(m.division for m in file.matches if (m.round, m.table) == (5, 2))
    assert at_table_two == ["2", "8"]


def test_each_pods_rounds_are_numbered_from_one_and_its_top_cut_is_kept_as_top_cut():
    file = tom.read(sample("tom-cup-two-divisions.tdf"))
    juniors, masters = file.divisions
    assert (juniors.name, juniors.top_cut_from, juniors.top_cut_size, juniors.starting_table) == (
        "Juniors+Seniors", 5, 4, 1,
    )  # fmt: skip
    assert (masters.name, masters.top_cut_from, masters.top_cut_size, masters.starting_table) == ("Masters", 6, 8, 2)
    assert file.rounds("8") == [1, 2, 3, 4, 5, 6]
    assert file.rounds("2") == [1, 2, 3, 4, 5, 6, 7, 8]
    assert [round_label(juniors, n) for n in (4, 5, 6)] == [None, "Top 4, semifinal", "Top 4, final"]
    assert [round_label(masters, n) for n in (5, 6, 7, 8)] == [
        None, "Top 8, quarterfinal", "Top 8, semifinal", "Top 8, final",
    ]  # fmt: skip


def test_a_top_cut_is_named_by_its_size_and_the_players_left():
    assert top_cut_label(8, 8) == "Top 8, quarterfinal"
    assert top_cut_label(16, 16) == "Top 16, round of 16"
    assert top_cut_label(4, 2) == "Top 4, final"


def test_registrants_seated_in_no_match_are_kept_as_players_of_their_pod_or_the_first():
    file = tom.read(sample("tom-cup-two-divisions.tdf"))
    where = {p.code: p.division for p in file.players}
    assert where["9342099"] == "2"  # listed in the Masters pod's subgroup, never seated
    assert where["9341099"] == "8"  # in no pod at all: the first division
    assert {where[f"934{2000 + n}"] for n in range(13)} == {"2"}


def test_a_tom_save_before_pairing_gives_players_only_in_one_division():
    file = tom.read(sample("tom-cup-before-pairing.tdf"))
    summary = file.summary()
    assert (summary["players"], summary["rounds"], summary["pairings"], summary["byes"]) == (21, 0, 0, 0)
    assert [(d["id"], d["players"]) for d in summary["divisions"]] == [("", 21)]


def test_a_mid_round_tom_save_keeps_its_pending_and_tied_matches():
    file = tom.read(sample("tom-cup-mid-round.tdf"))
    assert divisions(file) == {
        "Juniors+Seniors": {"players": 8, "rounds": 2, "pairings": 8, "byes": 0},
        "Masters": {"players": 13, "rounds": 2, "pairings": 12, "byes": 2},
    }
    assert file.summary()["rejected"] == []


def _file(*matches: FileMatch, across: bool = False) -> TournamentFile:
    file = TournamentFile(format="tom")
    file.divisions = [FileDivision("j", "Juniors"), FileDivision("m", "Masters", order=1)]
    file.tables_across_divisions = across
    for n, (code, division) in enumerate([("1", "j"), ("2", "j"), ("3", "j"), ("4", "j"), ("5", "m"), ("6", "m")]):
        file.players.append(FilePlayer(f"Player {code}", code, Where("row", n + 1), division=division))
    file.matches.extend(matches)
    return finish(file)


def test_a_second_match_at_one_table_of_a_divisions_round_is_rejected_naming_the_first():
    file = _file(
        FileMatch(5, 2, ("1", "2"), Where("row", 10), "j"),
        FileMatch(5, 2, ("3", "4"), Where("row", 11), "j"),
        FileMatch(5, 2, ("5", "6"), Where("row", 12), "m"),  # another division: its own table 2
    )
    assert [(m.division, m.players) for m in file.matches] == [("j", ("1", "2")), ("m", ("5", "6"))]
    assert file.summary()["rejected"] == [
        {"row": 11, "reason": "round 5: table 2 is already used by another match (row 10)"}
    ]


def test_where_tables_are_numbered_across_divisions_one_table_seats_one_match_of_any_division():
    file = _file(
        FileMatch(5, 2, ("1", "2"), Where("row", 10), "j"),
        FileMatch(5, 2, ("5", "6"), Where("row", 12), "m"),
        across=True,
    )
    assert [m.players for m in file.matches] == [("1", "2")]
    assert file.summary()["rejected"][0]["row"] == 12


def test_a_match_naming_a_player_of_another_division_is_rejected():
    file = _file(FileMatch(1, 1, ("1", "5"), Where("row", 10), "j"))
    assert file.matches == []
    assert "plays in another division (Masters)" in file.summary()["rejected"][0]["reason"]


# ---- days from the file (issue 34) -----------------------------------------------------------------------------------


def dated_cup(days: dict[tuple[int, int], str], tag: str = "starttime") -> bytes:
    """The two-pod Cup with `<starttime>` (TOM's time a round began, litian80/tcg-manager's SKILL.md) on some rounds:
    (pod index, round number) -> "MM/DD/YYYY HH:MM:SS"."""
    import re

    text = sample("tom-cup-two-divisions.tdf").decode()
    pods = text.split("<pod ")
    for (pod, number), when in days.items():
        pods[pod + 1] = re.sub(
            rf'(<round number="{number}"[^>]*>)', rf"\1<pairtime>{when}</pairtime><{tag}>{when}</{tag}>", pods[pod + 1]
        )
    return "<pod ".join(pods).encode()


def test_a_tom_division_whose_rounds_began_on_two_dates_gives_each_round_its_day():
    """A two-day event: Masters' rounds 1-3 on Saturday, 4 on to the top cut on Sunday; Juniors+Seniors in one day."""
    saturday, sunday = "05/16/2026 {}:00:00", "05/17/2026 {}:00:00"
    starts = {(1, n): saturday.format(9 + n) for n in (1, 2, 3)}
    starts |= {(1, n): sunday.format(5 + n) for n in (4, 5, 6, 7, 8)}
    starts |= {(0, n): saturday.format(9 + n) for n in (1, 2, 3, 4, 5, 6)}
    file = tom.read(dated_cup(starts))
    juniors, masters = file.divisions
    assert masters.round_days == {1: 1, 2: 1, 3: 1, 4: 2, 5: 2, 6: 2, 7: 2, 8: 2}
    assert juniors.round_days == {n: 1 for n in range(1, 7)}


def test_a_tom_round_without_a_start_time_is_dated_by_its_pairing_time_and_a_file_dating_none_gives_no_days():
    file = tom.read(dated_cup({(1, 1): "05/16/2026 10:00:00", (1, 2): "05/17/2026 09:00:00"}, tag="pairtime"))
    assert file.divisions[1].round_days == {1: 1, 2: 2}
    assert [d.round_days for d in tom.read(sample("tom-cup-two-divisions.tdf")).divisions] == [{}, {}]


def test_a_round_dated_before_the_round_before_it_stays_on_that_rounds_day_and_days_never_skip():
    from datetime import date

    from judgeapp.imports.model import days_of

    assert days_of({1: date(2026, 5, 16), 2: date(2026, 5, 18), 3: date(2026, 5, 15), 4: date(2026, 5, 19)}) == {
        1: 1, 2: 2, 3: 2, 4: 3,
    }  # fmt: skip
