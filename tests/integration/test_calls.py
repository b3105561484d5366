"""Judge calls end to end over HTTP: the player's table link (no account), the judges' queue and badge, taking,
handing to the head judge, closing, and the call that becomes the incident with its start time."""

import re
from datetime import timedelta

import pytest
from sqlalchemy import select

from judgeapp.extensions import db, limiter
from tests.conftest import CSRF_RE as CSRF
from tests.conftest import PASSWORD, csrf_token, login, post_form
from tests.renders import qr_sheet, report_pdf


@pytest.fixture
def calls(app, floor):
    """The floor fixture with round 1 paired (table 7: Aiko Mori vs Chen Yu) and table 7's call link."""
    from judgeapp.calls import services
    from judgeapp.events.pairing_services import import_pairings
    from judgeapp.models import Event

    with app.app_context(), app.test_request_context():
        event = db.session.get(Event, floor["event_id"])
        import_pairings(
            db.session, actor=event.organizer, event=event, round_number=1, text="7,P-001,P-003\n8,P-002,P-004\n"
        )
        key = services.call_key_of(db.session, event, event.organizer)
        links = {t: f"/call/{event.id}/{t}/{services.signature(key, event.id, t)}" for t in (7, 8)}
        db.session.commit()
    limiter.reset()
    return {**floor, "links": links}


def judge(app, people, role):
    client = app.test_client()
    assert login(client, people[role][1], PASSWORD).status_code == 302
    return client


def text(response):
    return response.get_data(as_text=True)


def raise_call(app, link, **fields):
    player = app.test_client()
    return player, post_form(player, link, {"reason": "rules_question", **fields})


def take(client, event_id, number=1):
    return post_form(client, f"/events/{event_id}/calls/{number}/take", {}, form_page=f"/events/{event_id}/calls")


def incident_fields(**overrides):
    """The incident form as a judge sends it from call #1 at table 7: a Warning for Aiko Mori."""
    fields = {"call": "1", "round": "1", "table": "7", "subject_kind": "player", "player": "P-001"}
    return {**fields, "infraction": "3.5.2", "penalty": "warning", **overrides}


def the_call(app, event_id, number=1):
    from judgeapp.models import JudgeCall

    with app.app_context():
        call = db.session.scalar(select(JudgeCall).where(JudgeCall.event_id == event_id, JudgeCall.number == number))
        if call is not None:
            db.session.expunge(call)
        return call


def test_a_player_calls_from_the_tables_link_and_sees_the_place_in_the_queue_then_that_a_judge_is_coming(app, calls):
    player, answer = raise_call(app, calls["links"][7], note="Does <b>Counter</b> resolve first?")
    assert answer.status_code == 303
    page = text(player.get(calls["links"][7]))
    assert "Your call is in the queue: <strong>next</strong>" in page
    assert 'http-equiv="refresh"' not in page  # a refreshing page would throw a screen reader back to the top
    assert f'<a href="{calls["links"][7]}" class="refresh">Refresh</a>' in page  # by hand without script
    assert "js/call-status.js" in page  # and by itself with it
    assert "&lt;b&gt;" not in page and "Counter" not in page  # the player's own words are not shown back to others

    raise_call(app, calls["links"][8])
    assert "number 2" in text(app.test_client().get(calls["links"][8]))

    floor = judge(app, calls["people"], "floor_judge")
    queue = text(floor.get(f"/events/{calls['event_id']}/calls"))
    assert queue.index("Table 7") < queue.index("Table 8")  # oldest first
    assert "Rules question: “<bdi>Does &lt;b&gt;Counter&lt;/b&gt; resolve first?</bdi>”" in queue  # inert, isolated

    assert take(floor, calls["event_id"]).status_code == 302
    page = text(player.get(calls["links"][7]))
    assert "A judge is coming to table 7" in page
    assert "Floor Judge" not in page  # the player is not told who, nor anything else of the event
    assert "next" in text(app.test_client().get(calls["links"][8]))  # table 8 moved up


def test_repeated_taps_at_one_table_keep_one_call(app, calls):
    player = app.test_client()
    token = csrf_token(player, calls["links"][7])  # the page as it was before the first tap
    for _ in range(4):
        answer = player.post(calls["links"][7], data={"csrf_token": token, "reason": "dispute"})
        assert answer.status_code == 303
    assert "Your call is in the queue: <strong>next</strong>" in text(player.get(calls["links"][7]))
    from judgeapp.models import JudgeCall

    with app.app_context():
        assert db.session.scalar(select(db.func.count()).select_from(JudgeCall)) == 1


def test_a_link_with_a_wrong_signature_or_another_tables_signature_is_not_found(app, calls):
    seven = calls["links"][7]
    eight_with_sevens_signature = seven.replace("/7/", "/8/")
    for url in (seven[:-1] + ("a" if seven[-1] != "a" else "b"), eight_with_sevens_signature, "/call/999/7/abcd"):
        answer = app.test_client().get(url)
        assert answer.status_code == 404
        assert "Regional Qualifier" not in text(answer)


def test_a_tables_calls_are_rate_limited_and_the_refusal_is_a_readable_page(app, calls):
    app.config["CALL_LIMIT_PER_TABLE"] = "2 per 10 minutes"
    floor = judge(app, calls["people"], "floor_judge")
    for number in (1, 2):
        raise_call(app, calls["links"][7])
        take(floor, calls["event_id"], number)
        post_form(
            floor,
            f"/events/{calls['event_id']}/calls/{number}/close",
            {},
            form_page=f"/events/{calls['event_id']}/calls/{number}",
        )
    _, third = raise_call(app, calls["links"][7])
    assert third.status_code == 429
    assert "Too many" in text(third)
    _, other_table = raise_call(app, calls["links"][8])
    assert other_table.status_code == 303  # the limit is the table's


