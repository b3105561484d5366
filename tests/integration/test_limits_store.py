"""The shared store of the login limits (RATELIMIT_STORAGE_URI, Redis in production) can go away: sign-in must go on
answering, and still limit, rather than fail with a server error (issue 24)."""

import pytest

from judgeapp import create_app
from judgeapp.extensions import db
from tests.conftest import PASSWORD, app_config, login
from tests.load.harness import free_port

pytestmark = pytest.mark.db


@pytest.fixture
def app_with_redis_down(tmp_path):
    app = create_app(app_config(tmp_path, RATELIMIT_STORAGE_URI=f"redis://127.0.0.1:{free_port()}/0"))
    with app.app_context():
        db.drop_all()
        db.create_all()
    yield app
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


def test_with_the_shared_limit_store_unreachable_sign_in_still_answers_and_still_locks_after_five_failures(
    app_with_redis_down,
):
    from judgeapp.auth.services import create_user

    app = app_with_redis_down
    with app.app_context():
        create_user(db.session, email="judge@example.test", name="Judge", password=PASSWORD)
        db.session.commit()
    client = app.test_client()
    codes = [login(client, "judge@example.test", "wrong-password").status_code for _ in range(6)]
    assert codes == [401] * 5 + [429]  # each worker counts alone until the store is back: never unlimited
    assert login(client, "judge@example.test").status_code == 429
