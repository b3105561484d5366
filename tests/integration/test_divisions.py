"""An event of two divisions over HTTP (issue 34): the event page keeps a round clock per division and names a
top-cut round; a division's table link calls to that division's table and the judges' queue names it. The event is
the two-pod TOM Cup sample (invented names)."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import select

from judgeapp.extensions import db, limiter
from tests.conftest import PASSWORD, login, post_form

CUP = Path(__file__).resolve().parent.parent / "data" / "imports" / "tom-cup-two-divisions.tdf"


@pytest.fixture
def cup(app, make_user, make_event):
    """The Cup imported at a new event with a head judge; its ids and the divisions' ids by name."""
    from judgeapp.events import imports
    from judgeapp.events.services import assign_staff
    from judgeapp.models import Division, Event, Role

    head = make_user(name="Head Judge")
    organizer = make_user(organizer=True, name="Organizer")
    event_id = make_event(organizer[0], name="Sampleton Spring Cup", rounds=3)
    with app.app_context():
        event = db.session.get(Event, event_id)
        assign_staff(db.session, actor=event.organizer, event=event, email=head[1], name="", role=Role.HEAD_JUDGE)
        upload = imports.receive(db.session, actor=event.organizer, event=event, data=CUP.read_bytes())
        imports.apply(db.session, actor=event.organizer, event=event, upload=upload)
        divisions = {d.name: d.id for d in db.session.scalars(select(Division).where(Division.event_id == event_id))}
        db.session.commit()
    limiter.reset()
    client = app.test_client()
    assert login(client, head[1], PASSWORD).status_code == 302
    return {"event_id": event_id, "divisions": divisions, "head": client}


def start(cup, division: str):
    page = f"/events/{cup['event_id']}"
    return post_form(cup["head"], f"{page}/rounds", {"division": str(cup["divisions"][division])}, form_page=page)


def test_the_head_judge_starts_each_divisions_rounds_on_its_own_clock_and_a_top_cut_round_is_named(app, cup):
    for _ in range(6):
        assert start(cup, "Masters").status_code == 302
    assert start(cup, "Juniors+Seniors").status_code == 302
    page = cup["head"].get(f"/events/{cup['event_id']}").get_data(as_text=True)
    masters = page[page.index(f'id="division-{cup["divisions"]["Masters"]}"') :]
    juniors = page[page.index(f'id="division-{cup["divisions"]["Juniors+Seniors"]}"') : page.index(masters[:40])]
    assert "Round 1 of 8" in juniors and "Top" not in juniors
    assert "Round 6 of 8 · Top 8, quarterfinal" in masters


def test_a_divisions_table_link_calls_to_that_divisions_table_and_the_queue_names_the_division(app, cup):
    from judgeapp.calls import services as calls
    from judgeapp.models import Event, JudgeCall

    for division in ("Masters", "Juniors+Seniors"):
        start(cup, division)
    with app.app_context(), app.test_request_context():
        event = db.session.get(Event, cup["event_id"])
        [(_, link)] = calls.table_links(db.session, event, event.organizer, 2, 2, cup["divisions"]["Masters"])
        db.session.commit()
    path = link.split("://", 1)[1].split("/", 1)[1]
    player = app.test_client()
    page = player.get(f"/{path}").get_data(as_text=True)
    assert "Sampleton Spring Cup · Masters" in page
    assert post_form(player, f"/{path}", {"reason": "rules_question"}).status_code == 303
    with app.app_context():
        call = db.session.scalar(select(JudgeCall).where(JudgeCall.event_id == cup["event_id"]))
        assert (call.division_id, call.table_number, call.round.division_id) == (
            cup["divisions"]["Masters"], 2, cup["divisions"]["Masters"],
        )  # fmt: skip
    queue = cup["head"].get(f"/events/{cup['event_id']}/calls").get_data(as_text=True)
    assert "Masters · Table 2" in queue


def test_the_pairings_page_shows_and_seats_the_chosen_divisions_round(app, cup):
    from io import BytesIO

    start(cup, "Masters")
    start(cup, "Juniors+Seniors")
    page = f"/events/{cup['event_id']}/pairings?division={cup['divisions']['Masters']}"
    shown = cup["head"].get(page).get_data(as_text=True)
    assert "Juno Juniper" in shown and "Kestrel Kettleby" in shown  # Masters' table 2 of round 1
    assert "Arlo Ambleforth" not in shown  # a Juniors+Seniors player of round 1
    answer = post_form(
        cup["head"], page, {"file": (BytesIO(b"2,9342000,9342001\n"), "seats.csv")}, content_type="multipart/form-data"
    )
    assert answer.status_code == 200  # round 1 runs in both divisions: the chosen one's is seated, no error
    assert "already seated this round" in answer.get_data(as_text=True)


def round_options(html: str) -> list[str]:
    """The round select's option texts, in order."""
    import re

    select = html[html.index('id="round"') :]
    select = select[: select.index("</select>")]
    return [re.sub(r"\s+", " ", text).strip() for text in re.findall(r"<option[^>]*>([^<]*)</option>", select)]


@pytest.mark.parametrize(
    "form", ["/incidents/new", "/deck-checks/new", "/extensions/new"], ids=["incident", "deck check", "time"]
)
def test_the_forms_round_choice_names_each_division_playing_it_and_a_top_cut_round_as_such(app, cup, form):
    for _ in range(6):
        start(cup, "Masters")
    for _ in range(5):
        start(cup, "Juniors+Seniors")
    html = cup["head"].get(f"/events/{cup['event_id']}{form}").get_data(as_text=True)
    options = round_options(html)
    assert options[:3] == [
        "Round 6 · Masters: Top 8, quarterfinal",
        "Round 5 · Juniors+Seniors: Top 4, semifinal · Masters",
        "Round 4 · Juniors+Seniors · Masters",
    ]
    assert options[-1] == "Round 1 · Juniors+Seniors · Masters"
