"""The pages of a player's record (correct, merge) and the players page's pages and search, through requests."""

from __future__ import annotations

from sqlalchemy import select

from judgeapp.extensions import db
from judgeapp.models import AuditEntry, Player
from tests.conftest import post_form


def record_url(floor, code: str) -> str:
    return f"/events/{floor['event_id']}/players/{floor['players'][code]}/record"


def test_the_scorekeeper_corrects_a_players_name_and_id_and_the_player_page_shows_them(app, client, floor, login_as):
    login_as(floor["people"]["scorekeeper"][1])
    url = record_url(floor, "P-003")
    answer = post_form(
        client, url, {"name": "Chen Yuwen", "reading": "", "handle": "", "player_code": "P-013", "platform_ids": ""}
    )
    assert answer.status_code == 302
    page = client.get(answer.headers["Location"]).get_data(as_text=True)
    assert "Chen Yuwen" in page and "P-013" in page
    with app.app_context():
        assert db.session.scalar(select(AuditEntry.action).where(AuditEntry.action == "player.correct"))


def test_an_id_another_player_holds_is_refused_at_the_field_with_what_was_typed_kept(app, client, floor, login_as):
    login_as(floor["organizer"][1])
    url = record_url(floor, "P-003")
    answer = post_form(
        client, url, {"name": "Chen Yuwen", "reading": "", "handle": "", "player_code": "P-004", "platform_ids": ""}
    )
    page = answer.get_data(as_text=True)
    assert answer.status_code == 400
    assert 'id="player_code-error"' in page and "Dana Roy" in page
    assert 'value="Chen Yuwen"' in page and 'value="P-004"' in page, "the input is kept"
    with app.app_context():
        assert db.session.get(Player, floor["players"]["P-003"]).name == "Chen Yu"


def test_a_record_is_not_corrected_without_the_forms_csrf_token(app, client, floor, login_as):
    login_as(floor["organizer"][1])
    answer = client.post(record_url(floor, "P-003"), data={"name": "Forged Name", "player_code": "P-003"})
    assert answer.status_code == 400
    with app.app_context():
        assert db.session.get(Player, floor["players"]["P-003"]).name == "Chen Yu"


def test_a_floor_judge_may_not_correct_or_merge_records(app, client, floor, login_as):
    login_as(floor["people"]["floor_judge"][1])
    assert client.get(record_url(floor, "P-003")).status_code == 403
    merge = f"/events/{floor['event_id']}/players/{floor['players']['P-003']}/merge"
    assert client.post(merge, data={"other": "P-004", "reason": "same"}).status_code in (400, 403)
    with app.app_context():
        assert db.session.get(Player, floor["players"]["P-003"]).merged_into_id is None


def test_the_organizer_merges_a_record_into_another_by_its_id_and_the_merged_page_points_there(
    app, client, floor, login_as
):
    login_as(floor["organizer"][1])
    merge = f"/events/{floor['event_id']}/players/{floor['players']['P-003']}/merge"
    answer = post_form(
        client, merge, {"other": "p-004", "reason": "registered twice"}, form_page=record_url(floor, "P-003")
    )
    assert answer.status_code == 302
    assert answer.headers["Location"].endswith(f"/players/{floor['players']['P-004']}")
    merged_page = client.get(f"/events/{floor['event_id']}/players/{floor['players']['P-003']}").get_data(as_text=True)
    assert 'id="merged-into"' in merged_page
    players_page = client.get(f"/events/{floor['event_id']}/players").get_data(as_text=True)
    assert "Chen Yu" not in players_page and "Dana Roy" in players_page


def test_a_merge_into_no_one_is_refused_at_the_field_with_the_reason_kept(app, client, floor, login_as):
    login_as(floor["organizer"][1])
    merge = f"/events/{floor['event_id']}/players/{floor['players']['P-003']}/merge"
    answer = post_form(
        client, merge, {"other": "Nobody Here", "reason": "registered twice"}, form_page=record_url(floor, "P-003")
    )
    page = answer.get_data(as_text=True)
    assert answer.status_code == 400 and 'id="other-error"' in page and 'value="registered twice"' in page


def test_the_players_page_shows_one_page_and_finds_a_player_by_id(app, client, floor, login_as):
    from judgeapp.events.player_records import PER_PAGE

    with app.app_context():
        db.session.add_all(
            Player(event_id=floor["event_id"], name=f"Zed {i:03d}", player_code=f"Z-{i:03d}") for i in range(60)
        )
        db.session.commit()
    login_as(floor["organizer"][1])
    url = f"/events/{floor['event_id']}/players"
    pages = -(-64 // PER_PAGE)
    first = client.get(url).get_data(as_text=True)
    assert first.count('<li class="row">') == PER_PAGE and f"Page 1 of {pages}" in first and "(64)" in first
    last = client.get(url + f"?page={pages}").get_data(as_text=True)
    assert last.count('<li class="row">') == 64 - (pages - 1) * PER_PAGE and "Zed 059" in last
    found = client.get(url + "?q=z-042").get_data(as_text=True)
    assert found.count('<li class="row">') == 1 and "Zed 042" in found and "1 player found" in found
    assert client.get(url + "?page=abc").status_code == 200


def test_a_long_players_page_links_to_the_forms_instead_of_carrying_them_and_add_shows_them(
    app, client, floor, login_as
):
    with app.app_context():
        db.session.add_all(Player(event_id=floor["event_id"], name=f"Zed {i:03d}") for i in range(120))
        db.session.commit()
    login_as(floor["organizer"][1])
    url = f"/events/{floor['event_id']}/players"
    listed = client.get(url).get_data(as_text=True)
    assert 'id="add-links"' in listed and 'id="import"' not in listed
    adding = client.get(url + "?add=1").get_data(as_text=True)
    assert 'id="import"' in adding and 'id="add"' in adding


def test_the_record_page_of_an_event_of_one_division_has_no_division_field(app, client, floor, login_as):
    login_as(floor["organizer"][1])
    page = client.get(record_url(floor, "P-003")).get_data(as_text=True)
    assert 'name="player_code"' in page and 'name="division"' not in page
