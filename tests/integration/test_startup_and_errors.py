"""The app refuses a bad catalog at start-up, and error pages are readable."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FIX = ROOT / "tests" / "fixtures" / "catalogs"


def test_app_refuses_to_start_on_a_bad_catalog_naming_file_line_and_field(tmp_path):
    env = {
        **os.environ,
        "JUDGEAPP_CATALOG": str(FIX / "unknown_rank.yaml"),
        "SECRET_KEY": "x",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
    }
    result = subprocess.run([sys.executable, "-c", "import wsgi"], cwd=ROOT, env=env, capture_output=True, text=True)
    assert result.returncode == 1
    assert "judgeapp cannot start" in result.stderr
    assert (
        "unknown_rank.yaml:30: policies.house-rules.infractions[0].defaults.level_2.max: 'loss of gme'" in result.stderr
    )


def test_unknown_event_gives_a_readable_404_page(client, make_user, login_as):
    _, email = make_user()
    login_as(email)
    response = client.get("/events/999999")
    html = response.get_data(as_text=True)
    assert response.status_code == 404 and "<h1>Not found" in html and "Back to my events" in html


def test_wrong_role_gives_a_readable_403_page(client, make_user, make_event, give_role, login_as):
    event_id = make_event()
    uid, email = make_user()
    give_role(event_id, uid, "floor_judge")
    login_as(email)
    response = client.get(f"/events/{event_id}/settings")
    assert response.status_code == 403 and "Your role at this event does not allow this" in response.get_data(
        as_text=True
    )


def test_unknown_policy_in_the_quick_reference_is_404(client, make_user, login_as):
    _, email = make_user()
    login_as(email)
    assert client.get("/reference/no-such-policy").status_code == 404
