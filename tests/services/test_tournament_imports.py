"""Tournament files applied to an event (judgeapp.events.imports): counts as the issue defines them, idempotent
re-imports, the next round added, a changed round replaced only when the organizer confirms it (with the incidents
already logged in it named), players matched by ID then by exact name. Runs on SQLite and PostgreSQL."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from judgeapp.events import imports
from judgeapp.lifecycles import ImportState
from judgeapp.models import Pairing, Player, TournamentImport

from .conftest import World

pytestmark = pytest.mark.db

# The floor event has Aiko Mori P-001, Ben Ode P-002, Chen Yu P-003 and Dana Roy P-004; the file adds two players.
ROUND_1 = (
    "round,table,player,player id,opponent,opponent id\n"
    "1,1,Aiko Mori,P-001,Ben Ode,P-002\n"
    "1,2,Chen Yu,P-003,Dana Roy,P-004\n"
    "1,,Emi Sato,P-005,,\n"  # a bye
)
ROUND_2 = "2,1,Aiko Mori,P-001,Chen Yu,P-003\n2,2,Ben Ode,P-002,Emi Sato,P-005\n2,,Dana Roy,P-004,,\n"


def apply(world: World, text: str, *, replace_rounds=(), who: str = "organizer") -> imports.ImportOutcome:
    """Upload `text` and apply it as the players page does (one commit after each)."""
    actor = world.user(who)
    upload = imports.receive(world.session, actor=actor, event=world.event, data=text.encode(), filename="t.csv")
    world.session.commit()
    outcome = imports.apply(world.session, actor=actor, event=world.event, upload=upload, replace_rounds=replace_rounds)
    world.session.commit()
    return outcome


def seats(world: World, round_number: int) -> dict[str, int | None]:
    """Player ID → table (None: a bye) in the round's current pairings."""
    rows = world.session.execute(
        select(Player.player_code, Pairing.table_number)
        .join(Player, Player.id == Pairing.player_id)
        .where(
            Pairing.event_id == world.ids["event_id"],
            Pairing.round_number == round_number,
            Pairing.replaced_at.is_(None),
        )
    )
    return dict(rows.all())


def test_a_file_reports_players_rounds_matches_and_byes_as_the_issue_counts_them(world):
    outcome = apply(world, ROUND_1 + ROUND_2)
    report = outcome.report()
    assert {k: report[k] for k in ("format", "players", "rounds", "pairings", "byes", "rejected")} == {
        "format": "csv",
        "players": 5,  # the valid players in the file, not only the new one
        "rounds": 2,
        "pairings": 4,  # two-player matches: never byes, never seats
        "byes": 2,
        "rejected": [],
    }
    assert report["event"]["new_players"] == 1 and report["event"]["rounds_added"] == [1, 2]
    assert seats(world, 1) == {"P-001": 1, "P-002": 1, "P-003": 2, "P-004": 2, "P-005": None}
    assert seats(world, 2) == {"P-001": 1, "P-003": 1, "P-002": 2, "P-005": 2, "P-004": None}
    assert outcome.upload.status is ImportState.APPLIED
    assert [e.details["round"] for e in world.entries("pairings.import")] == [1, 2]


def test_importing_the_same_file_again_changes_nothing(world):
    apply(world, ROUND_1 + ROUND_2)
    players_before = world.count(Player)
    pairings_before = world.count(Pairing)
    entries_before = len(world.entries())

    again = apply(world, ROUND_1 + ROUND_2).report()

    assert again["players"] == 5 and again["event"]["new_players"] == 0
    assert again["event"]["rounds_unchanged"] == [1, 2] and again["event"]["rounds_added"] == []
    assert (world.count(Player), world.count(Pairing)) == (players_before, pairings_before)
    changes = {e.action for e in world.entries()[entries_before:]}
    assert changes == {"import.upload", "import.apply"}, "a re-import writes only that it happened"


def test_the_file_saved_after_the_next_round_adds_that_round_only(world):
    apply(world, ROUND_1)
    outcome = apply(world, ROUND_1 + ROUND_2)
    assert outcome.report()["event"]["rounds_added"] == [2]
    assert outcome.report()["event"]["rounds_unchanged"] == [1]
    assert seats(world, 2)["P-004"] is None


