"""Spreadsheets and Melee exports read as tournament files (judgeapp.imports.table and .melee): pure, no app.

The sample files under tests/data/imports use invented names and IDs."""

from __future__ import annotations

from pathlib import Path

import pytest

from judgeapp.imports import COLUMN_ROLES, NeedsMapping, UnreadableFile, melee, table

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


# ---- the sample files ------------------------------------------------------------------------------------------------


def test_a_melee_matches_export_gives_its_players_matches_and_byes():
    file = melee.read(sample("melee-pairings.csv"))
    assert counts(file) == {"format": "melee", "players": 5, "rounds": 2, "pairings": 4, "byes": 2}
    assert people(file)[:2] == [("Ada Quill", "900101"), ("Bram Varga", "900102")], "Last, First turned round"
    assert seating(file)[:3] == [(1, 1, ("900101", "900102")), (1, 2, ("900103", "900104")), (1, None, ("900105",))]
    assert rejected(file) == []


def test_a_player_listed_again_in_a_later_melee_standings_phase_is_the_same_player():
    file = melee.read(sample("melee-standings.csv"))
    assert counts(file) == {"format": "melee", "players": 5, "rounds": 0, "pairings": 0, "byes": 0}
    assert rejected(file) == [], "the top cut repeats four players: not duplicates"
    assert people(file)[0] == ("Ada Quill", "900101")
    assert file.players[0].platform_ids == {"melee": "41101"}, "Melee's user ID kept beside the registration ID"


def test_an_english_player_list_gives_names_ids_countries_and_teams_and_formulas_stay_text():
    file = table.read(sample("players-english.csv"))
    assert counts(file) == {"format": "csv", "players": 4, "rounds": 0, "pairings": 0, "byes": 0}
    assert people(file) == [
        ("Hana Orlov", "EX-1001"),
        ("Ives, Jonah", "EX-1002"),
        ("Kit Marrow", "EX-1003"),
        ("=Lena Pike", "EX-1004"),
    ]
    assert [(p.country, p.team) for p in file.players][:2] == [("NZ", "Harbour Lights"), ("CA", None)]


def test_a_pairings_sheet_with_one_row_per_match_gives_matches_byes_and_its_players():
    file = table.read(sample("pairings-one-row-per-match.csv"))
    assert counts(file) == {"format": "csv", "players": 5, "rounds": 2, "pairings": 4, "byes": 2}
    assert ("Milo Trent", "EX-1005") in people(file), "a player named only in the pairings is a player of the file"
    assert (2, None, ("EX-1004",)) in seating(file), "an opponent written BYE is a bye"
    assert rejected(file) == []


def test_a_semicolon_file_saved_by_german_excel_imports_names_and_ids_separately():
    data = sample("players-semicolon-excel-de.csv")
    assert data.startswith(b"\xef\xbb\xbf") and b"\r\n" in data
    file = table.read(data)
    assert people(file) == [
        ("Brandt, Ulla", "DE-2001"),
        ("Keller, Tobias", "DE-2002"),
        ("Zöllner, Änne", "DE-2003"),
        ("Fauré, Maël", "DE-2004"),
    ]
    assert [p.country for p in file.players] == ["DE", "AT", "CH", "FR"]


def test_a_shift_jis_player_list_from_japanese_excel_gives_japanese_names_and_readings():
    data = sample("players-cp932-japanese-excel.csv")
    with pytest.raises(UnicodeDecodeError):
        data.decode("utf-8")
    file = table.read(data)
    assert people(file) == [("森 愛子", "JP-3001"), ("髙田 蓮", "JP-3002"), ("小野寺 ＮＡＯ", "JP-3003")]
    assert [p.reading for p in file.players] == ["モリ アイコ", "タカダ レン", "オノデラ ナオ"], (
        "half-width kana folded"
    )
    assert file.players[0].team == "青葉クラブ"


def test_japanese_seats_make_matches_two_to_a_table_and_a_bye_seat_is_a_bye():
    file = table.read(sample("seats-cp932-japanese-excel.csv"))
    assert counts(file) == {"format": "csv", "players": 5, "rounds": 2, "pairings": 4, "byes": 2}
    assert seating(file)[:3] == [
        (1, 1, ("JP-3001", "JP-3002")),
        (1, 2, ("JP-3003", "JP-3004")),
        (1, None, ("JP-3005",)),
    ]
    assert (2, None, ("JP-3003",)) in seating(file), "a seat with a blank table is a bye"


