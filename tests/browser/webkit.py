"""WebKit for the browser tests: Debian's WebKitWebDriver driving WebKitGTK's MiniBrowser under Xvfb, and a TCP relay
between the browser and the live server that the test cuts to take the network away (WebDriver has no offline mode).

WebKitGTK has no headless mode, so MiniBrowser draws on a virtual X screen of the phone's size (Xvfb, on a display
number Xvfb picks itself, so tests running side by side never share one). MiniBrowser's --full-screen hides its
toolbar (without it the page is 38 px shorter and the window at least 447 px wide), but Xvfb runs no window manager to
make the window fill the screen: the window is sized with WebDriver's Set Window Rect, and the test asserts the page's
viewport (window.innerWidth/innerHeight) is the phone's 390x844.
"""

from __future__ import annotations

import contextlib
import os
import select
import shutil
import socket
import struct
import subprocess
import threading
import warnings
from pathlib import Path

import pytest

WEBKIT_DRIVER = "/usr/bin/WebKitWebDriver"  # Debian's webkit2gtk-driver
# the browser WebKitWebDriver starts: MiniBrowser, shipped in libwebkit2gtk-4.1-0 (dpkg -L libwebkit2gtk-4.1-0)
MINIBROWSER = "/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser"
XVFB = "Xvfb"  # Debian's xvfb


class VirtualScreen:
    """An Xvfb screen of the given size; `.display` is its DISPLAY (":N")."""

    def __init__(self, width: int, height: int):
        if not shutil.which(XVFB):
            pytest.fail(f"{XVFB} is missing: run `make test`, which installs Debian's xvfb")
        read, write = os.pipe()
        self.process = subprocess.Popen(  # -displayfd: Xvfb takes a free display number and writes it to the pipe
            [XVFB, "-displayfd", str(write), "-screen", "0", f"{width}x{height}x24", "-nolisten", "tcp"],
            pass_fds=[write],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        os.close(write)
        number = b""
        with os.fdopen(read, "rb") as pipe:
            while not number.endswith(b"\n"):
                chunk = pipe.read(1)
                if not chunk:
                    self.process.kill()
                    pytest.fail(f"Xvfb did not start (exit code {self.process.wait()})")
                number += chunk
        self.display = f":{number.decode().strip()}"

    def close(self) -> None:
        self.process.terminate()
        self.process.wait(10)


def webkit_browser(display: str, home: Path):
    """A new MiniBrowser (a fresh, empty profile: automation sessions keep nothing) driven over W3C WebDriver."""
    for path, package in ((WEBKIT_DRIVER, "webkit2gtk-driver"), (MINIBROWSER, "libwebkit2gtk-4.1-0")):
        if not Path(path).exists():
            pytest.fail(f"{path} is missing: run `make test`, which installs Debian's {package}")
    webdriver = pytest.importorskip("selenium.webdriver")
    from selenium.webdriver.webkitgtk.options import Options
    from selenium.webdriver.webkitgtk.service import Service

    options = Options()
    options.binary_location = MINIBROWSER
    options.add_argument("--automation")
    options.add_argument("--full-screen")  # no toolbar: the whole window is the page
    for sub in ("config", "cache", "data"):
        (home / sub).mkdir(parents=True, exist_ok=True)
    env = {
        **os.environ,
        "DISPLAY": display,
        "HOME": str(home),  # whatever GTK or WebKit would write stays in the test's folder
        "XDG_CONFIG_HOME": str(home / "config"),
        "XDG_CACHE_HOME": str(home / "cache"),
        "XDG_DATA_HOME": str(home / "data"),
        "NO_AT_BRIDGE": "1",  # no accessibility bus under Xvfb: do not wait for one
    }
    service = Service(executable_path=WEBKIT_DRIVER, env=env, log_output=str(home / "webkitwebdriver.log"))
    with warnings.catch_warnings():
        # selenium 4.51's own generic connection (WebKitGTK has no handler of its own) passes both the address and a
        # client config, and warns about its own call: not ours to fix, and only that one warning is let through
        warnings.filterwarnings("ignore", "setting remote_server_addr in RemoteConnection", DeprecationWarning)
        return webdriver.WebKitGTK(options=options, service=service)


def _reset(sock: socket.socket) -> None:
    """Close with a TCP reset, as a connection dropped by the network looks to the browser."""
    with contextlib.suppress(OSError):
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    sock.close()


class NetworkSwitch:
    """A TCP relay on 127.0.0.1 in front of the live server: the browser opens `url`, not the server's own address.

    `cut()` takes the network away (every open connection is reset and new ones are reset at once, so the browser's
    requests fail as they do without network), `restore()` gives it back. `refused` counts the connections the browser
    tried while the network was away."""

    def __init__(self, server_port: int):
        self.target = ("127.0.0.1", server_port)
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self.listener.getsockname()[1]}"
        self.up = True
        self.refused = 0
        self.relayed = 0
        self._relays: set[threading.Thread] = set()
        self._lock = threading.Lock()
        self._closed = False
        self._acceptor = threading.Thread(target=self._accept, daemon=True)
        self._acceptor.start()

    def cut(self) -> None:
        with self._lock:
            self.up = False
            relays = list(self._relays)
        for relay in relays:  # each resets its two sockets as soon as it sees the network is gone
            relay.join(5)

    def restore(self) -> None:
        with self._lock:
            self.up = True

    def close(self) -> None:
        self._closed = True
        self.cut()
        self.listener.close()
        self._acceptor.join(5)

    def _accept(self) -> None:
        self.listener.settimeout(0.1)
        while not self._closed:
            try:
                client, _ = self.listener.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            client.settimeout(None)
            with self._lock:
                if not self.up:
                    self.refused += 1
                    _reset(client)
                    continue
                self.relayed += 1
            try:
                upstream = socket.create_connection(self.target)
            except OSError:
                _reset(client)
                continue
            relay = threading.Thread(target=self._relay, args=(client, upstream), daemon=True)
            with self._lock:
                self._relays.add(relay)
            relay.start()

    def _relay(self, client: socket.socket, upstream: socket.socket) -> None:
        peer = {client: upstream, upstream: client}
        reading = [client, upstream]  # a side that sent its end (FIN) is no longer read; the other may still answer
        try:
            while reading and self.up:
                ready, _, _ = select.select(reading, [], [], 0.05)
                for sock in ready:
                    data = sock.recv(65536)
                    if data:
                        peer[sock].sendall(data)
                    else:
                        reading.remove(sock)
                        peer[sock].shutdown(socket.SHUT_WR)
        except OSError:
            pass
        finally:
            if self.up:
                client.close()
                upstream.close()
            else:
                _reset(client)
                _reset(upstream)
            with self._lock:
                self._relays.discard(threading.current_thread())