def test_a_changed_round_waits_for_confirmation_naming_the_incidents_logged_in_it(world):
    apply(world, ROUND_1)
    world.log(player="P-003", table=2)  # incident #1, round 1, table 2
    changed = ROUND_1.replace("1,2,Chen Yu,P-003,Dana Roy,P-004", "1,2,Chen Yu,P-003,Emi Sato,P-005").replace(
        "1,,Emi Sato,P-005,,", "1,,Dana Roy,P-004,,"
    )

    waiting = apply(world, changed)

    assert [(c.round, c.tables, [n for n, _, _ in c.incidents]) for c in waiting.changed] == [(1, [0, 2], [1])]
    assert seats(world, 1)["P-004"] == 2, "nothing replaced before the organizer confirms"
    assert waiting.upload.status is ImportState.PENDING
    assert imports.pending_uploads(world.session, world.event) == [waiting.upload]

    confirmed = imports.apply(
        world.session, actor=world.user("organizer"), event=world.event, upload=waiting.upload, replace_rounds={1}
    )
    world.session.commit()

    assert confirmed.rounds_replaced == [1] and confirmed.upload.status is ImportState.APPLIED
    assert seats(world, 1) == {"P-001": 1, "P-002": 1, "P-003": 2, "P-005": 2, "P-004": None}
    replaced = world.session.scalars(select(Pairing).where(Pairing.replaced_at.is_not(None))).all()
    assert sorted(p.player.player_code for p in replaced) == ["P-001", "P-002", "P-003", "P-004", "P-005"]
    assert {p.replaced_by_import_id for p in replaced} == {waiting.upload.id}, "the old pairings are kept, marked"
    assert world.entries("pairings.replace")[0].details["round"] == 1


def test_players_are_matched_by_id_and_by_exact_name_when_the_file_has_no_ids(world):
    from judgeapp.events.player_services import add_player

    add_player(world.session, actor=world.user("organizer"), event=world.event, name="Fumi Hand", player_code=None)
    world.session.commit()
    apply(world, "name,player id,country\nAiko Mori,P-001,JP\nFumi Hand,P-006,JP\n")
    names_only = apply(world, "name\nAiko Mori\nGina New\n")

    codes = dict(world.session.execute(select(Player.name, Player.player_code)).all())
    assert codes["Fumi Hand"] == "P-006", "a player registered by hand without an ID gets the file's ID"
    assert world.player("P-001").country == "JP", "what the file adds fills a known player's empty fields"
    assert names_only.new_players == 1 and world.count(Player) == 6  # Gina New only
    assert world.entries("player.update")[0].details["country"] == "JP"


def test_a_japanese_list_fills_in_the_reading_handle_and_bushiroad_id_of_a_player_registered_by_hand(world):
    from judgeapp.events.player_services import add_player

    add_player(world.session, actor=world.user("organizer"), event=world.event, name="加藤 優", player_code=None)
    world.session.commit()
    outcome = apply(
        world, "氏名,フリガナ,ハンドルネーム,ブシロードID\n加藤 優,ｶﾄｳ ﾕｳ,ゆう,１２３４５\n青木 花子,,Hana,12346\n"
    )

    kato = world.session.scalar(select(Player).where(Player.name == "加藤 優"))
    assert (kato.player_code, kato.reading, kato.handle) == ("12345", "カトウ ユウ", "ゆう")
    assert kato.platform_ids == {"bushiroad": "12345"}
    assert (outcome.new_players, outcome.updated_players) == (1, 1)
    assert world.entries("player.update")[0].details["handle"] == "ゆう"
    again = apply(world, "氏名,フリガナ,ハンドルネーム,ブシロードID\n加藤 優,ｶﾄｳ ﾕｳ,別の名前,12345\n")
    world.session.refresh(kato)
    assert again.updated_players == 0 and kato.handle == "ゆう", "a handle is never overwritten"


def test_a_file_that_cannot_be_read_writes_nothing_and_says_why(world):
    players_before = world.count(Player)
    upload = imports.receive(
        world.session, actor=world.user("organizer"), event=world.event, data=b"<tournament><players>", filename="x"
    )
    with pytest.raises(imports.UnreadableFile):
        imports.apply(world.session, actor=world.user("organizer"), event=world.event, upload=upload)
    world.session.rollback()
    assert world.count(Player) == players_before
    assert world.session.scalars(select(TournamentImport)).all() == []  # the request wrote all or nothing


def test_rounds_beyond_the_events_count_raise_it_with_an_audit_entry(world):
    text = "round,table,player id,opponent id\n" + "".join(f"{r},1,P-001,P-002\n" for r in range(1, 8))
    outcome = apply(world, text)
    assert outcome.rounds_raised_to == 7 and world.event.rounds == 7
    assert world.entries("event.rounds")[0].details == {"before": 5, "after": 7, "because": "import"}


def test_a_players_rounds_show_their_table_and_opponent_or_bye_from_the_imported_pairings(world):
    from judgeapp.events.pairing_services import rounds_of_player

    apply(world, ROUND_1 + ROUND_2)
    rounds = rounds_of_player(world.session, world.event, world.player("P-004"))
    assert [(r.number, r.table, [o.player_code for o in r.opponents], r.started) for r in rounds] == [
        (1, 2, ["P-003"], True),
        (2, None, [], False),  # a bye, in a round the head judge has not started yet
    ]
