"""TOM (.tdf) and KTS (.Tournament) files read as tournament files (judgeapp.imports.tom and .kts): pure, no app.

The sample files under tests/data/imports use invented names and IDs."""

from __future__ import annotations

import re
from dataclasses import astuple
from pathlib import Path

import pytest

from judgeapp.imports import UnreadableFile, detect, kts, read_tournament_file, tom

DATA = Path(__file__).resolve().parent.parent / "data" / "imports"


def sample(name: str) -> bytes:
    return (DATA / name).read_bytes()


def counts(file) -> dict:
    summary = file.summary()
    return {k: summary[k] for k in ("format", "players", "rounds", "pairings", "byes")}


def people(file) -> list[tuple[str, str | None]]:
    return [(p.name, p.code) for p in file.players]


def seating(file) -> list[tuple[int, int | None, tuple[str, ...]]]:
    return [(m.round, m.table, m.players) for m in file.matches]


def rejected(file) -> list[dict]:
    return file.summary()["rejected"]


def tdf(players: str, rounds: str) -> bytes:
    """A small TOM file, shaped as TOM writes it."""
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<tournament type="2" stage="4" version="1.80" gametype="TRADING_CARD_GAME" mode="LEAGUECHALLENGE">\n'
        f"<data><name>Test Cup</name></data>\n<players>{players}</players>\n"
        f'<pods><pod category="8" stage="4"><rounds>{rounds}</rounds></pod></pods>\n</tournament>\n'
    ).encode()


def tom_player(userid: str, first: str, last: str) -> str:
    return f'<player userid="{userid}"><firstname>{first}</firstname><lastname>{last}</lastname></player>'


def tom_match(a: str, b: str, table: str) -> str:
    return (
        f'<match outcome="1"><player1 userid="{a}"/><player2 userid="{b}"/><tablenumber>{table}</tablenumber></match>'
    )


def tom_round(number: str, *matches: str) -> str:
    return f'<round number="{number}" type="3" stage="4"><matches>{"".join(matches)}</matches></round>'


FOUR = "".join(tom_player(f"800000{i}", f"First{i}", f"Last{i}") for i in range(1, 5))


def tournament(players: str, matches: str) -> bytes:
    """A small KTS file, shaped as KTS writes it."""
    return (
        '<?xml version="1.0" encoding="utf-8"?>\n<Tournament><Name>Test Weekly</Name><TournamentStyleCode>01</'
        f"TournamentStyleCode><CurrentRound>1</CurrentRound><TournamentPlayers>{players}</TournamentPlayers>"
        f"<Matches>{matches}</Matches></Tournament>\n"
    ).encode()


def kts_player(konami_id: str, first: str, last: str) -> str:
    return (
        f"<TournPlayer><Player><ID>{konami_id}</ID><FirstName>{first}</FirstName><LastName>{last}</LastName></Player>"
        "<DropRound>0</DropRound><DropReason>Active</DropReason></TournPlayer>"
    )


def kts_match(a: str, b: str, round_: str, table: str) -> str:
    seats = f"<Player>{a}</Player><Player>{b}</Player>"
    return f"<TournMatch>{seats}<Round>{round_}</Round><Table>{table}</Table></TournMatch>"


# ---- TOM sample files ------------------------------------------------------------------------------------------------


def test_a_tom_file_after_round_one_gives_its_players_pairings_and_the_bye():
    file = tom.read(sample("tom-sample.tdf"))
    assert counts(file) == {"format": "tom", "players": 9, "rounds": 1, "pairings": 4, "byes": 1}
    assert people(file)[:2] == [("Maren Okafor", "9100011"), ("Tobias Lindqvist", "9100012")], "first + last name"
    assert seating(file)[0] == (1, 1, ("9100011", "9100012"))
    assert seating(file)[-1] == (1, None, ("9100019",)), "TOM's bye (one <player>, table 0) has no table"
    assert file.event_name == "Harbourside League Challenge (sample)"
    assert file.players[0].platform_ids == {"pokemon": "9100011"}
    assert rejected(file) == []


