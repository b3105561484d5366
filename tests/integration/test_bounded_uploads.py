"""Issue 32, policy upload: each hostile file the review reproduced is refused at the file field over HTTP (the real
parser, in its limited process), nothing is stored and the event keeps its policy; the incident check comes before
the file is read; shipped policy ids are reserved; every page and the player history read the event's own policy;
uploaded texts lose text-direction controls; the cache of uploaded policies is bounded."""

import html
import os
import re
import signal
import threading

import pytest
import requests
from sqlalchemy import select
from werkzeug.serving import make_server

from judgeapp.extensions import UPLOADED_KEY, db
from judgeapp.models import EventPolicy
from tests.conftest import CSRF_RE, PASSWORD
from tests.integration.test_event_policy import HOUSE, organizer, the_event, upload
from tests.integration.test_incidents import log, signed_in
from tests.shared import policy_bombs as bombs

ANCHORS = "anchors and aliases (&name, *name) are not allowed: a policy never needs them"
NESTED = "nested more than 16 levels deep; a policy is not"


def field_error(page: str) -> str:
    """The text of the file field's error, as the organizer reads it."""
    return html.unescape(re.sub(r"<[^>]+>", "", page.split('id="file-error"', 1)[1].split(">", 1)[1].split("</", 1)[0]))


def nothing_stored(app, event_id) -> None:
    event = the_event(app, event_id)
    assert (event.policy_id, event.policy_sha) == ("bushiroad-afr", None)
    with app.app_context():
        assert db.session.scalars(select(EventPolicy)).all() == []


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        pytest.param(bombs.alias_bomb(), f"bomb.yaml:1: {ANCHORS}", id="the_464_byte_alias_bomb"),
        pytest.param(bombs.duplicate_key_bomb(), f"bomb.yaml:1: {ANCHORS}", id="the_alias_bomb_with_a_duplicated_key"),
        pytest.param(bombs.deep_brackets(), f"bomb.yaml:1: {NESTED}", id="100000_open_brackets_segfault"),
        pytest.param(bombs.SELF_ALIAS, f"bomb.yaml:1: {ANCHORS}", id="a_list_holding_itself_recursion_error"),
        pytest.param(bombs.deep_levels(), f"bomb.yaml:1: {NESTED}", id="2000_levels_recursion_error"),
        # the 328 KB version the review sent over HTTP (over 500 KB, the test client leaves its spooled body open)
        pytest.param(bombs.synonyms_alias(2_000), f"bomb.yaml:26: {ANCHORS}", id="the_328_kb_synonyms_alias_policy"),
    ],
)
def test_a_bomb_policy_upload_is_refused_at_the_file_field_and_nothing_is_stored(app, floor, text, reason):
    answer = upload(organizer(app, floor), floor["event_id"], text.encode(), name="bomb.yaml")
    assert answer.status_code == 400
    assert field_error(answer.get_data(as_text=True)).strip() == reason
    nothing_stored(app, floor["event_id"])


def test_2000_language_codes_and_1000_infractions_answer_twenty_problems_and_a_count(app, floor):
    answer = upload(organizer(app, floor), floor["event_id"], bombs.language_codes().encode(), name="bomb.yaml")
    assert answer.status_code == 400
    shown = field_error(answer.get_data(as_text=True))
    assert "should have at most 16 items" in shown and "should have at most 500 items" in shown
    assert len(answer.get_data()) < 100_000
    nothing_stored(app, floor["event_id"])


def test_a_file_with_hundreds_of_problems_shows_twenty_and_how_many_more(app, floor):
    text = bombs.legitimate(40_000).replace("max: loss_of_game", "max: no_such_rank")
    answer = upload(organizer(app, floor), floor["event_id"], text.encode(), name="big.yaml")
    shown = field_error(answer.get_data(as_text=True))
    assert shown.count("is not a rank of this policy") == 20
    assert f"… and {text.count('no_such_rank') - 20:,} more problems" in shown


def test_an_event_with_incidents_refuses_the_upload_before_the_file_is_read(app, floor):
    judge = signed_in(app, floor["people"]["floor_judge"][1])
    log(judge, floor["event_id"], player="P-001", infraction="3.5.2", penalty="warning")
    answer = upload(organizer(app, floor), floor["event_id"], bombs.deep_brackets().encode(), name="bomb.yaml")
    shown = field_error(answer.get_data(as_text=True))
    assert "1 incident was logged under bushiroad-afr 1.11" in shown and NESTED not in shown


def test_a_house_variant_upload_with_a_shipped_policy_id_is_refused(app, floor):
    variant = HOUSE.replace(b"  house-rules:", b"  bushiroad-afr:", 1).replace(b"Shop House Rules", b"HOUSE VARIANT")
    answer = upload(organizer(app, floor), floor["event_id"], variant, name="variant.yaml")
    assert answer.status_code == 400
    assert field_error(answer.get_data(as_text=True)).strip() == (
        "variant.yaml names its policy bushiroad-afr, the id of a policy judgeapp ships; give your policy its own id."
    )
    nothing_stored(app, floor["event_id"])


