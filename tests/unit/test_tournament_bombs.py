"""Issue 32, tournament files: the reader of each format is bounded before it builds anything (no catastrophic
regular expression, XML depth and element counts, CSV rows, columns and cell lengths) and keeps its rejections up
to a cap plus a count. Every file here is read by the real reader in its limited process (judgeapp.sandbox), so a
reader that still ran away would fail the test with a refusal instead of hanging it."""

import pytest

from judgeapp.imports import MAX_REJECTED, UnreadableFile, detect, read_tournament_file, xmlfile
from judgeapp.imports import table as csv_table
from judgeapp.sandbox import Limits, run_limited

TOM_HEAD = '<?xml version="1.0"?>\n<tournament type="2" gametype="TRADING_CARD_GAME">\n<data><name>Open</name></data>\n'


def test_a_doctype_of_40_bracket_groups_is_detected_in_linear_time_not_97_seconds():
    """`<!DOCTYPE ` and `[a]` 30 times took 97 s in `_PROLOG` (and held the GIL); 40 fit in the 4 KB head. Run in a
    process limited to 10 s of CPU: the old expression is refused there, the new one answers at once."""
    data = b"<!DOCTYPE " + b"[a]" * 40
    assert run_limited(detect, data, limits_=Limits(cpu_seconds=10, memory_mb=256, wall_seconds=120)) == "csv"
    assert xmlfile.root_name("<!DOCTYPE " + "[a]" * 40 + "><tournament>") == "tournament"
    assert xmlfile.root_name('<?xml version="1.0"?><!DOCTYPE t [<!ENTITY a "b">]><tournament>') == "tournament"


def test_a_deeply_nested_tom_file_is_refused_before_its_tree_is_built():
    """A 16 MB deeply nested TOM file cost 4 s and 785 MB; nesting is refused past 32 levels, at any size."""
    depth = 200_000
    data = (TOM_HEAD + "<players>" + "<a>" * depth + "</a>" * depth + "</players></tournament>").encode()
    with pytest.raises(UnreadableFile) as err:
        read_tournament_file(data)
    assert str(err.value) == "The file nests elements more than 32 deep (line 4); tournament files do not."


def test_an_xml_file_of_more_elements_than_the_cap_is_refused(monkeypatch):
    monkeypatch.setattr(xmlfile, "MAX_ELEMENTS", 1_000)  # the child is forked: it reads the lowered cap
    data = (TOM_HEAD + "<players>" + "<x/>" * 1_000 + "</players></tournament>").encode()
    with pytest.raises(UnreadableFile) as err:
        read_tournament_file(data)
    assert str(err.value) == "The file has more than 1000 elements; judgeapp reads files of up to that many."


def test_a_tom_file_of_duplicate_players_keeps_200_rejections_and_counts_the_rest():
    """419,000 duplicate players (8 MB) took 18.6 s, every rejection formatted and stored; now the first
    MAX_REJECTED are kept and the rest counted (bench/policy_upload.py times the full size)."""
    players = 20_000
    data = (
        TOM_HEAD
        + "<players>"
        + '<player userid="7"><firstname>Rin</firstname></player>' * players
        + "</players></tournament>"
    ).encode()
    file = read_tournament_file(data)
    assert [p.code for p in file.players] == ["7"]
    assert len(file.rejected) == MAX_REJECTED == 200
    assert file.rejected_more == players - 1 - MAX_REJECTED
    assert file.rejected[0].reason == "player 2: player ID 7 is already given to an earlier player (row 1)"
    assert file.summary()["rejected_more"] == players - 1 - MAX_REJECTED


def test_a_csv_of_100000_rejected_rows_keeps_200_and_counts_the_rest():
    data = ("name,code\n" + "a,\n" * 100_000).encode()
    file = read_tournament_file(data)
    assert [p.name for p in file.players] == ["a"]  # the first; every other row repeats its name
    assert len(file.rejected) == 200 and file.rejected_more == 100_000 - 1 - 200
    assert len(file.summary()["rejected"]) == 200


def test_a_csv_is_bounded_in_rows_columns_and_cell_length(monkeypatch):
    monkeypatch.setattr(csv_table, "MAX_ROWS", 1_000)
    with pytest.raises(UnreadableFile) as rows:
        read_tournament_file(("name,code\n" + "".join(f"P{n},C{n}\n" for n in range(1_000))).encode())
    assert str(rows.value) == "The file has more than 1000 rows; judgeapp reads files of up to that many."
    with pytest.raises(UnreadableFile) as columns:
        read_tournament_file(("name,code\nAi,C1\nBo,C2," + ",".join(["x"] * 120) + "\n").encode())
    assert str(columns.value) == "Line 3 has 122 columns; a players or pairings file has a few (at most 100)."
    with pytest.raises(UnreadableFile) as cell:
        read_tournament_file(("name,code\nAi,C1\n" + "B" * 1_001 + ",C2\n").encode())
    assert str(cell.value) == "Line 3 has a cell longer than 1000 characters; names and IDs are far shorter."


def test_a_reader_that_crashes_or_runs_away_is_an_unreadable_file_not_a_dead_worker(monkeypatch):
    def runaway(data, *, mapping=None):
        while True:
            pass

    import judgeapp.imports as imports

    monkeypatch.setattr(imports, "_read", runaway)
    monkeypatch.setitem(imports.run_limited.__globals__["DEFAULTS"], "PARSE_CPU_SECONDS", 1)
    with pytest.raises(UnreadableFile) as err:
        read_tournament_file(b"name,code\nAi,C1\n")
    assert str(err.value) == "The file took too long to read; it is not a file judgeapp can use."