def test_a_tab_separated_file_gives_names_and_ids():
    file = table.read(sample("players.tsv"))
    assert people(file) == [("Rosa Vennet", "TS-4001"), ("Sami Quarrel", "TS-4002"), ("Teo Wendt", "TS-4003")]


FORMATS = [
    ("melee-pairings.csv", "melee"),
    ("melee-standings.csv", "melee"),
    ("players-english.csv", "csv"),
    ("pairings-one-row-per-match.csv", "csv"),
    ("players-semicolon-excel-de.csv", "csv"),
    ("players-cp932-japanese-excel.csv", "csv"),
    ("seats-cp932-japanese-excel.csv", "csv"),
    ("players-japanese-bushiroad.csv", "csv"),
    ("players.tsv", "csv"),
]


@pytest.mark.parametrize("name, expected", FORMATS)
def test_the_format_is_told_from_the_content_alone(name, expected):
    assert melee.looks_like(sample(name)) is (expected == "melee")


@pytest.mark.parametrize("name, expected", FORMATS)
def test_detect_says_melee_for_melee_exports_and_csv_for_other_spreadsheets(name, expected):
    pytest.importorskip("judgeapp.imports.tom", reason="detect() asks the TOM reader first; it is on its own branch")
    pytest.importorskip("judgeapp.imports.kts", reason="detect() asks the KTS reader first; it is on its own branch")
    from judgeapp.imports import detect

    assert detect(sample(name)) == expected


# ---- the bug and bad rows ------------------------------------------------------------------------------------


def test_a_semicolon_file_is_never_read_as_one_long_name_per_row_and_a_blank_id_is_refused():
    data = b"Name;Player ID\r\nUlla Brandt;DE-2001\r\nTobias Keller;\r\nJana Wirth;DE-2003\r\n"
    file = table.read(data)
    assert people(file) == [("Ulla Brandt", "DE-2001"), ("Jana Wirth", "DE-2003")]
    assert rejected(file) == [{"line": 3, "reason": "the player ID is blank"}]


def test_a_file_without_an_id_column_keys_players_by_exact_name():
    file = table.read(b"name,country\nAiko Mori,JP\nBen Ode,NZ\n")
    assert people(file) == [("Aiko Mori", None), ("Ben Ode", None)]
    assert [p.key for p in file.players] == ["name:Aiko Mori", "name:Ben Ode"]


def test_a_duplicate_player_id_rejects_the_later_row():
    file = table.read(b"name,player id\nAiko Mori,P-1\nBen Ode,P-2\nCara Vell,P-1\n")
    assert people(file) == [("Aiko Mori", "P-1"), ("Ben Ode", "P-2")]
    assert rejected(file) == [{"line": 4, "reason": "player ID P-1 is already given to an earlier player (line 2)"}]


def test_a_row_without_a_name_is_rejected_at_its_line():
    file = table.read(b"name,player id\nAiko Mori,P-1\n,P-2\n")
    assert people(file) == [("Aiko Mori", "P-1")]
    assert rejected(file) == [{"line": 3, "reason": "the player has no name"}]


def test_line_numbers_are_the_files_own_lines_even_after_a_quoted_cell_over_two_lines():
    data = b'name,player id,team\r\n"Aiko Mori",P-1,"Harbour\r\nLights"\r\n\r\nBen Ode,\r\n'
    file = table.read(data)
    assert file.players[0].team == "Harbour Lights"
    assert rejected(file) == [{"line": 5, "reason": "the player ID is blank"}]


def test_old_mac_line_ends_lone_cr_are_lines_too():
    file = table.read(b"name,player id\rAiko Mori,P-1\rBen Ode,P-2\r")
    assert people(file) == [("Aiko Mori", "P-1"), ("Ben Ode", "P-2")]


def test_a_table_that_is_not_a_number_rejects_the_match_and_names_round_and_line():
    data = b"round,table,player id,opponent id\n1,1,P-1,P-2\n1,A,P-3,P-4\n"
    file = table.read(data)
    assert seating(file) == [(1, 1, ("P-1", "P-2"))]
    assert rejected(file) == [{"line": 3, "reason": "round 1: the table 'A' is not a number"}]


