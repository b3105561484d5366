"""Compressed pages that give nothing away (BREACH).

Over HTTPS an attacker who can put text in a page (a search, a form sent back with its input) and watch the
compressed size of the answers learns a secret the page repeats, a few characters at a time. So the CSRF token is
sent masked afresh in every answer (a random mask and the token XOR that mask), and a page that carries a raw
one-time secret (a statement link just made, a set-password or statement link in its own address, the tables' call
links) is sent uncompressed. Every other page is compressed.
"""

from __future__ import annotations

import gzip
import re

import brotli
from flask import current_app
from itsdangerous import URLSafeTimedSerializer

from judgeapp.extensions import db
from judgeapp.models import Incident
from tests.conftest import CSRF_RE, KEY_RE, login
from tests.integration.test_investigations import base, dq, make_link, post  # noqa: F401 (dq: a fixture)

BOTH = {"Accept-Encoding": "gzip, deflate, br"}


def page_tokens(client, url: str) -> list[str]:
    return CSRF_RE.findall(client.get(url).get_data(as_text=True))


def longest_shared_run(a: str, b: str) -> int:
    """The length of the longest run of characters that `a` and `b` both contain."""
    return max(
        (n for n in range(1, min(len(a), len(b)) + 1) if any(a[i : i + n] in b for i in range(len(a) - n + 1))),
        default=0,
    )


def flipped(token: str) -> str:
    """`token` (masked) with its first character changed: the first byte of the mask changes, and with it the first
    character of the signed token under it, so the signature no longer matches. (Not a character in the middle: the
    middle of pad + masked token is where the pad's last byte lies, over the token's last character, whose two low
    bits base64 leaves unused in the signature: a change there alone can leave the same signature, and the token is
    rightly accepted. Seen once in 20 masks under load, 7 times in 400 here.)"""
    return ("B" if token[0] == "A" else "A") + token[1:]


def session_token_payload(app, client) -> str:
    """The part of Flask-WTF's signed token that is the same in every answer of a session (the signed session
    token; only the timestamp and signature after it change)."""
    with client.session_transaction() as s:
        raw = s["csrf_token"]
    with app.test_request_context():
        signed = URLSafeTimedSerializer(current_app.secret_key, salt="wtf-csrf-token").dumps(raw)
    return signed.split(".")[0]


def test_two_answers_of_the_same_page_carry_different_csrf_token_bytes_and_both_are_accepted(app, floor):
    judge = app.test_client()
    login(judge, floor["people"]["floor_judge"][1])
    url = f"/events/{floor['event_id']}/incidents/new"
    first, second = page_tokens(judge, url)[-1], page_tokens(judge, url)[-1]
    assert longest_shared_run(first, second) < 8  # nothing of the token repeats from one answer to the next
    page = judge.get(url).get_data(as_text=True)
    payload = session_token_payload(app, judge)
    assert payload not in page and payload[:16] not in page  # the session's token never appears as is
    for player, token in (("P-001", first), ("P-002", second)):
        page = judge.get(url).get_data(as_text=True)
        answer = judge.post(
            url,
            data={
                "csrf_token": token,
                "key": KEY_RE.search(page).group(1),
                "round": "1",
                "subject_kind": "player",
                "player": player,
                "table": "2",
                "infraction": "3.5.2",
                "penalty": "warning",
                "description": "",
            },
        )
        assert answer.status_code == 302, token
    with app.app_context():
        assert db.session.query(Incident).count() == 2


def test_the_phones_token_is_masked_afresh_and_accepted_in_the_x_csrftoken_header(app, floor):
    """static/js/sync.js and outbox.js take a token from /offline/token before they send what waited on the phone."""
    judge = app.test_client()
    login(judge, floor["people"]["floor_judge"][1])
    first, second = (judge.get("/offline/token").get_json()["csrf_token"] for _ in range(2))
    assert longest_shared_run(first, second) < 8
    payload = session_token_payload(app, judge)
    assert payload[:16] not in first and payload[:16] not in second
    url = f"/events/{floor['event_id']}/incidents/new"
    for table, player, token in ((1, "P-001", first), (2, "P-002", second)):
        page = judge.get(url).get_data(as_text=True)
        fields = {"key": KEY_RE.search(page).group(1), "round": "1", "subject_kind": "player", "player": player}
        fields |= {"table": str(table), "infraction": "3.5.2", "penalty": "warning", "description": ""}
        answer = judge.post(url, data=fields, headers={"X-CSRFToken": token, "Accept": "application/json"})
        assert answer.status_code in (200, 201) and answer.get_json()["ok"], answer.get_data(as_text=True)
    with app.app_context():
        assert sorted(i.table_number for i in db.session.query(Incident)) == [1, 2]