def link_of(app, calls, table):
    from judgeapp.calls import services
    from judgeapp.models import Event

    with app.app_context():
        key = db.session.get(Event, calls["event_id"]).call_key
        return f"/call/{calls['event_id']}/{table}/{services.signature(key, calls['event_id'], table)}"


def test_calls_from_one_address_are_rate_limited_across_tables(app, calls):
    app.config["CALL_LIMIT_PER_ADDRESS"] = "3 per 10 minutes"
    player = app.test_client()
    token = csrf_token(player, calls["links"][7])
    tables = (7, 8, 9, 10)  # a new call at each: the address's fourth is refused
    answers = [player.post(link_of(app, calls, t), data={"csrf_token": token}).status_code for t in tables]
    assert answers[:3] == [303] * 3 and answers[3] == 429


def test_a_closed_events_links_stop_working_and_its_waiting_calls_are_cancelled(app, calls):
    from judgeapp.lifecycles import CallOutcome

    player, _ = raise_call(app, calls["links"][8])
    token = csrf_token(player, calls["links"][7])  # table 7's page, open on a phone as the event closes
    raise_call(app, calls["links"][7])
    organizer = app.test_client()
    login(organizer, calls["organizer"][1])
    with app.app_context():
        from judgeapp.events.round_services import end_round
        from judgeapp.models import Event, Round, User

        event = db.session.get(Event, calls["event_id"])
        rnd = db.session.scalar(select(Round).where(Round.event_id == event.id))
        end_round(db.session, actor=db.session.get(User, calls["organizer"][0]), event=event, rnd=rnd)
        db.session.commit()
    closed = post_form(organizer, f"/events/{calls['event_id']}/close", {"confirm": "y"})
    assert closed.status_code == 302, text(closed)
    assert the_call(app, calls["event_id"], 1).outcome is CallOutcome.CANCELLED
    assert the_call(app, calls["event_id"], 2).outcome is CallOutcome.CANCELLED
    page = app.test_client().get(calls["links"][7])
    assert page.status_code == 409 and "judge calls are closed" in text(page)
    late = player.post(calls["links"][7], data={"csrf_token": token})
    assert late.status_code == 409 and "judge calls are closed" in text(late)
    close_page = f"/events/{calls['event_id']}/close"
    reopened = post_form(
        organizer, f"/events/{calls['event_id']}/reopen", {"reason": "a result was wrong"}, form_page=close_page
    )
    assert reopened.status_code == 302, text(reopened)
    assert "Call a judge to table 7" in text(player.get(calls["links"][7]))  # the same printed codes work again


def test_a_call_a_judge_holds_keeps_the_event_open_until_it_is_closed(app, calls):
    raise_call(app, calls["links"][7])
    take(judge(app, calls["people"], "floor_judge"), calls["event_id"])
    organizer = app.test_client()
    login(organizer, calls["organizer"][1])
    page = text(organizer.get(f"/events/{calls['event_id']}/close"))
    assert "The judge call at table 7 is taken" in page


def test_the_second_judge_to_take_a_call_is_told_who_has_it(app, calls):
    raise_call(app, calls["links"][7])
    first, second = judge(app, calls["people"], "floor_judge"), judge(app, calls["people"], "other_floor")
    assert take(first, calls["event_id"]).status_code == 302
    refused = take(second, calls["event_id"])
    assert refused.status_code == 409
    assert "Floor Judge took the call at table 7 first" in text(refused)
    assert the_call(app, calls["event_id"]).taken_by_id == calls["people"]["floor_judge"][0]


@pytest.mark.db
def test_a_take_sent_from_the_phones_outbox_is_answered_in_json_first_taker_wins(app, calls):
    raise_call(app, calls["links"][7])
    first, second = judge(app, calls["people"], "floor_judge"), judge(app, calls["people"], "other_floor")
    url = f"/events/{calls['event_id']}/calls/1/take"
    sent = lambda c, owner: c.post(  # noqa: E731
        url,
        data={
            "csrf_token": csrf_token(c, f"/events/{calls['event_id']}/calls"),
            "key": "k" * 32,
            "outbox_owner": owner,
        },
        headers={"Accept": "application/json"},
    )
    won = sent(second, str(calls["people"]["other_floor"][0]))
    assert won.status_code == 201 and won.json["ok"]
    again = sent(second, str(calls["people"]["other_floor"][0]))
    assert again.status_code in (200, 201) and again.json["ok"]  # resent: still theirs, nothing more
    lost = sent(first, str(calls["people"]["floor_judge"][0]))
    assert lost.status_code == 409
    assert lost.json["errors"]["call"] == [lost.json["errors"]["call"][0]]
    assert "Other Floor took the call at table 7 first" in lost.json["errors"]["call"][0]


def test_escalating_hands_the_call_to_the_head_judge_whose_badge_counts_it(app, calls):
    raise_call(app, calls["links"][7])
    floor, head = judge(app, calls["people"], "floor_judge"), judge(app, calls["people"], "head_judge")
    assert head.get("/calls/waiting?format=json").json["count"] == 1
    take(floor, calls["event_id"])
    assert head.get("/calls/waiting?format=json").json["count"] == 0
    call_page = f"/events/{calls['event_id']}/calls/1"
    assert post_form(floor, call_page + "/escalate", {}, form_page=call_page).status_code == 302
    assert head.get("/calls/waiting?format=json").json["count"] == 1
    assert "Judge call at table 7 handed to you</strong>\n      by Floor Judge" in text(head.get("/"))  # every page
    assert floor.get("/calls/waiting?format=json").json["count"] == 0  # not the floor's any more
    assert "handed to you" not in text(floor.get("/"))
    assert take(judge(app, calls["people"], "other_floor"), calls["event_id"]).status_code == 409
    assert take(head, calls["event_id"]).status_code == 302
    assert "handed to you" not in text(head.get("/"))  # taken: the banner is gone
    call = the_call(app, calls["event_id"])
    assert (  # the first take stays the floor judge's; the head judge's take is kept beside it
        call.taken_by_id == calls["people"]["floor_judge"][0]
        and call.head_taken_by_id == calls["people"]["head_judge"][0]
        and call.escalated_by_id == calls["people"]["floor_judge"][0]
    )