def test_the_same_tom_file_saved_after_round_two_gives_one_more_round():
    before, after = tom.read(sample("tom-sample.tdf")), tom.read(sample("tom-sample-round2.tdf"))
    assert counts(after) == {"format": "tom", "players": 9, "rounds": 2, "pairings": 8, "byes": 2}
    assert after.rounds() == [*before.rounds(), 2]
    assert seating(after)[: len(before.matches)] == seating(before), "round 1 reads the same as before"


def test_a_player_who_dropped_in_tom_still_counts_and_their_drop_round_is_not_a_round():
    file = tom.read(sample("tom-sample-dropped.tdf"))
    assert counts(file) == {"format": "tom", "players": 9, "rounds": 3, "pairings": 12, "byes": 2}
    assert [p.name for p in file.players if p.dropped] == ["Lukas Brenner"]
    assert not any("9100016" in m.players for m in file.matches if m.round == 3), "gone after round 2"
    assert rejected(file) == [], "the <standings> and subgroup <player> elements are not more players"


def test_a_dropped_player_with_no_matches_still_counts_and_their_drop_round_adds_no_round():
    dropped = '<player userid="8000009"><firstname>Gone</firstname><lastname>Early</lastname>'
    dropped += "<dropped><status>1</status><round>7</round></dropped></player>"
    file = tom.read(tdf(FOUR + dropped, tom_round("1", tom_match("8000001", "8000002", "1"))))
    assert file.rounds() == [1] and file.summary()["players"] == 5


def test_birth_dates_in_a_tom_file_are_not_kept():
    file = tom.read(sample("tom-sample.tdf"))
    kept = [str(value) for player in file.players for value in astuple(player)]
    assert not any("02/27" in value for value in kept)


# ---- KTS sample file -------------------------------------------------------------------------------------------------


def test_a_kts_file_gives_its_players_pairings_byes_and_the_dropped_player():
    file = kts.read(sample("kts-sample.Tournament"))
    assert counts(file) == {"format": "kts", "players": 7, "rounds": 3, "pairings": 9, "byes": 2}
    assert ("Hana Ferreira", "0031400101") in people(file)
    assert [p.name for p in file.players if p.dropped] == ["Ravi Shankar"]
    assert file.event_name == "Riverside OTS Weekly (sample)"
    assert rejected(file) == []


def test_kts_match_ids_without_leading_zeros_are_the_players_ten_digit_konami_ids():
    file = kts.read(sample("kts-sample.Tournament"))
    assert seating(file)[0] == (1, 1, ("0031400101", "0031400102")), "the file's match says 31400101"
    assert seating(file)[3] == (1, None, ("0031400107",)), "KTS's bye seat (ID 0) makes a bye without a table"
    assert file.players[0].platform_ids == {"konami": file.players[0].code}


def test_the_seating_before_round_one_in_kts_is_not_a_round():
    players = "".join(kts_player(f"00000000{i}", f"F{i}", f"L{i}") for i in range(1, 5))
    file = kts.read(tournament(players, kts_match("1", "2", "0", "1") + kts_match("3", "4", "1", "1")))
    assert file.rounds() == [1] and rejected(file) == []


# ---- bad entries -----------------------------------------------------------------------------------------------------


def test_a_duplicate_player_id_in_tom_rejects_the_later_player():
    file = tom.read(tdf(FOUR + tom_player("8000002", "Someone", "Else"), ""))
    assert [p.name for p in file.players] == ["First1 Last1", "First2 Last2", "First3 Last3", "First4 Last4"]
    assert rejected(file) == [
        {"row": 5, "reason": "player 5: player ID 8000002 is already given to an earlier player (row 2)"}
    ]


def test_a_duplicate_konami_id_rejects_the_later_player():
    players = kts_player("0000000001", "A", "One") + kts_player("1", "B", "Two")
    file = kts.read(tournament(players, ""))
    assert people(file) == [("A One", "0000000001")]
    assert rejected(file)[0]["row"] == 2 and "already given" in rejected(file)[0]["reason"]


def test_a_tom_match_naming_an_unknown_player_is_rejected_whole():
    rounds = tom_round("2", tom_match("8000001", "8000002", "1"), tom_match("8000003", "7777777", "2"))
    file = tom.read(tdf(FOUR, rounds))
    assert seating(file) == [(2, 1, ("8000001", "8000002"))], "8000003 is not left seated alone"
    assert rejected(file) == [{"row": 2, "reason": "match 2 of round 2: unknown player 7777777"}]


