"""What a new judge met on the phone (issue 21's walkthrough), fixed one by one: each test names what the judge
relies on."""

import re

from tests.conftest import PASSWORD, login
from tests.integration.test_investigations import dq  # noqa: F401  (fixture)


def signed_in(app, email):
    client = app.test_client()
    assert login(client, email, PASSWORD).status_code == 302
    return client


def test_the_headers_rules_link_opens_the_events_own_policy_at_the_events_level(app, make_user, make_event, give_role):
    judge = make_user(name="Wot Judge")
    wot = make_event(name="Wheel Open", policy_id="wot-ccg", level=1)
    bushiroad = make_event(name="Bushiroad Cup", level=3)
    for event_id in (wot, bushiroad):
        give_role(event_id, judge[0], "floor_judge")
    client = signed_in(app, judge[1])
    for event_id, want in ((wot, "/reference/wot-ccg?level=1"), (bushiroad, "/reference/bushiroad-afr?level=3")):
        page = client.get(f"/events/{event_id}").get_data(as_text=True)
        link = re.search(r'<a href="([^"]+)" id="rules-link">', page).group(1)
        assert link.replace("&amp;", "&") == want
    home = client.get("/").get_data(as_text=True)
    assert re.search(r'<a href="/reference/" id="rules-link">', home)  # no event: every policy, the first shown


def test_another_incident_after_a_save_keeps_the_round_and_table_and_clears_the_player(app, floor):
    from tests.integration.test_incidents import log

    judge = signed_in(app, floor["people"]["floor_judge"][1])
    saved = log(judge, floor["event_id"], player="P-001", table=2, infraction="3.5.2", penalty="warning")
    assert saved.status_code == 302, re.findall(r"class=\"error\"[^<]*", saved.get_data(as_text=True))
    head = signed_in(app, floor["people"]["head_judge"][1])
    from tests.conftest import post_form

    event = f"/events/{floor['event_id']}"
    assert post_form(head, f"{event}/rounds", {}, form_page=event).status_code == 302  # round 2 is now current
    page = judge.get(saved.headers["Location"]).get_data(as_text=True)
    link = re.search(r'id="another-incident" href="([^"]+)"', page).group(1).replace("&amp;", "&")
    form = judge.get(link).get_data(as_text=True)
    assert re.search(r'<option selected value="1">Round 1</option>', form)  # the saved incident's round, not round 2
    assert re.search(r'name="table"[^>]*value="2"', form)
    assert re.search(r'<input [^>]*name="player" type="text" value="">', form)  # a new player, typed afresh


def test_the_statement_link_tells_the_witness_who_asks_why_what_happens_to_the_text_and_until_when(app, dq):
    from tests.integration.test_investigations import make_link

    page = app.test_client().get(f"/statement/{make_link(dq['head'], dq)}").get_data(as_text=True)
    intro = page[page.index('id="statement-intro"') :]
    assert "Hello Eve Witness" in intro and "<strong>Head Judge</strong>, the head judge of" in intro  # who asks
    assert "may lead to a disqualification" in intro  # why
    assert "disqualification report, which the organizer may send to the game's publisher" in intro  # what happens
    assert "cannot be changed" in intro and re.search(r"This link works until \d{4}-\d\d-\d\d \d\d:\d\d", intro)


def test_the_head_judge_sees_on_the_event_page_what_keeps_the_event_from_closing(app, floor):
    from tests.conftest import post_form

    head = signed_in(app, floor["people"]["head_judge"][1])
    event = f"/events/{floor['event_id']}"
    page = head.get(event).get_data(as_text=True)
    keeps = page[page.index('id="keeps-open"') : page.index("</details>", page.index('id="keeps-open"'))]
    assert "Round 1 is still being played" in keeps  # the close page's own reasons, with links
    assert post_form(head, f"{event}/rounds/1/end", {}, form_page=event).status_code == 302  # ended early
    page = head.get(event).get_data(as_text=True)
    assert "Nothing keeps the event open" in page
    floor_judge = signed_in(app, floor["people"]["floor_judge"][1])
    assert 'id="keeps-open"' not in floor_judge.get(event).get_data(as_text=True)  # the head judge's to see


def test_a_deck_check_offers_to_log_a_problem_for_each_player_checked_with_table_round_and_player_filled_in(app, floor):
    from tests.integration.test_time_and_deck_checks import start_check

    judge = signed_in(app, floor["people"]["floor_judge"][1])
    check_url = start_check(judge, floor["event_id"], table=2, player_1="P-002").headers["Location"]
    page = judge.get(check_url).get_data(as_text=True)
    link = re.search(r'href="([^"]+)">Log a deck problem \(3\.1\): Ben Ode</a>', page).group(1).replace("&amp;", "&")
    form = judge.get(link).get_data(as_text=True)
    assert re.search(r'<input [^>]*name="player" type="text" value="Ben Ode · P-002">', form)
    assert re.search(r'name="table"[^>]*value="2"', form) and re.search(r'name="deck_check_id"[^>]*value="\d+"', form)
    other = judge.get(f"/events/{floor['event_id']}/incidents/new?player_id=999999").get_data(as_text=True)
    assert re.search(r'<input [^>]*name="player" type="text" value="">', other)  # not this event's: left empty