def test_closing_with_no_incident_records_the_answer_and_frees_the_table_for_a_new_call(app, calls):
    from judgeapp.lifecycles import CallOutcome, CallState

    player, _ = raise_call(app, calls["links"][7])
    floor = judge(app, calls["people"], "floor_judge")
    take(floor, calls["event_id"])
    call_page = f"/events/{calls['event_id']}/calls/1"
    assert "No incident: close the call" in text(floor.get(call_page))
    post_form(floor, call_page + "/close", {}, form_page=call_page)
    call = the_call(app, calls["event_id"])
    assert call.state is CallState.CLOSED and call.outcome is CallOutcome.NO_INCIDENT and call.closed_at
    assert "Call a judge to table 7" in text(player.get(calls["links"][7]))
    raise_call(app, calls["links"][7])
    assert the_call(app, calls["event_id"], 2).state is CallState.OPEN


def test_logging_an_incident_from_a_call_fills_table_round_players_and_start_time_and_closes_the_call(app, calls):
    from judgeapp.lifecycles import CallOutcome

    raise_call(app, calls["links"][7])
    floor = judge(app, calls["people"], "floor_judge")
    take(floor, calls["event_id"])
    raised = the_call(app, calls["event_id"]).raised_at
    form_url = f"/events/{calls['event_id']}/incidents/new?call=1"
    form = text(floor.get(form_url))
    assert 'name="table" type="number" value="7"' in form or re.search(r'name="table"[^>]*value="7"', form)
    assert re.search(r'name="call_started_at" type="hidden" value="' + raised.replace(microsecond=0).isoformat(), form)
    assert 'id="from-call"' in form
    saved = post_form(
        floor,
        f"/events/{calls['event_id']}/incidents/new",
        incident_fields(key="c" * 32, call_started_at=raised.replace(microsecond=0).isoformat()),
        form_page=form_url,
    )
    assert saved.status_code == 302, text(saved)
    call = the_call(app, calls["event_id"])
    assert call.outcome is CallOutcome.INCIDENT and call.incident_id is not None
    incident_page = text(floor.get(saved.headers["Location"]))
    assert "table 7</a>: Aiko Mori vs Chen Yu" in incident_page
    from judgeapp.models import Incident

    with app.app_context():
        incident = db.session.get(Incident, call.incident_id)
        assert incident.table_number == 7 and incident.call_started_at == raised.replace(microsecond=0)


def test_an_incident_saved_after_the_call_was_closed_meanwhile_is_kept_without_the_call(app, calls):
    raise_call(app, calls["links"][7])
    floor, head = judge(app, calls["people"], "floor_judge"), judge(app, calls["people"], "head_judge")
    take(floor, calls["event_id"])
    form_url = f"/events/{calls['event_id']}/incidents/new?call=1"
    token = csrf_token(floor, form_url)
    call_page = f"/events/{calls['event_id']}/calls/1"
    post_form(head, call_page + "/close", {}, form_page=call_page)  # while the floor judge was offline
    saved = floor.post(
        f"/events/{calls['event_id']}/incidents/new",
        data=incident_fields(csrf_token=token, key="d" * 32),
    )
    assert saved.status_code == 302
    assert the_call(app, calls["event_id"]).incident_id is None


def test_a_floor_judge_cannot_log_from_or_close_another_judges_call(app, calls):
    raise_call(app, calls["links"][7])
    take(judge(app, calls["people"], "floor_judge"), calls["event_id"])
    other = judge(app, calls["people"], "other_floor")
    call_page = f"/events/{calls['event_id']}/calls/1"
    page = text(other.get(call_page))
    assert "Log an incident" not in page and "close the call" not in page
    assert post_form(other, call_page + "/close", {}, form_page=call_page).status_code == 403
    form = text(other.get(f"/events/{calls['event_id']}/incidents/new?call=1"))
    assert 'id="from-call"' not in form and "Only the judge who took the call" in form


def test_the_queue_partial_and_the_badge_update_without_a_reload(app, calls):
    floor = judge(app, calls["people"], "floor_judge")
    page = text(floor.get(f"/events/{calls['event_id']}"))
    assert 'id="calls-badge"' in page
    assert floor.get("/calls/waiting?format=json").json["count"] == 0
    raise_call(app, calls["links"][8])
    assert floor.get("/calls/waiting?format=json").json["count"] == 1
    partial = text(floor.get(f"/events/{calls['event_id']}/calls?partial=1"))
    assert "Table 8" in partial and "<html" not in partial
    assert 'id="calls-badge"' not in text(judge(app, calls["people"], "scorekeeper").get("/"))  # no judge, no badge


def test_the_qr_sheet_prints_each_tables_number_and_link_on_a4_and_letter(app, calls, job_worker):
    import subprocess

    organizer = app.test_client()
    login(organizer, calls["organizer"][1])
    for paper, size in (("a4", "(A4)"), ("letter", "612 x 792 pts (letter)")):
        pdf = qr_sheet(organizer, job_worker, calls["event_id"], 7, 8, paper)
        assert pdf.status_code == 200 and pdf.mimetype == "application/pdf"
        words = subprocess.run(["pdftotext", "-", "-"], input=pdf.data, capture_output=True, check=True).stdout.decode()
        assert "Table 7" in words and "Table 8" in words and "Regional Qualifier" in words
        assert calls["links"][7] in words.replace("\n", "")
        info = subprocess.run(["pdfinfo", "-"], input=pdf.data, capture_output=True, check=True).stdout.decode()
        assert size in info
    bad = organizer.get(f"/events/{calls['event_id']}/calls/links?first=9&last=3&format=pdf")
    assert bad.status_code == 400 and "The last table comes after the first" in text(bad)