def test_a_kts_match_naming_an_unknown_player_is_rejected_whole():
    players = "".join(kts_player(f"00000000{i}", f"F{i}", f"L{i}") for i in range(1, 5))
    file = kts.read(tournament(players, kts_match("1", "2", "1", "1") + kts_match("3", "99", "1", "2")))
    assert len(file.matches) == 1
    assert rejected(file) == [{"row": 2, "reason": "match 2 of round 1: unknown player 0000000099"}]


def test_a_tom_match_whose_table_is_not_a_number_is_rejected_naming_match_and_round():
    rounds = tom_round("2", tom_match("8000001", "8000002", "1"), tom_match("8000003", "8000004", "A"))
    file = tom.read(tdf(FOUR, rounds))
    assert counts(file)["pairings"] == 1
    assert rejected(file) == [{"row": 2, "reason": "match 2 of round 2: table 'A' is not a number"}]


def test_a_kts_match_whose_table_is_not_a_number_is_rejected():
    players = "".join(kts_player(f"00000000{i}", f"F{i}", f"L{i}") for i in range(1, 5))
    file = kts.read(tournament(players, kts_match("1", "2", "1", "1") + kts_match("3", "4", "1", "二")))
    assert rejected(file) == [{"row": 2, "reason": "match 2 of round 1: table '二' is not a number"}]


# ---- files that cannot be read at all --------------------------------------------------------------------------------