def test_a_player_paired_twice_in_one_round_keeps_the_first_match_only():
    data = b"round,table,player id,opponent id\n1,1,P-1,P-2\n1,2,P-3,P-1\n"
    file = table.read(data)
    assert seating(file) == [(1, 1, ("P-1", "P-2"))]
    assert rejected(file) == [{"line": 3, "reason": "round 1: P-1 is already paired in this round (line 2)"}]


def test_a_match_naming_a_player_with_no_name_is_rejected_whole_with_that_player():
    data = b"round,table,player,player id,opponent,opponent id\n1,1,Aiko Mori,P-1,,P-9\n"
    file = table.read(data)
    assert people(file) == [("Aiko Mori", "P-1")] and file.matches == []
    assert {r["reason"] for r in rejected(file)} == {"the player has no name", "round 1: unknown player P-9"}


def test_a_pairings_file_of_ids_only_makes_the_id_stand_for_the_name():
    file = table.read(b"round,table,player id,opponent id\n1,1,P-001,P-002\n")
    assert people(file) == [("P-001", "P-001"), ("P-002", "P-002")]
    assert counts(file)["pairings"] == 1


def test_three_seats_at_one_table_reject_that_tables_seats():
    data = "回戦,卓,氏名\n1,1,森 愛子\n1,1,辻 一颯\n1,1,春日 万智\n1,2,髙田 蓮\n1,2,小野寺 奈央\n".encode()
    file = table.read(data)
    assert seating(file) == [(1, 2, ("name:髙田 蓮", "name:小野寺 奈央"))]
    assert [r["line"] for r in rejected(file)] == [2, 3, 4]
    assert rejected(file)[0]["reason"] == "round 1, table 1: 3 players at this table"


def test_round_and_table_written_the_japanese_way_are_numbers():
    data = "回戦,卓番号,プレイヤーID,対戦相手ID\n第２回戦,３卓,P-1,P-2\n".encode()
    assert seating(table.read(data)) == [(2, 3, ("P-1", "P-2"))]


def test_first_and_last_name_columns_are_joined_into_one_name():
    file = table.read(b"First Name,Last Name,Player ID\nAiko,Mori,P-1\n")
    assert people(file) == [("Aiko Mori", "P-1")]


def test_control_characters_in_cells_are_dropped():
    file = table.read(b"name,player id\nAiko\x07 Mori\x1b,P-1\n")
    assert people(file) == [("Aiko Mori", "P-1")]


# ---- headers: synonyms, mapping, the old headerless upload -----------------------------------------------------------


@pytest.mark.parametrize(
    "header, role",
    [
        ("Player Name", "name"),
        ("ＰＬＡＹＥＲ　ＩＤ", "code"),
        ("pop_id", "code"),
        ("KONAMI ID", "code"),
        ("会員番号", "code"),
        ("ふりがな", "reading"),
        ("国", "country"),
        ("チーム", "team"),
        ("回戦", "round"),
        ("テーブル", "table"),
        ("対戦相手", "name_2"),
        ("Player 2 ID", "code_2"),
        ("姓", "last_name"),
        ("名", "first_name"),
        ("Deck", None),
    ],
)
def test_headers_are_recognised_whatever_their_case_width_or_punctuation(header, role):
    assert table.role_of(header) == role


def test_unknown_headers_ask_for_a_mapping_with_a_preview_and_the_mapping_then_reads_the_file():
    data = b"Seat,Competitor,Membership,Deck\n1,Aiko Mori,P-1,Aggro\n2,Ben Ode,P-2,Control\n"
    with pytest.raises(NeedsMapping) as caught:
        table.read(data)
    asked = caught.value
    assert asked.headers == ["Seat", "Competitor", "Membership", "Deck"]
    assert asked.sample == [["1", "Aiko Mori", "P-1", "Aggro"], ["2", "Ben Ode", "P-2", "Control"]]
    assert set(asked.mapping.values()) <= set(COLUMN_ROLES)

    file = table.read(data, mapping={1: "name", 2: "code"})
    assert people(file) == [("Aiko Mori", "P-1"), ("Ben Ode", "P-2")]


def test_a_mapping_that_names_neither_a_name_nor_an_id_column_asks_again():
    with pytest.raises(NeedsMapping, match="name or the player ID"):
        table.read(b"a,b,c,d\n1,2,3,4\n", mapping={0: "team"})