def test_a_call_sent_without_the_pages_cookie_says_plainly_that_it_was_not_sent_and_offers_the_button_again(app, calls):
    answer = app.test_client().post(calls["links"][7], data={"reason": "dispute"})  # no cookie, no token
    assert answer.status_code == 400
    page = text(answer)
    assert "Your call was not sent" in page and "Call a judge to table 7" in page and 'name="csrf_token"' in page
    assert the_call(app, calls["event_id"]) is None


def test_the_post_event_report_and_csv_give_calls_per_round_and_per_judge_with_waiting_times(app, calls, job_worker):
    import csv
    import io
    import subprocess

    from judgeapp.models import JudgeCall

    floor, other = judge(app, calls["people"], "floor_judge"), judge(app, calls["people"], "other_floor")
    raise_call(app, calls["links"][7], note='=HYPERLINK("http://evil.test","x")')
    raise_call(app, calls["links"][8])
    take(floor, calls["event_id"], 1)
    take(other, calls["event_id"], 2)
    for client, number in ((floor, 1), (other, 2)):
        page = f"/events/{calls['event_id']}/calls/{number}"
        post_form(client, page + "/close", {}, form_page=page)
    with app.app_context():  # known times: waits of 60 s and 180 s, 120 s and 30 s at the table
        for number, wait, stay in ((1, 60, 120), (2, 180, 30)):
            c = db.session.scalar(select(JudgeCall).where(JudgeCall.number == number))
            c.taken_at = c.raised_at + timedelta(seconds=wait)
            c.closed_at = c.taken_at + timedelta(seconds=stay)
        db.session.commit()
    organizer = app.test_client()
    login(organizer, calls["organizer"][1])
    base = f"/events/{calls['event_id']}"
    page = text(organizer.get(f"{base}/report"))
    assert "2 calls from the tables, 2 taken by a judge, 0 with an incident logged." in page
    assert "median 1:00, 90th percentile 3:00; at the table: median 0:30" in page
    cells = ("Floor Judge", "1", "1:00", "1:00", "2:00")  # calls, median wait, 90th percentile, median at the table
    assert "<td>" + '</td><td class="num">'.join(cells) + "</td>" in page
    pdf = report_pdf(organizer, job_worker, calls["event_id"])
    words = " ".join(
        subprocess.run(["pdftotext", "-", "-"], input=pdf.data, capture_output=True).stdout.decode().split()
    )
    assert "Judge calls (2)" in words and "median 1:00, 90th percentile 3:00" in words
    body = organizer.get(f"{base}/export/judge-calls.csv").get_data(as_text=True)
    rows = list(csv.reader(io.StringIO(body.removeprefix("\ufeff"))))  # a BOM, for Excel
    header, first = rows[0], rows[1]
    assert header[:4] == ["event", "call", "round", "table"] and len(rows) == 3
    row = dict(zip(header, first, strict=True))
    assert row["table"] == "7" and row["taken by"] == "Floor Judge" and row["outcome"] == "no incident"
    assert (row["waiting seconds"], row["at the table seconds"]) == ("60", "120")
    assert row["player's note"].startswith("'=HYPERLINK")  # neutralised: a spreadsheet shows it as text


@pytest.mark.parametrize("number", ["99999999999999999999999", "-1", "1e5", "٣", "2147483648"])
def test_a_call_number_no_record_can_have_opens_a_plain_incident_form_and_saves_without_a_call(app, calls, number):
    floor = judge(app, calls["people"], "floor_judge")
    form_url = f"/events/{calls['event_id']}/incidents/new"
    opened = floor.get(f"{form_url}?call={number}")
    assert opened.status_code == 200 and 'id="from-call"' not in text(opened)
    saved = floor.post(
        form_url, data=incident_fields(csrf_token=csrf_token(floor, form_url), key="e" * 32, call=number)
    )
    assert saved.status_code == 302  # the incident is kept; no call to close


def test_the_head_judge_closes_a_call_nobody_took_as_cancelled_which_a_floor_judge_may_not(app, calls):
    from judgeapp.lifecycles import CallOutcome

    raise_call(app, calls["links"][7])
    page = f"/events/{calls['event_id']}/calls/1"
    floor, head = judge(app, calls["people"], "floor_judge"), judge(app, calls["people"], "head_judge")
    assert "Close without a judge" not in text(floor.get(page))
    refused = post_form(floor, page + "/close", {}, form_page=page)
    assert refused.status_code == 409 and "only the head judge may act on it now" in text(refused)
    assert "Close without a judge" in text(head.get(page))
    assert post_form(head, page + "/close", {}, form_page=page).status_code == 302
    call = the_call(app, calls["event_id"])
    assert call.outcome is CallOutcome.CANCELLED and call.taken_by_id is None


def test_the_badge_leads_to_the_queue_of_the_one_event_or_lists_the_events_the_judge_works_at(
    app, calls, make_event, give_role
):
    floor = judge(app, calls["people"], "floor_judge")
    only = floor.get("/calls/waiting")
    assert only.status_code == 302 and only.headers["Location"].endswith(f"/events/{calls['event_id']}/calls")
    other = make_event(name="Second Cup")
    give_role(other, calls["people"]["floor_judge"][0], "floor_judge")
    listing = text(floor.get("/calls/waiting"))
    assert "Regional Qualifier" in listing and "Second Cup" in listing


def test_the_links_page_writes_each_link_out_with_a_wrap_point_after_each_slash(app, calls):
    """On a narrow screen a link written out wraps after a slash (<wbr>), not at any letter; the address is the same."""
    scorekeeper = judge(app, calls["people"], "scorekeeper")
    page = text(scorekeeper.get(f"/events/{calls['event_id']}/calls/links"))
    link = calls["links"][8]
    shown = re.search(rf'href="([^"]*{re.escape(link)})"[^>]*>([^<]*(?:<wbr>[^<]*)+)</a>', page)
    assert shown and shown.group(2).replace("<wbr>", "") == shown.group(1)
    assert shown.group(2).count("/<wbr>") == link.count("/")


