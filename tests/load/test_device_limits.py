"""Issue 32: a targeted lockout does not reach the owner's own device, with the limits counted in Redis across
gunicorn workers (the known-device cookie, judgeapp/auth/devices.py). Needs a real Redis, like test_shared_limits."""

import requests

from tests.conftest import CSRF_RE
from tests.load.harness import PASSWORD, Gunicorn
from tests.load.test_shared_limits import REDIS_URL, make_account, needs_redis


def attempt(browser: requests.Session, server: Gunicorn, email: str, password: str, address: str) -> int:
    """One login from `browser` (its cookies kept), through a proxy that forwards `address` as the client's."""
    page = browser.get(server.url + "/login", timeout=30)
    answer = browser.post(
        server.url + "/login",
        timeout=30,
        allow_redirects=False,
        headers={"X-Forwarded-For": address},
        data={"csrf_token": CSRF_RE.search(page.text).group(1), "email": email, "password": password},
    )
    return answer.status_code


@needs_redis
def test_forged_addresses_lock_strangers_out_but_not_the_owners_device_across_four_workers_with_redis(
    app, tmp_path, monkeypatch
):
    monkeypatch.setenv("JUDGEAPP_PROXY_HOPS", "1")  # X-Forwarded-For is believed: anyone can claim any address
    email = make_account(app)
    with Gunicorn(
        app.config["SQLALCHEMY_DATABASE_URI"],
        workers=4,
        log=tmp_path / "gunicorn.log",
        rate_limits=REDIS_URL,
        access_log=tmp_path / "access.log",
    ) as server:
        with requests.Session() as owner:
            assert attempt(owner, server, email, PASSWORD, "198.51.100.7") == 302  # the owner's phone, earlier
            device = owner.cookies.get("judgeapp_device")
        assert device
        wrong = []
        for n in range(1, 12):
            with requests.Session() as attacker:  # a fresh browser and a forged address each time
                wrong.append(attempt(attacker, server, email, "not-the-password", f"203.0.113.{n}"))
        with requests.Session() as stranger:
            locked = attempt(stranger, server, email, PASSWORD, "192.0.2.99")
        with requests.Session() as phone:
            phone.cookies.set("judgeapp_device", device)
            mine = attempt(phone, server, email, PASSWORD, "192.0.2.50")
        posts = server.wait_for_answers("POST", "/login", 14)
    workers = sorted({pid for pid, _ in posts})
    print(f"\nanswered by workers {workers}: {[status for _, status in posts]}")
    assert wrong == [401] * 10 + [429], "counted together on every worker: the 11th wrong password is refused"
    assert locked == 429, "a browser the account never signed in on waits out the lock"
    assert mine == 302, "the owner's own phone is counted on its own and signs in"