def test_the_old_players_upload_without_a_header_row_still_works():
    file = table.read(b"Aiko Mori,P-1,Harbour Lights\nBen Ode,P-2,\n")
    assert people(file) == [("Aiko Mori", "P-1"), ("Ben Ode", "P-2")]
    assert file.players[0].team == "Harbour Lights"
    assert file.players[0].where.number == 1, "no header: the first line is a player"


def test_bytes_that_are_no_text_at_all_are_refused_in_one_sentence():
    with pytest.raises(UnreadableFile) as caught:
        table.read(bytes(range(128, 256)) * 4)
    assert "\n" not in str(caught.value)


@pytest.mark.parametrize(
    "data, says",
    [
        (b"PK\x03\x04\x14\x00\x06\x00", "save it as CSV"),
        (b"<?xml version='1.0'?><tournament><players>", "XML or HTML"),
    ],
)
def test_a_workbook_or_unknown_xml_is_refused_not_read_as_a_list_of_odd_names(data, says):
    with pytest.raises(UnreadableFile, match=says):
        table.read(data)


def test_a_melee_file_is_recognised_by_its_header_not_by_a_csv_that_mentions_melee():
    assert not melee.looks_like(b"name,player id\nMelee Team1Id,P-1\n")
    assert melee.looks_like(b"\xef\xbb\xbfRoundNumber,TableNumber,Team1Id,Team1,Team1WinsAndByes,Team2Id,Team2\n")


def test_a_row_with_more_filled_cells_than_the_header_has_columns_is_rejected_not_misread():
    """'Far,Too,Many,Columns' under 'name,player id' is not a player Far with ID Too."""
    from judgeapp.imports import read_tournament_file

    file = read_tournament_file(b"name,player id\nYui Suzuki,P-1\nFar,Too,Many,Columns\nMei Ito,P-2,\n")
    assert [(p.name, p.code) for p in file.players] == [("Yui Suzuki", "P-1"), ("Mei Ito", "P-2")]
    assert file.summary()["rejected"] == [{"line": 3, "reason": "the row has 4 cells but the file has 2 columns"}]


# ---- found by the hostile review of the import ---------------------------------------------------------------------


def read_text(text: str, encoding: str = "utf-8"):
    from judgeapp.imports import read_tournament_file

    return read_tournament_file(text.encode(encoding))


def test_a_file_saved_by_western_european_excel_keeps_every_letter():
    """charset-normalizer took Windows-1252 for Central European cp1250: "Peña" became "Peńa"."""
    file = read_text("Name,Player ID\nJosé Núñez,A1\nHélène Åberg,A2\nSøren Æbelø,A3\n", "cp1252")
    assert [p.name for p in file.players] == ["José Núñez", "Hélène Åberg", "Søren Æbelø"]


@pytest.mark.parametrize(
    "text",
    [
        "Nom;Prénom;Identifiant\nDupont;Marie;F-1\nDupont;Luc;F-2\n",
        "Vorname;Name;Spieler-ID\nMarie;Dupont;F-1\nLuc;Dupont;F-2\n",
        "Nombre;Apellidos;ID\nMarie;Dupont;F-1\nLuc;Dupont;F-2\n",
    ],
)
def test_a_first_name_column_beside_a_name_column_gives_the_whole_name(text):
    file = read_text(text)
    assert [p.name for p in file.players] == ["Marie Dupont", "Luc Dupont"] and file.rejected == []


def test_a_stray_quotation_mark_refuses_the_file_naming_its_line_instead_of_swallowing_the_rest():
    from judgeapp.imports import UnreadableFile

    rows = "".join(f"Player {n},ID{n}\n" for n in range(1, 20))
    with pytest.raises(UnreadableFile, match="quotation mark on line 6"):
        read_text("Name,ID\n" + rows.replace("Player 5,", '"Player 5,'))


def test_empty_columns_a_spreadsheet_pads_with_are_ignored_and_a_very_wide_file_is_refused():
    from judgeapp.imports import UnreadableFile

    padded = read_text("Name;ID" + ";" * 16_382 + "\nAnna;A1\n")
    assert [(p.name, p.code) for p in padded.players] == [("Anna", "A1")]
    with pytest.raises(UnreadableFile, match="has 500 columns"):
        read_text(",".join(f"c{n}" for n in range(500)) + "\n")


