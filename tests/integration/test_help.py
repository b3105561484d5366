"""The judge's guide inside the app (judgeapp/help): a page per role in each language, and every page's "?" leading
to the part of it about that page."""

from __future__ import annotations

import re

import pytest
from sqlalchemy import update

from judgeapp.extensions import db
from judgeapp.help.topics import GUIDES, HELP_FOR, NO_HELP
from judgeapp.models import User
from tests.conftest import login

LANGUAGES = ("en", "ja")
STAFF_GUIDES = [g for g in GUIDES if g != "player"]


def signed_in(app, email, language="en"):
    with app.app_context():
        db.session.execute(update(User).where(User.email == email).values(locale=language))
        db.session.commit()
    client = app.test_client()
    assert login(client, email).status_code == 302
    return client


def guide_url(guide):
    return "/help/player" if guide == "player" else f"/help/{guide}"


def help_link(html):
    found = re.search(r'<a href="([^"]*)" id="help-link"', html)
    return found and found.group(1)


def test_every_page_of_the_app_has_a_part_of_the_guide_or_is_listed_as_having_none(app):
    pages = {rule.endpoint for rule in app.url_map.iter_rules() if "GET" in rule.methods}
    without = {e for e in pages if e not in HELP_FOR and e not in NO_HELP and not e.startswith("help.")}
    assert without == set(), "add these endpoints to judgeapp/help/topics.py (HELP_FOR, or NO_HELP with why)"
    assert set(HELP_FOR) - pages == set(), "rows for pages that are gone"


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_part_the_question_marks_lead_to_is_in_the_guide_of_each_language(app, make_user, language):
    _, email = make_user()
    client = signed_in(app, email, language)
    for guide, anchor in sorted(set(HELP_FOR.values())):
        response = client.get(guide_url(guide))
        assert response.status_code == 200
        html = response.get_data(as_text=True)
        assert f'<html lang="{language}"' in html
        assert f'id="{anchor}"' in html, f"{guide} in {language} has no part #{anchor}"


def test_the_guides_are_written_in_the_language_of_the_account(app, make_user):
    _, email = make_user()
    english = signed_in(app, email, "en").get("/help/floor-judge").get_data(as_text=True)
    japanese = signed_in(app, email, "ja").get("/help/floor-judge").get_data(as_text=True)
    assert '<h2 id="log-a-penalty">Log a penalty</h2>' in english
    assert '<h2 id="log-a-penalty">違反を記録する</h2>' in japanese
    assert "Log a penalty" not in japanese
    # the screenshots the browser tests took (make help-shots), of the pages in the same language
    assert '<img src="/static/help/en/incident-form.png' in english
    assert '<img src="/static/help/ja/incident-form.png' in japanese


def test_the_question_mark_on_a_page_leads_to_the_part_of_the_guide_about_it(app, make_user, make_event, give_role):
    organizer_id, organizer = make_user(organizer=True)
    event_id = make_event(organizer_id)
    judge_id, judge = make_user()
    give_role(event_id, judge_id, "floor_judge")
    client = signed_in(app, judge)
    assert help_link(client.get(f"/events/{event_id}/incidents/new").get_data(as_text=True)) == (
        "/help/floor-judge#log-a-penalty"
    )
    assert help_link(client.get(f"/events/{event_id}/extensions/new").get_data(as_text=True)) == (
        "/help/floor-judge#give-time"
    )
    assert help_link(client.get(f"/events/{event_id}/deck-checks/new").get_data(as_text=True)) == (
        "/help/floor-judge#start-a-deck-check"
    )
    boss = signed_in(app, organizer)
    assert help_link(boss.get(f"/events/{event_id}/close").get_data(as_text=True)) == (
        "/help/organizer#close-the-event"
    )
    assert help_link(boss.get(f"/events/{event_id}/players").get_data(as_text=True)) == (
        "/help/organizer#import-pairings"
    )
    # a page of the guide itself leads to the guide's contents
    assert help_link(client.get("/help/head-judge").get_data(as_text=True)) == "/help/"


def test_the_staff_guides_need_an_account_and_the_players_guide_needs_none(app, make_user):
    signed_out = app.test_client()
    for guide in STAFF_GUIDES:
        response = signed_out.get(guide_url(guide))
        assert response.status_code == 302 and "/login" in response.headers["Location"]
    assert signed_out.get("/help/").status_code == 302
    player = signed_out.get("/help/player")
    assert player.status_code == 200
    html = player.get_data(as_text=True)
    assert 'id="call-a-judge"' in html
    assert "<nav" not in html and "<script" not in html  # small like the call page: no judge menu, no script


def test_the_players_call_page_links_to_the_players_guide(app, make_user, make_event):
    from judgeapp.calls import services
    from judgeapp.models import Event

    organizer_id, _ = make_user(organizer=True)
    event_id = make_event(organizer_id)
    with app.app_context():
        event = db.session.get(Event, event_id)
        key = services.call_key_of(db.session, event, event.organizer)
        db.session.commit()
        url = f"/call/{event_id}/3/{services.signature(key, event_id, 3)}"
    html = app.test_client().get(url).get_data(as_text=True)
    assert help_link(html) == "/help/player#call-a-judge"


def test_a_guide_that_is_not_one_is_not_found(app, make_user):
    _, email = make_user()
    assert signed_in(app, email).get("/help/scorekeeper").status_code == 404