def test_the_event_page_names_and_links_the_uploaded_policy_not_a_shipped_one(app, floor):
    client = organizer(app, floor)
    assert upload(client, floor["event_id"]).status_code == 302
    page = client.get(f"/events/{floor['event_id']}").get_data(as_text=True)
    policy = re.search(r"<dd><a href=\"([^\"]+)\">([^<]+)</a>", page)
    assert policy.groups() == (f"/reference/events/{floor['event_id']}?level=2", "Shop House Rules")


def test_an_uploaded_policys_ranks_are_what_the_organizers_player_history_shows(app, floor):
    client = organizer(app, floor)
    house = HOUSE.replace(b"{id: warning, name: Warning}", b"{id: warning, name: House Warning}")
    assert upload(client, floor["event_id"], house).status_code == 302
    judge = signed_in(app, floor["people"]["floor_judge"][1])
    log(judge, floor["event_id"], player="P-001", infraction="2.1", penalty="warning")
    page = client.get("/players/history?code=P-001").get_data(as_text=True)
    assert "House Warning" in page and "2.1 Rudeness" in page


def test_uploaded_policy_texts_lose_text_direction_controls(app, floor):
    client = organizer(app, floor)
    hostile = HOUSE.replace(b"Drew an extra card", "Drew an \u202eextra\u2066 card".encode())
    assert upload(client, floor["event_id"], hostile).status_code == 302
    page = client.get(f"/reference/events/{floor['event_id']}").get_data(as_text=True)
    assert "Drew an extra card" in page and "\u202e" not in page and "\u2066" not in page
    with app.app_context():
        kept = db.session.scalars(select(EventPolicy)).one().text
    assert "\u202e" not in kept and "Drew an extra card" in kept


def test_the_cache_of_uploaded_policies_keeps_at_most_its_size(app, floor):
    app.config["UPLOADED_POLICY_CACHE"] = 2
    client = organizer(app, floor)
    for version in ("2026.1", "2026.2", "2026.3"):
        house = HOUSE.replace(b'version: "2026.1"', f'version: "{version}"'.encode())
        assert upload(client, floor["event_id"], house).status_code == 302
        assert client.get(f"/reference/events/{floor['event_id']}").status_code == 200
    cached = app.extensions[UPLOADED_KEY]
    assert len(cached) == 2 and the_event(app, floor["event_id"]).policy_sha in cached


# ---- the parse runs elsewhere ----------------------------------------------------------------------------------------


def _children() -> set[int]:
    """The processes this test process has started (a real server runs in one of its threads)."""
    found: set[int] = set()
    for tid in os.listdir(f"/proc/{os.getpid()}/task"):
        try:
            with open(f"/proc/{os.getpid()}/task/{tid}/children") as f:
                found.update(int(pid) for pid in f.read().split())
        except OSError:
            continue
    return found


def test_a_login_sent_while_a_bomb_is_being_parsed_is_answered_before_the_bombs_refusal(app, floor):
    """A real threaded server; one thread posts a policy bomb, and once its limited parsing process exists (it is
    then held stopped, as a parse that runs long would be) another thread GETs /login. The login page is answered
    while the bomb's parse is still running: the parse runs in its own process and holds neither the server's GIL
    nor a thread the others need. Then the parse goes on and the bomb is refused."""
    server = make_server("127.0.0.1", 0, app, threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_port}"
    bomb = bombs.language_codes().encode()  # its refusal takes the child a while: pydantic checks 1,000 infractions
    try:
        with requests.Session() as browser:
            page = browser.get(base + "/login", timeout=60).text
            token = CSRF_RE.search(page).group(1)
            signed = browser.post(
                base + "/login",
                data={"csrf_token": token, "email": floor["organizer"][1], "password": PASSWORD},
                timeout=60,
                allow_redirects=False,
            )
            assert signed.status_code == 302
            url = f"{base}/events/{floor['event_id']}/policy"
            token = CSRF_RE.search(browser.get(url, timeout=60).text).group(1)
            for _attempt in range(5):  # a child that finished before it was seen is tried again
                finished: list[str] = []
                answers: dict[str, requests.Response] = {}
                before = _children()

                def post_bomb(browser=browser, url=url, token=token, finished=finished, answers=answers) -> None:
                    answers["bomb"] = browser.post(
                        url, data={"csrf_token": token}, files={"file": ("bomb.yaml", bomb)}, timeout=300
                    )
                    finished.append("bomb")

                poster = threading.Thread(target=post_bomb)
                poster.start()
                child = None
                while child is None and poster.is_alive():
                    new = _children() - before
                    if new:
                        child = min(new)
                        try:
                            os.kill(child, signal.SIGSTOP)
                        except ProcessLookupError:
                            child = None
                            break
                if child is None:
                    poster.join()
                    continue
                try:
                    login_page = requests.get(base + "/login", timeout=60)
                    finished.append("login")
                    assert "bomb" not in finished and login_page.status_code == 200 and "password" in login_page.text
                finally:
                    os.kill(child, signal.SIGCONT)
                poster.join(timeout=300)
                assert finished == ["login", "bomb"]
                assert answers["bomb"].status_code == 400 and "should have at most 16 items" in answers["bomb"].text
                return
            pytest.fail("the parsing process was never seen running")
    finally:
        server.shutdown()
        server.server_close()