def test_a_truncated_tom_file_is_refused_naming_line_and_column():
    data = sample("tom-sample.tdf")
    with pytest.raises(UnreadableFile, match=r"^The file is not complete XML: line \d+, column \d+: .+\.$"):
        tom.read(data[: len(data) // 2])


def test_a_billion_laughs_file_is_refused_as_declaring_entities():
    bomb = (
        '<?xml version="1.0"?><!DOCTYPE tournament [<!ENTITY lol "lol">'
        + "".join(f'<!ENTITY lol{i} "{f"&lol{i - 1};" * 10 if i > 1 else "&lol;" * 10}">' for i in range(1, 10))
        + ']><tournament><players><player userid="1"><firstname>&lol9;</firstname></player></players></tournament>'
    ).encode()
    assert detect(bomb) == "tom", "routed to the XML reader, which refuses it"
    with pytest.raises(UnreadableFile, match="declares XML entities, which judgeapp does not read"):
        read_tournament_file(bomb)


def test_an_external_entity_is_refused_and_nothing_is_fetched():
    xxe = (
        b'<?xml version="1.0"?><!DOCTYPE Tournament [<!ENTITY x SYSTEM "file:///etc/passwd">]>'
        b"<Tournament><TournamentPlayers><TournPlayer><Player><ID>1</ID><FirstName>&x;</FirstName></Player>"
        b"</TournPlayer></TournamentPlayers></Tournament>"
    )
    with pytest.raises(UnreadableFile, match="declares XML entities") as refused:
        kts.read(xxe)
    assert "root:" not in str(refused.value)


def test_a_file_declaring_a_dtd_is_refused():
    with pytest.raises(UnreadableFile, match=r"declares a DTD"):
        tom.read(b'<?xml version="1.0"?><!DOCTYPE tournament SYSTEM "tom.dtd"><tournament><players/></tournament>')


def test_xml_with_another_root_is_refused_by_each_reader():
    with pytest.raises(UnreadableFile, match="not a TOM tournament file"):
        tom.read(sample("kts-sample.Tournament"))
    with pytest.raises(UnreadableFile, match="not a KTS tournament file"):
        kts.read(sample("tom-sample.tdf"))


# ---- detection from the content alone --------------------------------------------------------------------------------


def test_detection_picks_tom_and_kts_from_the_bytes_alone():
    assert detect(sample("tom-sample.tdf")) == "tom"
    assert detect(sample("tom-sample-dropped.tdf")) == "tom"
    assert detect(sample("kts-sample.Tournament")) == "kts", "despite its byte order mark and CRLF lines"
    assert counts(read_tournament_file(sample("kts-sample.Tournament")))["players"] == 7


def test_detection_does_not_take_a_csv_for_tom_or_kts():
    for name in ("players-english.csv", "melee-pairings.csv", "players-semicolon-excel-de.csv"):
        assert detect(sample(name)) not in ("tom", "kts"), name
    assert not tom.looks_like(b"tournament,players,pods\n<data>,1,2\n")
    assert not kts.looks_like(b"Name;Tournament;CurrentRound\n<Tournament>;<CurrentRound>;1\n")


def test_a_round_number_too_large_for_the_database_is_a_rejected_match_not_a_crash():
    from judgeapp.imports import read_tournament_file

    data = (DATA / "tom-sample.tdf").read_bytes().replace(b'<round number="1"', b'<round number="99999999999999999999"')
    file = read_tournament_file(data)
    assert file.rounds() == [] and any("99999999999999999999" in r["reason"] for r in file.summary()["rejected"])


# ---- KTS table offset and team events (issue 34) ---------------------------------------------------------------------


def test_kts_table_offset_is_added_to_every_table_number():
    file = kts.read(sample("kts-table-offset.Tournament"))
    assert counts(file) == {"format": "kts", "players": 6, "rounds": 2, "pairings": 5, "byes": 1}
    assert [(m.round, m.table) for m in file.matches] == [(1, 101), (1, 102), (1, 103), (2, 101), (2, 102), (2, None)]
    assert rejected(file) == []


def test_a_kts_table_offset_that_takes_a_table_past_the_last_number_rejects_that_match():
    players = "".join(kts_player(f"00000000{i}", f"F{i}", f"L{i}") for i in range(1, 5))
    data = tournament(players, kts_match("1", "2", "1", "1") + kts_match("3", "4", "1", "2"))
    file = kts.read(data.replace(b"<CurrentRound>", b"<TableOffset>9998</TableOffset><CurrentRound>"))
    assert [(m.round, m.table) for m in file.matches] == [(1, 9999)]
    assert "10000" in rejected(file)[0]["reason"]


def test_a_kts_team_event_gives_each_member_as_a_player_of_their_team_seated_with_both_teams():
    file = kts.read(sample("kts-team.Tournament"))
    assert counts(file) == {"format": "kts", "players": 9, "rounds": 2, "pairings": 2, "byes": 2}
    assert rejected(file) == []
    first = file.players[0]
    assert (first.name, first.code, first.team) == ("Aiko Morrow", "0041300101", "Lantern Crew")
    assert file.matches[0].table == 21, "table 1 plus the file's TableOffset of 20"
    assert set(file.matches[0].players) == {p.code for p in file.players if p.team in ("Lantern Crew", "Tidewatch")}
    bye = file.matches[1]
    assert bye.is_bye and set(bye.players) == {"0041300301", "0041300302", "0041300303"}, "North Pier's bye"


# ---- KTS playoffs and a team event's division (issue 34) -------------------------------------------------------------


def test_a_kts_team_events_division_is_named_as_the_file_names_the_event():
    file = kts.read(sample("kts-team.Tournament"))
    assert [(d.key, d.name) for d in file.divisions] == [("", "Harbour Hall Team Trios (sample)")]
    assert {p.division for p in file.players} == {""} and {m.division for m in file.matches} == {""}


def test_a_kts_file_of_individual_players_keeps_its_one_division_unnamed_as_before():
    file = kts.read(sample("kts-sample.Tournament"))
    assert [(d.key, d.name) for d in file.divisions] == [("", "")]


def kts_playoff_match(a: str, b: str, round_: str, table: str) -> str:
    seats = f"<Player>{a}</Player><Player>{b}</Player>"
    flag = "<PlayoffMatch>True</PlayoffMatch>"
    return f"<TournMatch>{seats}<Round>{round_}</Round><Table>{table}</Table>{flag}</TournMatch>"


def test_a_kts_playoff_from_its_playoff_round_is_kept_as_the_top_cut_named_by_the_players_it_seats():
    """LibKTS: `<PlayoffRound>` is the first playoff round, and a playoff round is "Top N", N the players it seats."""
    from judgeapp.imports.model import round_label

    players = "".join(kts_player(f"00000000{i}", f"F{i}", f"L{i}") for i in range(1, 9))
    swiss = "".join(kts_match(str(2 * i - 1), str(2 * i), "1", str(i)) for i in range(1, 5))
    semis = kts_playoff_match("1", "3", "2", "1") + kts_playoff_match("5", "7", "2", "2")
    final = kts_playoff_match("1", "5", "3", "1")
    data = tournament(players, swiss + semis + final).replace(
        b"<CurrentRound>", b"<PlayoffRound>2</PlayoffRound><CurrentRound>"
    )
    file = kts.read(data)
    assert rejected(file) == []
    [division] = file.divisions
    assert (division.top_cut_from, division.top_cut_size) == (2, 4)
    assert [round_label(division, n) for n in (1, 2, 3)] == [None, "Top 4, semifinal", "Top 4, final"]


def test_a_single_elimination_kts_event_is_top_cut_from_round_one():
    players = "".join(kts_player(f"00000000{i}", f"F{i}", f"L{i}") for i in range(1, 5))
    matches = kts_playoff_match("1", "2", "1", "1") + kts_playoff_match("3", "4", "1", "2")
    data = tournament(players, matches).replace(b"<CurrentRound>", b"<StructureCode>2</StructureCode><CurrentRound>")
    [division] = kts.read(data).divisions
    assert (division.top_cut_from, division.top_cut_size) == (1, 4)


def test_a_kts_file_without_playoff_round_or_with_zero_has_no_top_cut():
    players = "".join(kts_player(f"00000000{i}", f"F{i}", f"L{i}") for i in range(1, 5))
    data = tournament(players, kts_match("1", "2", "1", "1") + kts_match("3", "4", "1", "2"))
    assert kts.read(data).divisions[0].top_cut_from is None
    zero = data.replace(b"<CurrentRound>", b"<PlayoffRound>0</PlayoffRound><CurrentRound>")
    assert kts.read(zero).divisions[0].top_cut_from is None


# ---- encodings a real file may declare (issue 34) --------------------------------------------------------------------


def declared(name: str, encoding: str) -> str:
    """A sample's text with its XML declaration naming `encoding` (the samples declare UTF-8)."""
    text = sample(name).decode("utf-8-sig")
    return re.sub(r'encoding="[^"]*"', f'encoding="{encoding}"', text, count=1)


@pytest.mark.parametrize(("name", "reader"), [("tom-sample.tdf", "tom"), ("kts-sample.Tournament", "kts")])
def test_an_xml_file_declared_shift_jis_is_read_in_that_encoding_with_its_japanese_names(name, reader):
    """A Japanese Windows tool may save XML in Shift_JIS (CP932) and say so in the declaration; expat reads no
    multi-byte encoding but UTF-8 and UTF-16, and refused it with a ValueError (a 500 at the upload)."""
    first = read_tournament_file(sample(name)).players[0].name
    text = declared(name, "Shift_JIS").replace(first.split()[0], "山田", 1)
    file = read_tournament_file(text.encode("cp932"))
    assert file.format == reader and file.players[0].name.startswith("山田")
    assert counts(file) == counts(read_tournament_file(sample(name)))


@pytest.mark.parametrize("encoding", ["utf-16", "UTF-16"])
def test_an_xml_file_declared_and_saved_as_utf_16_with_its_byte_order_mark_is_read(encoding):
    file = read_tournament_file(declared("kts-sample.Tournament", encoding).encode("utf-16"))
    assert counts(file) == counts(read_tournament_file(sample("kts-sample.Tournament")))


def test_an_xml_file_declaring_an_encoding_no_one_knows_is_refused_in_one_sentence_naming_it():
    with pytest.raises(UnreadableFile) as refused:
        read_tournament_file(declared("tom-sample.tdf", "x-klingon-8").encode())
    assert "x-klingon-8" in str(refused.value)


def test_an_xml_file_whose_bytes_are_not_in_its_declared_encoding_is_refused_in_one_sentence():
    text = declared("tom-sample.tdf", "Shift_JIS").replace("Maren", "Ma\u0301ren", 1)
    data = text.encode("utf-8").replace("Ma\u0301ren".encode(), b"Ma\x81\xff", 1)  # no Shift_JIS character
    with pytest.raises(UnreadableFile) as refused:
        read_tournament_file(data)
    assert "Shift_JIS" in str(refused.value)