def test_the_links_page_offers_every_table_in_play_and_refuses_a_sheet_too_large(app, calls):
    scorekeeper = judge(app, calls["people"], "scorekeeper")
    base = f"/events/{calls['event_id']}/calls/links"
    page = text(scorekeeper.get(base))
    assert 'name="first" type="number" value="1"' in page or re.search(r'name="first"[^>]*value="1"', page)
    assert re.search(r'name="last"[^>]*value="8"', page)  # the pairings' highest table
    assert calls["links"][8] in page
    too_many = scorekeeper.get(f"{base}?first=1&last=600&paper=a4")
    assert too_many.status_code == 400 and "At most 500 tables on one sheet" in text(too_many)
    assert scorekeeper.get(f"{base}?first=x&last=2").status_code == 400


# ---- the player's page under hostile or unlucky use (issue 23's review) ----------------------------------------------


def forged_links(calls):
    """Call links judgeapp never made: a wrong signature, an unknown event, a table out of range."""
    seven = calls["links"][7]
    event_id = calls["event_id"]
    return [
        seven[:-16] + "a" * 16 if not seven.endswith("a" * 16) else seven[:-16] + "b" * 16,
        f"/call/999/7/{'a' * 16}",
        f"/call/{event_id}/0/{'a' * 16}",
        f"/call/{event_id}/100000/{'a' * 16}",
    ]


def test_a_post_to_a_forged_call_link_without_a_token_is_the_same_not_known_page_as_a_get(app, calls):
    for url in forged_links(calls):
        got = app.test_client().get(url)
        posted = app.test_client().post(url, data={"submit": "1"})  # no cookie, no CSRF token: a script's post
        assert (got.status_code, posted.status_code) == (404, 404), url
        assert "This call link is not known" in text(posted)
        assert text(posted) == text(got)


def test_a_post_without_a_token_after_the_event_closed_says_judge_calls_are_closed(app, calls):
    with app.app_context():
        from judgeapp.models import Event, utcnow

        db.session.get(Event, calls["event_id"]).closed_at = utcnow()
        db.session.commit()
    late = app.test_client().post(calls["links"][7], data={"submit": "1"})  # the page's cookie lost, or a script
    assert late.status_code == 409
    page = text(late)
    assert "judge calls are closed" in page and "not sent" not in page and 'name="submit"' not in page
    assert the_call(app, calls["event_id"]) is None


PLAYER_PAGE_MUST_NOT = ("js/page.js", "/sw.js", "manifest", "Log out", "Back to my events")


def test_every_error_page_a_player_can_get_is_the_players_own_small_page_with_no_judges_script(app, calls):
    """The judges' page.js registers the service worker for the whole site: a player's phone must never load it."""
    app.config["CALL_LIMIT_PER_TABLE"] = "1 per 10 minutes"
    answers = {
        "not known (GET)": app.test_client().get(forged_links(calls)[0]),
        "not known (POST, no token)": app.test_client().post(forged_links(calls)[0]),
        "no such address": app.test_client().get("/call/1/seven/abc"),
        "method not allowed": app.test_client().put(calls["links"][7]),
        "not sent (no token)": app.test_client().post(calls["links"][7], data={"submit": "1"}),
    }
    raise_call(app, calls["links"][7])
    floor = judge(app, calls["people"], "floor_judge")
    take(floor, calls["event_id"])
    page = f"/events/{calls['event_id']}/calls/1"
    post_form(floor, page + "/close", {}, form_page=page)
    _, answers["too many"] = raise_call(app, calls["links"][7])
    with app.app_context():
        from judgeapp.models import Event, utcnow

        db.session.get(Event, calls["event_id"]).closed_at = utcnow()
        db.session.commit()
    answers["closed"] = app.test_client().get(calls["links"][7])
    statuses = {name: answer.status_code for name, answer in answers.items()}
    assert statuses == {
        "not known (GET)": 404,
        "not known (POST, no token)": 404,
        "no such address": 404,
        "method not allowed": 405,
        "not sent (no token)": 400,
        "too many": 429,
        "closed": 409,
    }
    for name, answer in answers.items():
        html = text(answer)
        assert "call.css" in html, name  # the player's own small stylesheet
        for banned in PLAYER_PAGE_MUST_NOT:
            assert banned not in html, f"{name}: {banned}"
        assert "<script" not in html or "js/call-status.js" in html, name


def test_only_new_calls_count_against_an_address_so_one_script_on_the_venue_wifi_blocks_no_table(app, calls):
    """Players share the venue's public address: forged links, repeated taps on a live call and form errors from it
    use up nothing; the per-table limit stays."""
    app.config["CALL_LIMIT_PER_ADDRESS"] = "3 per 10 minutes"
    script = app.test_client()
    for url in forged_links(calls) * 5:
        assert script.post(url, data={"submit": "1"}).status_code == 404
    for _ in range(5):  # a token from a real page: still a made-up signature
        token = csrf_token(script, calls["links"][7])
        assert script.post(forged_links(calls)[0], data={"csrf_token": token}).status_code == 404
    player = app.test_client()
    token = csrf_token(player, calls["links"][7])
    for _ in range(6):  # the first tap calls; the others add nothing
        assert player.post(calls["links"][7], data={"csrf_token": token}).status_code == 303
    for _ in range(6):
        refused = player.post(calls["links"][8], data={"csrf_token": token, "reason": "bribery"})
        assert refused.status_code == 400
    assert player.post(calls["links"][8], data={"csrf_token": token}).status_code == 303  # the second call
    assert player.post(link_of(app, calls, 9), data={"csrf_token": token}).status_code == 303  # the third
    too_many = player.post(link_of(app, calls, 10), data={"csrf_token": token})
    assert too_many.status_code == 429
    page = text(too_many)
    assert "Raise your hand and call “Judge!” aloud" in page and "this one was not sent" in page
    assert "call.css" in page and "Log out" not in page and "js/page.js" not in page


