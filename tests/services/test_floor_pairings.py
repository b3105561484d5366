"""The imported pairings on the floor: what the phone keeps of them for the incident form, and the incident form's
seat check being advice only (the form's own warning is tested in tests/js/seats.test.mjs and in the browser)."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from judgeapp.events import imports
from judgeapp.models import Player
from judgeapp.offline.services import event_copy

from .conftest import World
from .test_tournament_imports import ROUND_1, apply

pytestmark = pytest.mark.db


def test_a_confirmed_reimport_that_swaps_two_players_changes_the_phones_copy_and_its_stamp(world):
    """Same tables, same counts: only who sits where changed, and the phone must fetch its incident form again."""
    apply(world, ROUND_1)
    before = event_copy(world.session, world.event, frozenset({"floor_judge"}))
    swapped = ROUND_1.replace("1,2,Chen Yu,P-003,Dana Roy,P-004", "1,2,Chen Yu,P-003,Emi Sato,P-005").replace(
        "1,,Emi Sato,P-005,,", "1,,Dana Roy,P-004,,"
    )
    waiting = apply(world, swapped)
    imports.apply(
        world.session, actor=world.user("organizer"), event=world.event, upload=waiting.upload, replace_rounds={1}
    )
    world.session.commit()

    after = event_copy(world.session, world.event, frozenset({"floor_judge"}))

    code = {p.id: p.player_code for p in world.session.scalars(select(Player))}
    assert after["stamp"] != before["stamp"]
    assert sorted(code[i] for i in after["seating"]["2"]) == ["P-003", "P-005"]
    assert [code[i] for i in after["byes"]] == ["P-004"]


def test_an_incident_at_a_table_where_the_pairings_do_not_seat_the_player_is_saved_at_the_table_given(world: World):
    """Aiko Mori plays at table 1; the judge logs her at table 2 (say, a problem in the spectator area)."""
    world.seat("1,P-001,P-002\n2,P-003,P-004\n")

    result = world.log(player="P-001", table=2)

    assert result.created
    assert (result.incident.table_number, [s.player.player_code for s in result.incident.subjects]) == (2, ["P-001"])