def test_rounds_outside_an_events_range_and_over_long_fields_are_rejected_entries_not_errors():
    file = read_text("round,table,player id,opponent id\n31,1,A1,A2\n1,1,A1,A2\n")
    assert [r["reason"] for r in file.summary()["rejected"]] == ["round 31: an event has rounds 1 to 30"]
    assert file.rounds() == [1]
    players = read_text("name,player id,team,country\nAnna,A1," + "T" * 201 + ",JP\nBen,A2,Blue," + "C" * 65 + "\n")
    assert [r["reason"] for r in players.summary()["rejected"]] == [
        "the team is longer than 200 characters",
        "the country is longer than 64 characters",
    ]


def test_a_column_role_chosen_twice_in_the_mapping_asks_again():
    from judgeapp.imports import NeedsMapping, read_tournament_file

    with pytest.raises(NeedsMapping, match="chosen for more than one column"):
        read_tournament_file(b"Nome,Cognome,Tessera\nAda,Rossi,T-1\n", mapping={0: "name", 1: "name", 2: "code"})
    file = read_tournament_file(
        b"Nome,Cognome,Tessera\nAda,Rossi,T-1\n", mapping={0: "first_name", 1: "last_name", 2: "code"}
    )
    assert [(p.name, p.code) for p in file.players] == [("Ada Rossi", "T-1")]


# ---- Japanese player lists: reading, handle, Bushiroad ID ----------------------------------------------------------


def test_a_japanese_list_with_reading_handle_and_bushiroad_id_columns_gives_all_of_them():
    file = table.read(sample("players-japanese-bushiroad.csv"))
    assert counts(file)["players"] == 5 and not rejected(file)
    first, second = file.players[0], file.players[1]
    assert (first.name, first.reading, first.handle) == ("渡辺 一郎", "ワタナベ イチロウ", "ナベ"), (
        "half-width kana folded"
    )
    assert first.code == "12345678901", "the Bushiroad ID is the player ID of a file with no other ID column"
    assert first.platform_ids == {"bushiroad": "12345678901"}, "typed in full-width digits, kept as the same ID"
    assert (second.handle, second.team, second.platform_ids) == ("Hana", "青葉クラブ", {"bushiroad": "12345678902"})
    assert file.players[2].handle is None
    assert set(file.fields) >= {"name", "code", "reading", "handle", "bushiroad"}


def test_a_bushiroad_id_beside_a_player_id_column_is_kept_as_the_players_bushiroad_id_only():
    file = table.read("名前,プレイヤーID,ブシナビID,ニックネーム\n森 愛子,JP-3001,BR-77,あいこ\n".encode())
    player = file.players[0]
    assert (player.code, player.platform_ids, player.handle) == ("JP-3001", {"bushiroad": "BR-77"}, "あいこ")


@pytest.mark.parametrize(
    "header, role",
    [
        ("Handle", "handle"),
        ("Nickname", "handle"),
        ("ハンドルネーム", "handle"),
        ("ニックネーム", "handle"),
        ("Bushiroad ID", "bushiroad"),
        ("ブシロードID", "bushiroad"),
        ("ブシナビＩＤ", "bushiroad"),
    ],
)
def test_handle_and_bushiroad_id_headers_are_recognised_in_english_and_japanese(header, role):
    assert table.role_of(header) == role


def test_an_over_long_handle_is_rejected_with_its_line():
    file = table.read(("name,handle\nAiko Mori," + "x" * 201 + "\n").encode())
    assert rejected(file) == [{"line": 2, "reason": "the handle is longer than 200 characters"}]


# ---- Melee's 2023 standings layout (issue 34) ------------------------------------------------------------------------


def test_a_2023_layout_melee_standings_file_is_read_as_melee_with_one_player_per_person_across_phases():
    data = sample("melee-standings-2023.csv")
    assert melee.looks_like(data), "StandingId, PhaseId, TeamId, PlayerId and Record mark Melee's 2023 layout"
    file = melee.read(data)
    assert counts(file) == {"format": "melee", "players": 7, "rounds": 0, "pairings": 0, "byes": 0}
    assert rejected(file) == [], "the top cut lists four players again: the same people, not duplicates"
    assert ("Ren Sato", "900106") in people(file) and ("Ren Sato", "900107") in people(file), "namesakes both kept"