def test_a_call_the_head_judge_cancels_is_said_on_the_tables_page_with_the_button_to_call_again(app, calls):
    player, _ = raise_call(app, calls["links"][7])
    head = judge(app, calls["people"], "head_judge")
    page = f"/events/{calls['event_id']}/calls/1"
    assert post_form(head, page + "/close", {}, form_page=page).status_code == 302
    shown = text(player.get(calls["links"][7]))
    assert "Your call was closed by the head judge" in shown
    assert 'id="call-status"' in shown and "data-ended" in shown  # the page's script stops asking
    assert "Call a judge to table 7" in shown  # and the button is there to call again
    assert "Your call was closed by the head judge" not in text(app.test_client().get(calls["links"][8]))


def test_a_call_answered_at_the_table_is_not_said_to_be_closed_by_the_head_judge(app, calls):
    player, _ = raise_call(app, calls["links"][7])
    floor = judge(app, calls["people"], "floor_judge")
    take(floor, calls["event_id"])
    page = f"/events/{calls['event_id']}/calls/1"
    post_form(floor, page + "/close", {}, form_page=page)
    shown = text(player.get(calls["links"][7]))
    assert "closed by the head judge" not in shown and "Call a judge to table 7" in shown


BIDI = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c"


def test_text_direction_controls_are_taken_out_of_the_players_note_in_pages_and_csv(app, calls):
    """U+202E made "gnp.exe" read as "exe.png" in the judges' queue; the note keeps its letters, not the controls."""
    raise_call(app, calls["links"][7], note="photo \u202egnp.exe\u202c \u2067x\u2069 \u200eok\u200f")
    call = the_call(app, calls["event_id"])
    assert call.note == "photo gnp.exe x ok"
    floor = judge(app, calls["people"], "floor_judge")
    for url in (f"/events/{calls['event_id']}/calls", f"/events/{calls['event_id']}/calls/1"):
        html = text(floor.get(url))
        assert "gnp.exe" in html and not any(c in html for c in BIDI), url
        assert "<bdi>photo gnp.exe x ok</bdi>" in html, url  # isolated from the text around it
    organizer = app.test_client()
    login(organizer, calls["organizer"][1])
    body = organizer.get(f"/events/{calls['event_id']}/export/judge-calls.csv").get_data(as_text=True)
    assert "photo gnp.exe x ok" in body and not any(c in body for c in BIDI)


def test_the_players_note_stored_before_with_direction_controls_is_shown_without_them(app, calls):
    from judgeapp.models import JudgeCall

    raise_call(app, calls["links"][7], note="old note")
    with app.app_context():  # a note stored before the controls were taken out
        db.session.scalar(select(JudgeCall)).note = "old \u202egnp.exe"
        db.session.commit()
    organizer = app.test_client()
    login(organizer, calls["organizer"][1])
    body = organizer.get(f"/events/{calls['event_id']}/export/judge-calls.csv").get_data(as_text=True)
    assert "old gnp.exe" in body and "\u202e" not in body


def test_without_script_the_players_page_does_not_claim_to_update_by_itself(app, calls):
    player, _ = raise_call(app, calls["links"][7])
    page = text(player.get(calls["links"][7]))
    claim = re.search(r'<span class="auto"( hidden)?>[^<]*updates by itself', page)
    assert claim and claim.group(1) == " hidden"  # call-status.js shows it; without script it stays hidden
    assert page.count("updates by itself") == 1


def test_the_reason_and_the_note_come_before_the_big_button(app, calls):
    page = text(app.test_client().get(calls["links"][7]))
    assert page.index('name="reason"') < page.index('id="submit"')
    assert page.index('id="note"') < page.index('id="submit"')


@pytest.mark.parametrize(
    ("fields", "field", "message"),
    [({"note": "x" * 121}, "note", "characters"), ({"reason": "bribery"}, "reason", "Choose one of the reasons.")],
)
def test_a_form_error_sent_while_the_tables_call_is_live_is_shown_at_its_field(app, calls, fields, field, message):
    raise_call(app, calls["links"][7])  # one player called; another player's page was still open
    other = app.test_client()
    token = csrf_token(other, calls["links"][8])
    refused = other.post(calls["links"][7], data={"csrf_token": token, **fields})
    assert refused.status_code == 400
    page = text(refused)
    assert "Your call is in the queue" in page  # the table's call is live
    error = re.search(rf'<p class="error" id="{field}-error" role="alert">([^<]*)</p>', page)
    assert error and message in error.group(1)
    assert re.search(rf'aria-describedby="{field}-error"', page)


def test_call_links_and_the_qr_sheet_carry_the_configured_public_address_never_the_requests_host(
    app, calls, job_worker
):
    import subprocess

    app.config["JUDGEAPP_BASE_URL"] = "https://judge.example.org/"  # before the worker starts (at its first wait)
    organizer = app.test_client()
    forged = {"base_url": "http://evil.example", "headers": {"X-Forwarded-Host": "evil.example"}}  # the Host header
    token = CSRF.search(text(organizer.get("/login", **forged))).group(1)
    fields = {"csrf_token": token, "email": calls["organizer"][1], "password": PASSWORD}
    assert organizer.post("/login", data=fields, **forged).status_code == 302
    page = text(organizer.get(f"/events/{calls['event_id']}/calls/links?first=7&last=8", **forged))
    assert f'href="https://judge.example.org{calls["links"][7]}"' in page
    assert "evil.example" not in page and "localhost" not in page
    pdf = qr_sheet(organizer, job_worker, calls["event_id"], 7, 8, **forged)
    words = subprocess.run(["pdftotext", "-", "-"], input=pdf.data, capture_output=True, check=True).stdout.decode()
    assert f"https://judge.example.org{calls['links'][7]}" in words.replace("\n", "")
    assert "evil.example" not in words


