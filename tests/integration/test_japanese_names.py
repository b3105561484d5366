"""Japanese names at an event: readings (フリガナ), handles and Bushiroad IDs imported and typed in, lists in gojūon
order at a Japanese event (English events keep their order), and players found however a judge types them: half-width
katakana, hiragana, a handle, a full-width ID. Invented names only."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from sqlalchemy import select

from judgeapp.extensions import db
from judgeapp.models import Event, Player
from tests.conftest import login, post_form
from tests.integration.test_imports import import_players
from tests.integration.test_incidents import log

pytestmark = pytest.mark.db

SAMPLE = (Path(__file__).resolve().parents[1] / "data" / "imports" / "players-japanese-bushiroad.csv").read_bytes()
JA = {"Accept-Language": "ja"}
GOJUON = ["青木 花子", "加藤 優", "後藤 誠", "近藤 誠", "渡辺 一郎"]  # あおき, かとう, ごとう, こんどう, わたなべ


@pytest.fixture
def organizer_of(app, make_user, make_event):
    """An organizer signed in, and an event of theirs in the language asked: (client, event id)."""

    def make(language: str):
        uid, email = make_user(organizer=True, name="Olivia Organizer")
        client = app.test_client()
        assert login(client, email).status_code == 302
        return client, make_event(uid, language=language)

    return make


def listed(html: str) -> list[str]:
    """The players page's list of names, in the order shown."""
    body = html.split('id="player-list"', 1)[1]
    return re.findall(r'players/\d+">([^<]+)</a>', body)


def test_a_japanese_player_list_is_imported_with_readings_handles_and_bushiroad_ids(app, organizer_of, job_worker):
    client, event_id = organizer_of("ja")
    assert import_players(client, event_id, SAMPLE, job_worker).status_code == 200
    with app.app_context():
        players = {p.name: p for p in db.session.scalars(select(Player).where(Player.event_id == event_id))}
        first = players["渡辺 一郎"]
        assert (first.reading, first.handle, first.player_code) == ("ワタナベ イチロウ", "ナベ", "12345678901")
        assert first.platform_ids == {"bushiroad": "12345678901"}
        assert players["後藤 誠"].handle is None


def test_a_japanese_events_players_are_listed_in_gojuon_order_of_their_readings(app, organizer_of, job_worker):
    client, event_id = organizer_of("ja")
    import_players(client, event_id, SAMPLE, job_worker)
    post_form(client, f"/events/{event_id}/players", {"name": "Anna Berg", "player_code": "X-1"})
    html = client.get(f"/events/{event_id}/players", headers=JA).get_data(as_text=True)
    assert listed(html) == [*GOJUON, "Anna Berg"], "か and が together, a player without a reading last"
    assert '<span class="muted" lang="ja">アオキ ハナコ</span> <span class="muted handle">Hana</span>' in html
    assert "<h1>プレイヤー " in html and "プレイヤーを追加" in html and "大会ファイルを読み込む" in html


def test_an_english_events_players_keep_the_order_of_their_names(app, organizer_of, job_worker):
    client, event_id = organizer_of("en")
    import_players(client, event_id, SAMPLE, job_worker)
    html = client.get(f"/events/{event_id}/players").get_data(as_text=True)
    assert listed(html) == sorted(GOJUON)  # the order of the names' characters, as before
    assert listed(html) != GOJUON


def test_the_import_report_reads_in_japanese(app, organizer_of, job_worker):
    client, event_id = organizer_of("ja")
    html = import_players(client, event_id, SAMPLE, job_worker).get_data(as_text=True)
    assert "新しいプレイヤー5人。" in html and "<dt>不戦勝</dt>" in html


def test_a_player_added_by_hand_keeps_reading_handle_and_bushiroad_id(app, organizer_of):
    client, event_id = organizer_of("ja")
    form = {"name": "黒川 花子", "reading": "ｸﾛｶﾜ ﾊﾅｺ", "handle": "Kuro", "player_code": "", "bushiroad_id": "１２３"}
    assert post_form(client, f"/events/{event_id}/players", form).status_code == 302
    with app.app_context():
        player = db.session.scalar(select(Player).where(Player.event_id == event_id))
        assert (player.reading, player.handle, player.platform_ids) == ("クロカワ ハナコ", "Kuro", {"bushiroad": "123"})
    page = client.get(f"/events/{event_id}/players/{player.id}", headers=JA).get_data(as_text=True)
    assert "ハンドルネーム：Kuro" in page and "ブシロードID：123" in page


def test_the_players_form_asks_for_the_reading_in_japanese(organizer_of):
    client, event_id = organizer_of("ja")
    html = client.get(f"/events/{event_id}/players", headers=JA).get_data(as_text=True)
    assert "名前の読み（フリガナ）" in html and "ハンドルネーム" in html and "ブシロードID" in html


# ---- finding a player however the judge types them ---------------------------------------------------------------