def test_every_melee_export_identifies_a_person_by_the_same_id():
    layouts = {
        name: {p.name: p for p in melee.read(sample(name)).players}
        for name in ("melee-standings-2023.csv", "melee-standings.csv", "melee-pairings.csv")
    }
    assert {name: players["Ada Quill"].code for name, players in layouts.items()} == dict.fromkeys(layouts, "900101")
    assert layouts["melee-standings-2023.csv"]["Ada Quill"].platform_ids == {"melee": "41101"}
    assert layouts["melee-standings.csv"]["Ada Quill"].platform_ids == {"melee": "41101"}


# ---- columns whose role is unsure, placeholders (issue 34) -----------------------------------------------------------


def test_an_id_column_with_a_header_no_synonym_knows_is_offered_as_the_player_id_not_dropped():
    with pytest.raises(NeedsMapping) as asked:
        table.read(sample("players-wscode.csv"))
    assert "'WSCode'" in str(asked.value)
    assert asked.value.mapping == {0: "name", 1: "code", 2: "country"}, "WSCode preselected as the player ID"
    file = table.read(sample("players-wscode.csv"), mapping=asked.value.mapping)
    assert counts(file) == {"format": "csv", "players": 11, "rounds": 0, "pairings": 0, "byes": 0}
    assert rejected(file) == [], "five pairs of namesakes told apart by their codes"
    assert ("Aoi Fenwick", "WS-100874") in people(file)


def test_placeholders_for_nothing_are_not_stored_as_countries():
    file = table.read(sample("players-wscode.csv"), mapping={0: "name", 1: "code", 2: "country"})
    assert [p.country for p in file.players] == [None, "JP", None, "ES", "GB", None, None, "IT", "JP", "JP", None]


@pytest.mark.parametrize("placeholder", ["No Country Set", "N/A", "n/a", "-", "—", "未設定", "none"])
def test_a_placeholder_is_a_blank_in_any_column(placeholder):
    file = read_text(f"Name,Player ID,Team,Country\nIris Vell,EX-1,{placeholder},{placeholder}\n")
    assert (file.players[0].team, file.players[0].country) == (None, None)


def test_namibias_country_code_is_a_country_not_a_placeholder():
    assert read_text("Name,Player ID,Country\nIris Vell,EX-1,NA\n").players[0].country == "NA"


def test_a_blank_id_written_as_a_placeholder_is_a_blank_id_not_an_id_shared_by_two_players():
    file = read_text("Name,Player ID\nIris Vell,EX-1\nJuno Park,N/A\n")
    assert rejected(file) == [{"line": 3, "reason": "the player ID is blank"}]


def test_row_numbers_ranks_and_scores_are_not_taken_for_ids():
    file = read_text("No.,Name,Player ID,Score\n1,Iris Vell,EX-1,4.5\n2,Juno Park,EX-2,3.0\n3,Kai Rome,EX-3,1.5\n")
    assert counts(file)["players"] == 3


def test_first_and_last_name_columns_that_look_swapped_go_to_the_preview_swapped():
    text = "First name,Last name,Player ID\nTANAKA,Mei,EX-1\nOKORO,Femi,EX-2\nVALE,Iris,EX-3\n"
    with pytest.raises(NeedsMapping) as asked:
        read_text(text)
    assert asked.value.mapping == {0: "last_name", 1: "first_name", 2: "code"}
    right_way = "First name,Last name,Player ID\nMei,TANAKA,EX-1\nFemi,OKORO,EX-2\nIris,VALE,EX-3\n"
    assert [p.name for p in read_text(right_way).players] == ["Mei TANAKA", "Femi OKORO", "Iris VALE"]


def test_a_column_chosen_by_its_header_gives_the_mapping_the_cli_passes():
    data = sample("players-wscode.csv")
    assert table.mapping_of_headers(data, {"code": "wscode"}) == {0: "name", 1: "code", 2: "country"}
    assert table.mapping_of_headers(data, {"team": "Deck"}) == {0: "name", 2: "country", 3: "team"}
    with pytest.raises(UnreadableFile, match="no column KONAMI"):
        table.mapping_of_headers(data, {"code": "KONAMI"})
    with pytest.raises(UnreadableFile, match="kinds are"):
        table.mapping_of_headers(data, {"identity": "WSCode"})