def test_a_masked_token_of_another_session_or_a_broken_one_is_refused(app, floor):
    judge, other = app.test_client(), app.test_client()
    login(judge, floor["people"]["floor_judge"][1])
    login(other, floor["people"]["head_judge"][1])
    theirs = page_tokens(other, "/account/password")[-1]
    mine = page_tokens(judge, "/account/password")[-1]
    for token in (theirs, mine[:-4], flipped(mine), "", "%%%", "a.b.c"):
        answer = judge.post("/logout", data={"csrf_token": token})
        assert answer.status_code == 400 and b"security token" in answer.data, token
    # each page's mask is random: a broken token is refused whatever the mask it was broken under
    for mine in [page_tokens(judge, "/account/password")[-1] for _ in range(20)]:
        answer = judge.post("/logout", data={"csrf_token": flipped(mine)})
        assert answer.status_code == 400 and b"security token" in answer.data, (mine, flipped(mine))
    assert judge.get("/account/password").status_code == 200  # still signed in


def test_pages_are_compressed_and_a_compressed_form_still_saves(app, floor):
    judge = app.test_client()
    for encoding, decode in (("br", brotli.decompress), ("gzip", gzip.decompress)):
        login_page = judge.get("/login", headers={"Accept-Encoding": encoding})
        assert login_page.headers["Content-Encoding"] == encoding and b"<form" in decode(login_page.data)
    login(judge, floor["people"]["floor_judge"][1])
    url = f"/events/{floor['event_id']}/incidents/new"
    answer = judge.get(url, headers=BOTH)
    assert answer.headers["Content-Encoding"] == "br" and "Accept-Encoding" in answer.headers["Vary"]
    html = brotli.decompress(answer.data).decode()
    assert len(answer.data) < len(html) / 3
    sent = judge.post(
        url,
        headers=BOTH,
        data={
            "csrf_token": CSRF_RE.findall(html)[-1],
            "key": KEY_RE.search(html).group(1),
            "round": "1",
            "subject_kind": "player",
            "player": "P-001",
            "table": "2",
            "infraction": "3.5.2",
            "penalty": "warning",
            "description": "",
        },
    )
    assert sent.status_code == 302
    shown = judge.get(sent.headers["Location"], headers=BOTH)
    assert shown.headers["Content-Encoding"] == "br" and b"P-001" in brotli.decompress(shown.data)


def test_a_page_carrying_a_raw_one_time_secret_is_sent_uncompressed(app, dq):
    head = dq["head"]
    investigation = f"{base(dq)}/investigations/1"
    assert head.get(investigation, headers=BOTH).headers["Content-Encoding"] == "br"  # no secret on it: compressed
    response = post(
        head, f"{investigation}/links", **{"link-author_name": "Eve Witness", "link-author_role": "witness"}
    )
    shown = head.get(response.headers["Location"], headers=BOTH)
    assert "Content-Encoding" not in shown.headers
    token = re.search(r'href="http://127.0.0.1:5000/statement/([^"]+)"', shown.get_data(as_text=True)).group(1)
    visitor = dq["judge"].application.test_client()
    for url in (f"/statement/{token}", "/account/set-password/not-a-link-we-sent"):
        answer = visitor.get(url, headers=BOTH)
        assert answer.status_code in (200, 404) and "Content-Encoding" not in answer.headers, url
    # the tables' call links (signed with the event's secret) on the organizer's page
    links = head.get(f"{base(dq)}/calls/links?first=1&last=4", headers=BOTH)
    assert links.status_code == 200 and "Content-Encoding" not in links.headers
    assert make_link(head, dq, name="Ben Witness")  # a second link: the page is still plain