@pytest.fixture
def japanese_floor(app, floor):
    """The floor event in Japanese, with 山田 太郎 (やまだ たろう, DEMO-001, handle タロ) and 山本 次郎."""
    from judgeapp.events.player_services import add_player

    with app.app_context():
        event = db.session.get(Event, floor["event_id"])
        event.language = "ja"
        add_player(
            db.session, actor=event.organizer, event=event, name="山田 太郎", player_code="DEMO-001",
            reading="やまだ たろう", handle="タロ",
        )  # fmt: skip
        add_player(db.session, actor=event.organizer, event=event, name="山本 次郎", player_code="DEMO-002",
                   reading="ヤマモト ジロウ", bushiroad_id="88001")  # fmt: skip
        db.session.commit()
    return floor


def judge(app, floor):
    client = app.test_client()
    assert login(client, floor["people"]["floor_judge"][1]).status_code == 302
    return client


@pytest.mark.parametrize("typed", ["ﾔﾏﾀﾞ", "やまだ", "ヤマダ", "やまだたろう", "タロ", "ＤＥＭＯ－００１", "demo001"])
def test_the_suggestion_finds_yamada_however_his_name_or_id_is_typed(app, japanese_floor, typed):
    client = judge(app, japanese_floor)
    answer = client.get(
        f"/events/{japanese_floor['event_id']}/incidents/suggest", query_string={"player": typed, "infraction": "3.5.2"}
    ).get_json()
    assert answer["ok"] and answer["subject"] == "山田 太郎", typed


def test_a_bushiroad_id_in_full_width_digits_finds_the_player(app, japanese_floor):
    client = judge(app, japanese_floor)
    answer = client.get(
        f"/events/{japanese_floor['event_id']}/incidents/suggest",
        query_string={"player": "８８００１", "infraction": "3.5.2"},
    ).get_json()
    assert answer["subject"] == "山本 次郎"


def test_a_reading_two_players_share_the_start_of_asks_which_one(app, japanese_floor):
    client = judge(app, japanese_floor)
    answer = client.get(
        f"/events/{japanese_floor['event_id']}/incidents/suggest", query_string={"player": "ﾔﾏ", "infraction": "3.5.2"}
    )
    assert answer.status_code == 422 and "に一致するプレイヤーが複数います" in answer.get_json()["message"]


def test_an_incident_logged_by_typing_the_reading_in_half_width_kana_is_on_that_player(app, japanese_floor):
    client = judge(app, japanese_floor)
    assert (
        log(client, japanese_floor["event_id"], player="ﾔﾏﾀﾞ ﾀﾛｳ", infraction="3.5.2", penalty="warning").status_code
        == 302
    )
    with app.app_context():
        from judgeapp.models import Incident

        incident = db.session.scalar(select(Incident).where(Incident.event_id == japanese_floor["event_id"]))
        assert [s.player.name for s in incident.subjects] == ["山田 太郎"]


def test_the_incident_form_carries_readings_handles_and_ids_for_the_phones_search_in_gojuon_order(app, japanese_floor):
    client = judge(app, japanese_floor)
    html = client.get(f"/events/{japanese_floor['event_id']}/incidents/new").get_data(as_text=True)
    assert 'data-name="山田 太郎" data-reading="やまだ たろう" data-handle="タロ" data-ids="DEMO-001"' in html
    assert 'data-ids="DEMO-002\t88001"' in html, "the player ID and the Bushiroad ID"
    options = re.findall(r'<option value="([^"]+)" data-id=', html)
    assert options[:2] == ["山田 太郎 · DEMO-001", "山本 次郎 · DEMO-002"], "readings first, in gojūon order"
    assert options[2:] == ["Aiko Mori · P-001", "Ben Ode · P-002", "Chen Yu · P-003", "Dana Roy · P-004"]
    assert 'id="player-matches"' in html


def test_a_player_not_registered_yet_is_added_from_the_incident_form_with_their_reading(app, japanese_floor):
    client = judge(app, japanese_floor)
    response = log(
        client, japanese_floor["event_id"], player="森 愛子", new_player="y", new_player_code="JP-9",
        new_player_reading="ﾓﾘ ｱｲｺ", new_player_handle="あいこ", infraction="3.5.2", penalty="warning",
    )  # fmt: skip
    assert response.status_code == 302
    with app.app_context():
        player = db.session.scalar(select(Player).where(Player.player_code == "JP-9"))
        assert (player.name, player.reading, player.handle) == ("森 愛子", "モリ アイコ", "あいこ")


def test_a_japanese_events_staff_are_listed_by_the_readings_of_their_names_within_each_role(
    app, make_user, make_event, give_role
):
    from judgeapp.models import User

    organizer, email = make_user(organizer=True, name="Olivia Organizer")
    event_id = make_event(organizer, language="ja")
    judges = [("渡辺 健", "わたなべ けん"), ("青木 誠", "アオキ マコト"), ("Zed Ray", None), ("後藤 優", "ごとう ゆう")]
    for name, reading in judges:
        uid, _ = make_user(name=name)
        with app.app_context():
            db.session.get(User, uid).reading = reading
            db.session.commit()
        give_role(event_id, uid, "floor_judge")
    client = app.test_client()
    login(client, email)
    html = client.get(f"/events/{event_id}/staff").get_data(as_text=True)
    shown = re.findall(r"<strong>([^<]+)</strong>", html)[1:]  # after the organizer
    assert shown == ["青木 誠", "後藤 優", "渡辺 健", "Zed Ray"]