def test_the_reports_per_judge_table_gives_the_median_and_the_90th_percentile_wait_in_html_and_pdf(
    app, calls, job_worker
):
    import subprocess

    from judgeapp.models import JudgeCall

    floor = judge(app, calls["people"], "floor_judge")
    for number, table in ((1, 7), (2, 8), (3, 7)):
        raise_call(app, link_of(app, calls, table))
        take(floor, calls["event_id"], number)
        page = f"/events/{calls['event_id']}/calls/{number}"
        post_form(floor, page + "/close", {}, form_page=page)
    with app.app_context():  # waits of 1, 2 and 10 minutes: median 2:00, 90th percentile 10:00
        for number, wait in ((1, 60), (2, 120), (3, 600)):
            c = db.session.scalar(select(JudgeCall).where(JudgeCall.number == number))
            c.taken_at = c.raised_at + timedelta(seconds=wait)
            c.closed_at = c.taken_at + timedelta(seconds=30)
        db.session.commit()
    organizer = app.test_client()
    login(organizer, calls["organizer"][1])
    base = f"/events/{calls['event_id']}"
    page = text(organizer.get(f"{base}/report"))
    judges = page[page.index("Judge calls by judge") :]
    assert '<th class="num">Median wait</th><th class="num">90th pct. wait</th>' in judges
    assert '<td>Floor Judge</td><td class="num">3</td><td class="num">2:00</td><td class="num">10:00</td>' in judges
    pdf = report_pdf(organizer, job_worker, calls["event_id"])
    words = " ".join(
        subprocess.run(["pdftotext", "-layout", "-", "-"], input=pdf.data, capture_output=True).stdout.decode().split()
    )
    by_judge = words[words.index("Judge Calls Median 90th pct.") :]  # the narrow column's headings wrap
    assert "Floor 3 2:00 10:00 0:30 0 Judge" in by_judge


def escalated_and_taken_by_the_head_judge(app, calls, first_wait=60):
    """Call #1 at table 7: the floor judge takes it after `first_wait` s, hands it over, the head judge takes it."""
    from judgeapp.models import JudgeCall

    raise_call(app, calls["links"][7])
    floor, head = judge(app, calls["people"], "floor_judge"), judge(app, calls["people"], "head_judge")
    take(floor, calls["event_id"])
    with app.app_context():  # a known first take: `first_wait` seconds after the call
        c = db.session.scalar(select(JudgeCall).where(JudgeCall.number == 1))
        c.raised_at = c.taken_at - timedelta(seconds=first_wait)
        db.session.commit()
    first = the_call(app, calls["event_id"])
    page = f"/events/{calls['event_id']}/calls/1"
    assert post_form(floor, page + "/escalate", {}, form_page=page).status_code == 302
    assert take(head, calls["event_id"]).status_code == 302
    return floor, head, first


def test_the_head_judges_take_of_a_handed_call_keeps_the_first_take_who_and_when(app, calls):
    floor, head, first = escalated_and_taken_by_the_head_judge(app, calls)
    call = the_call(app, calls["event_id"])
    assert (call.taken_by_id, call.taken_at) == (first.taken_by_id, first.taken_at)
    assert call.head_taken_by_id == calls["people"]["head_judge"][0] and call.head_taken_at >= call.escalated_at
    page = text(head.get(f"/events/{calls['event_id']}/calls/1"))
    assert "by Floor Judge (waited 1 min)" in page
    assert re.search(r"<dt>Head judge took it</dt><dd>[\d:]+ by Head Judge</dd>", page)
    queue = text(floor.get(f"/events/{calls['event_id']}/calls"))
    assert "Head Judge has it" in queue  # who has it now
    call_page = f"/events/{calls['event_id']}/calls/1"  # the head judge holds it now, not the floor judge
    assert "Log an incident" not in text(floor.get(call_page))
    assert post_form(floor, call_page + "/close", {}, form_page=call_page).status_code == 403
    assert take(head, calls["event_id"]).status_code == 302  # a resent tap by the holder changes nothing
    assert the_call(app, calls["event_id"]).head_taken_at == call.head_taken_at
    assert post_form(head, call_page + "/close", {}, form_page=call_page).status_code == 302


def test_waiting_time_runs_to_the_first_take_and_the_report_and_csv_show_both_takes(app, calls):
    import csv
    import io

    _, head, _ = escalated_and_taken_by_the_head_judge(app, calls, first_wait=90)
    page = f"/events/{calls['event_id']}/calls/1"
    post_form(head, page + "/close", {}, form_page=page)
    organizer = app.test_client()
    login(organizer, calls["organizer"][1])
    base = f"/events/{calls['event_id']}"
    report = text(organizer.get(f"{base}/report"))
    assert "Waiting for a judge: median 1:30, 90th percentile 1:30" in report
    assert "1 handed to the head judge" in report
    judges = report[report.index("Judge calls by judge") :]
    assert "<td>Floor Judge</td>" in judges and "<td>Head Judge</td>" not in judges  # the first taker's call
    body = organizer.get(f"{base}/export/judge-calls.csv").get_data(as_text=True)
    rows = list(csv.reader(io.StringIO(body.removeprefix("\ufeff"))))
    row = dict(zip(rows[0], rows[1], strict=True))
    assert row["taken by"] == "Floor Judge" and row["waiting seconds"] == "90"
    assert row["head judge"] == "Head Judge" and row["head judge took it"] >= row["handed to the head judge"] != ""


