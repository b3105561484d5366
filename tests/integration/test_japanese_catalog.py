"""A Japanese judge works with the Bushiroad rules in Japanese: the incident form lists the infractions and penalties
by their Japanese names (and finds them by kana reading), the suggestion and the stored explanation are Japanese, and
the quick reference reads and searches in Japanese; an English judge's pages stay English."""

from __future__ import annotations

import html
import re

from judgeapp.extensions import db
from judgeapp.infractions.search import entries_of_file
from judgeapp.models import User
from tests.integration.test_incidents import incidents, log, new_url, signed_in, suggestion, text

# Not `db`: what is shown comes from the catalog in Python, and the rows through the ORM (docs/contributing/tests.md)


def japanese_judge(app, floor):
    user_id, email = floor["people"]["floor_judge"]
    with app.app_context():
        db.session.get(User, user_id).locale = "ja"
        db.session.commit()
    return signed_in(app, email)


def options(page: str, name: str) -> list[str]:
    """The visible text of the <option>s of the <select name=…>."""
    select = re.search(rf'<select[^>]*name="{name}".*?</select>', page, re.S).group(0)
    return [html.unescape(o) for o in re.findall(r"<option[^>]*>([^<]*)</option>", select)]


def test_a_japanese_judges_incident_form_lists_infractions_sub_sections_and_penalties_in_japanese(app, floor):
    page = japanese_judge(app, floor).get(new_url(floor["event_id"])).get_data(as_text=True)
    infractions = options(page, "infraction")
    assert "3.9.1 遅刻" in infractions and "3.9.2 大幅な遅刻" in infractions
    assert "3.8.2 重度の非紳士的行為" in infractions and "Tardiness — Common" not in " ".join(infractions)
    assert 'label="3.8 非紳士的行為"' in page
    assert options(page, "penalty")[1:] == ["注意", "警告", "ゲームの敗北", "マッチの敗北", "失格"]
    # what the phone's search finds it by besides the shown name: the English name and the kana reading, in the
    # policy's finder file the form names (incident.js searches it; tests/integration/test_first_visit.py)
    finder = html.unescape(re.search(r'data-finder="([^"]+)"', page).group(1))
    file = japanese_judge(app, floor).get(finder).get_json()
    entry = next(e for e in entries_of_file(file) if e["code"] == "3.9.1")
    words = " ".join(text for _, text in entry["fields"])
    assert "tardiness — common" in words and "ちこく" in words and "late" in words


def test_an_english_judges_form_still_lists_the_english_names(app, floor):
    page = signed_in(app, floor["people"]["other_floor"][1]).get(new_url(floor["event_id"])).get_data(as_text=True)
    assert "3.9.1 Tardiness — Common" in options(page, "infraction")
    assert options(page, "penalty")[1:] == ["Caution", "Warning", "Loss of Game", "Loss of Match", "Disqualification"]


def test_a_japanese_judge_is_suggested_a_repeat_upgrade_in_japanese_and_the_incident_keeps_that_sentence(app, floor):
    judge = japanese_judge(app, floor)
    first = log(judge, floor["event_id"], player="P-001", infraction="3.5.2", penalty="warning")
    assert first.status_code == 302
    answer = suggestion(judge, floor["event_id"], player_id=floor["players"]["P-001"], infraction="3.5.4").get_json()
    assert (
        answer["suggested_name"] == "マッチの敗北"
        and answer["infraction"]["name"] == "手札にカードを余分に加えてしまった"
    )
    assert answer["default_label"] == "ゲームの敗北" and answer["alternatives"][0]["penalty"] == "警告"
    assert answer["explanation"].startswith(
        "格上げ：この大会で3.5の罰則の2回目（罰則規定 第2部）：マッチの敗北 — 前回：違反記録 #1"
    )
    second = log(judge, floor["event_id"], player="P-001", infraction="3.5.4", penalty="loss_of_match")
    page = text(judge.get(second.headers["Location"]))
    assert "「手札にカードを余分に加えてしまった」（3.5.4）" in page and "マッチの敗北" in page
    explanation = incidents(app, floor["event_id"])[-1].suggestion_explanation
    assert explanation.startswith("格上げ：この大会で3.5の罰則の2回目") and explanation in page


def test_the_quick_reference_in_japanese_names_everything_in_japanese_and_finds_by_kana_reading(app, floor):
    judge = japanese_judge(app, floor)
    page = text(judge.get("/reference/bushiroad-afr?level=2&q=チコク"))
    assert "<h1>ブシロードTCG 応用フロアルール 罰則規定</h1>" in page
    assert '<span class="name">遅刻</span>' in page and '<span class="name">大幅な遅刻</span>' in page
    assert "大会レベル2</option>" in page and "<td>大会レベル2</td><td>警告～マッチの敗北</td>" in page
    assert "注意 &lt; 警告 &lt; ゲームの敗北 &lt; マッチの敗北 &lt; 失格" in page
    shown = re.findall(r'<li class="infraction" data-code="([^"]+)"[^>]*?(?<!hidden)>', page)
    assert shown[:2] == ["3.9.1", "3.9.2"]  # the finder, best first: the reading in katakana names both