@pytest.mark.db
def test_migration_0013_moves_the_head_judges_take_to_its_own_columns_and_back(app, calls):
    """Before it, the head judge's take overwrote the first; upgrading finds the first take in the audit trail."""
    from flask_migrate import downgrade, stamp, upgrade

    escalated_and_taken_by_the_head_judge(app, calls)
    before = the_call(app, calls["event_id"])
    with app.app_context():
        stamp(revision="c0de23000013")
        downgrade(revision="-1")
        old = db.session.execute(db.text("SELECT taken_by_id, taken_at FROM judge_calls")).one()
        db.session.commit()
        assert old.taken_by_id == calls["people"]["head_judge"][0]  # the schema of 0011: the latest take only
        upgrade(revision="+1")
    after = the_call(app, calls["event_id"])
    assert after.taken_by_id == before.taken_by_id and after.head_taken_by_id == before.head_taken_by_id
    assert abs((after.taken_at - before.taken_at).total_seconds()) < 1  # the audit entry's time of the first take
    assert after.head_taken_at == before.head_taken_at


# ---- the time extension from a call: counted on the server -----------------------------------------------------------


def call_taken_ago(app, calls, seconds):
    """Call #1 at table 7, taken by the floor judge, raised `seconds` ago by the server's clock."""
    from judgeapp.models import JudgeCall, utcnow

    raise_call(app, calls["links"][7])
    floor = judge(app, calls["people"], "floor_judge")
    take(floor, calls["event_id"])
    with app.app_context():
        c = db.session.scalar(select(JudgeCall).where(JudgeCall.number == 1))
        c.raised_at = utcnow() - timedelta(seconds=seconds)
        db.session.commit()
        return floor, c.raised_at


def extensions(app):
    from judgeapp.models import TimeExtension

    with app.app_context():
        return [(e.minutes, e.proposed_minutes, e.adjust_reason) for e in db.session.scalars(select(TimeExtension))]


def save_from_call(floor, calls, **fields):
    form_url = f"/events/{calls['event_id']}/incidents/new?call=1"
    return post_form(floor, f"/events/{calls['event_id']}/incidents/new", incident_fields(**fields), form_page=form_url)


def test_the_minutes_a_fast_phone_filled_in_are_counted_again_on_the_server_from_the_calls_stored_start(app, calls):
    """A phone 5 minutes fast filled in 6 minutes for a 35-second call: the judge did not type them, so the server
    counts the call from its stored start to the save, and owes nothing."""
    floor, raised = call_taken_ago(app, calls, 35)
    forged_start = (raised - timedelta(minutes=20)).replace(microsecond=0).isoformat()
    saved = save_from_call(
        floor, calls, key="f" * 32, extension="6", extension_proposed="1", call_started_at=forged_start
    )
    assert saved.status_code == 302, text(saved)
    assert extensions(app) == []
    from judgeapp.models import Incident

    with app.app_context():
        assert db.session.scalar(select(Incident.call_started_at)) == raised.replace(microsecond=0)


def test_the_minutes_proposed_from_a_long_call_are_the_policys_owed_minutes_counted_at_the_save(app, calls):
    floor, _ = call_taken_ago(app, calls, 3 * 60 + 10)
    saved = save_from_call(floor, calls, key="g" * 32, extension="9", extension_proposed="1")
    assert saved.status_code == 302, text(saved)
    assert extensions(app) == [(4, 4, None)]  # 3:10 rounds up to the next whole minute


def test_a_typed_extension_other_than_the_policys_owed_minutes_needs_a_reason(app, calls):
    floor, _ = call_taken_ago(app, calls, 35)
    refused = save_from_call(floor, calls, key="h" * 32, extension="6")
    assert refused.status_code == 400
    error = re.search(r'id="extension_reason-error" class="error" role="alert">([^<]+)', text(refused))
    assert error and "The policy owes 0 min; say why you give 6" in error.group(1)
    assert extensions(app) == []
    saved = save_from_call(floor, calls, key="h" * 32, extension="6", extension_reason="the judge was slow")
    assert saved.status_code == 302, text(saved)
    assert extensions(app) == [(6, 0, "the judge was slow")]


def test_a_live_lists_answer_says_it_is_one_and_the_badges_answer_lists_the_calls_handed_over(app, calls):
    floor, head = judge(app, calls["people"], "floor_judge"), judge(app, calls["people"], "head_judge")
    base = f"/events/{calls['event_id']}"
    for url in (f"{base}/calls?partial=1", f"{base}/feed?partial=1", f"{base}/appeals?partial=1"):
        assert head.get(url).headers.get("X-Judgeapp-Partial") == "1", url
    assert "X-Judgeapp-Partial" not in head.get(f"{base}/calls").headers  # the whole page is not one
    signed_out = app.test_client().get(f"{base}/calls?partial=1")
    assert signed_out.status_code == 302 and "X-Judgeapp-Partial" not in signed_out.headers
    raise_call(app, calls["links"][7])
    take(floor, calls["event_id"])
    page = f"{base}/calls/1"
    post_form(floor, page + "/escalate", {}, form_page=page)
    handed = head.get("/calls/waiting?format=json").json["handed"]
    assert handed == [{"table": 7, "by": "Floor Judge", "at": handed[0]["at"], "url": page}]
    assert floor.get("/calls/waiting?format=json").json["handed"] == []


def test_the_badge_says_when_the_event_last_changed_so_a_phone_stops_trusting_its_kept_pages(app, calls):
    from tests.integration.test_incidents import log

    head = judge(app, calls["people"], "head_judge")
    before = head.get("/calls/waiting?format=json").get_json()["changed"]
    floor = judge(app, calls["people"], "floor_judge")
    log(floor, calls["event_id"], player="P-001", infraction="3.5.2", penalty="warning")
    after = head.get("/calls/waiting?format=json").get_json()["changed"]
    assert after > before  # badge.js tells the service worker its kept pages are from before this change
