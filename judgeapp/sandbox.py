"""Run a pure parse of a user's file in a limited child process, so that a runaway or a crash costs the child only.

`run_limited(func, *args)` forks; the child sets resource limits (CPU seconds, address space) and calls `func`, then
sends back its result (or the exception it raised) pickled through a pipe. The parent waits at most a wall-clock
timeout. A child that runs out of time or memory, is killed, or crashes (a segfault in a C parser such as libyaml's
composer) becomes `ParseRefused`, one plain sentence, and the web worker carries on.

Why fork and not spawn: the child starts at once (no second import of the app) and inherits the request's context, so
the parse's messages come out in the page's language. The child never touches the database and leaves with
os._exit, so the parent's connections and files are left as they were.

The limits come from the app's config when there is one (PARSE_CPU_SECONDS, PARSE_MEMORY_MB, PARSE_WALL_SECONDS),
else from DEFAULTS.
"""

from __future__ import annotations

import contextlib
import faulthandler
import gc
import os
import pickle
import resource
import select
import signal
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from .texts import lazy_gettext as _l

T = TypeVar("T")

DEFAULTS = {
    "PARSE_CPU_SECONDS": 20,  # a 40 KB policy is read in 0.1 s, a 130,000-row players file in about 4 s
    "PARSE_MEMORY_MB": 1024,  # on top of what the process holds when it forks
    "PARSE_WALL_SECONDS": 90,  # the CPU limit plus room for a busy machine; under gunicorn's 120 s
}

TOO_LONG = _l("The file took too long to read; it is not a file judgeapp can use.")
TOO_BIG = _l("The file took too much memory to read; it is not a file judgeapp can use.")
CRASHED = _l("The reader crashed on this file; it is not a file judgeapp can use.")


class ParseRefused(ValueError):
    """The child reading the file was stopped: `why` is "time", "memory" or "crash"; str() is the sentence."""

    def __init__(self, why: str):
        self.why = why
        message = {"time": TOO_LONG, "memory": TOO_BIG}.get(why, CRASHED)
        super().__init__(str(message))

    def __reduce__(self):
        return (ParseRefused, (self.why,))


@dataclass(frozen=True)
class Limits:
    cpu_seconds: int
    memory_mb: int
    wall_seconds: float


def limits() -> Limits:
    """The limits in force: the running app's config, else the defaults."""
    config: Any = DEFAULTS
    try:
        from flask import current_app, has_app_context

        if has_app_context():
            config = current_app.config
    except ImportError:  # pragma: no cover - flask is a dependency
        pass
    return Limits(
        int(config.get("PARSE_CPU_SECONDS", DEFAULTS["PARSE_CPU_SECONDS"])),
        int(config.get("PARSE_MEMORY_MB", DEFAULTS["PARSE_MEMORY_MB"])),
        float(config.get("PARSE_WALL_SECONDS", DEFAULTS["PARSE_WALL_SECONDS"])),
    )


def _settle_locale() -> None:
    """Choose the request's language and load its messages here, before the fork: choosing may read the signed-in
    account from the database, which the child must never do on the parent's connection."""
    try:
        from flask import has_request_context
        from flask_babel import get_locale

        from .texts import translations

        if has_request_context():
            get_locale()
            translations()
    except ImportError:  # pragma: no cover
        pass


def _forget_connections() -> None:
    """In the child: the database connections belong to the parent (their sockets are shared). Drop them without
    closing them, as SQLAlchemy advises for a forked process, so that nothing here can speak on them; a read the
    parse should never make would open a connection of its own."""
    try:
        from flask import has_app_context

        from .extensions import db

        if has_app_context():
            db.session.registry.clear()
            for engine in db.engines.values():
                engine.dispose(close=False)
    except Exception:  # pragma: no cover - the parse goes on; it makes no database read
        pass


_EXIT_MEMORY = 3
_EXIT_UNPICKLABLE = 4


def _address_space_now() -> int:
    """Bytes of address space this process holds now (the limit is set above it: the child starts as a copy)."""
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError):
        return 0


def address_space_limit(megabytes: int) -> int:
    """An RLIMIT_AS in bytes for a forked process: what it maps now (the parent's code, libraries and data, which it
    starts as a copy of) plus `megabytes` of its own, never above the hard limit already in force. The parse's child
    here and each job's process (jobs.py) are limited this way."""
    limit = _address_space_now() + megabytes * 1024 * 1024
    _soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    return limit if hard == resource.RLIM_INFINITY else min(limit, hard)


def _child(write_fd: int, lim: Limits, func: Callable[..., Any], args: tuple, kwargs: dict) -> None:
    code = 0
    try:
        faulthandler.disable()  # a crash here is expected of a hostile file: no traceback dump in the server's log
        signal.signal(signal.SIGXCPU, signal.SIG_DFL)
        resource.setrlimit(resource.RLIMIT_CPU, (lim.cpu_seconds, lim.cpu_seconds + 1))
        limit = address_space_limit(lim.memory_mb)
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))  # a crash leaves no core file behind
        try:
            outcome: tuple[str, Any] = ("ok", func(*args, **kwargs))
        except MemoryError:
            os._exit(_EXIT_MEMORY)
        except RecursionError:
            outcome = ("refused", "crash")
        except Exception as exc:  # sent back and raised again in the parent, as if the parse had run there
            outcome = ("raise", exc)
        try:
            payload = pickle.dumps(outcome, protocol=pickle.HIGHEST_PROTOCOL)
        except MemoryError:
            os._exit(_EXIT_MEMORY)
        except Exception:
            os._exit(_EXIT_UNPICKLABLE)
        view = memoryview(payload)
        while view:
            view = view[os.write(write_fd, view) :]
    except MemoryError:
        code = _EXIT_MEMORY
    except BaseException:
        code = 1
    finally:
        os._exit(code)


def run_limited(func: Callable[..., T], *args: Any, limits_: Limits | None = None, **kwargs: Any) -> T:
    """`func(*args, **kwargs)` run in a limited child process: its result, or the exception it raised, or
    ParseRefused when the child ran out of time or memory or crashed. `func` must be pure (no database, no files
    written): nothing it changes reaches this process."""
    lim = limits_ or limits()
    _settle_locale()
    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child
        # No cyclic garbage collection here: it could finalize an object the parent still uses (a pooled database
        # connection's rollback would then be sent on the parent's socket). The child is short and memory-limited.
        gc.disable()
        _forget_connections()
        os.close(read_fd)
        _child(write_fd, lim, func, args, kwargs)
    os.close(write_fd)
    chunks: list[bytes] = []
    deadline = time.monotonic() + lim.wall_seconds
    timed_out = False
    try:
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                timed_out = True
                break
            ready, _w, _x = select.select([read_fd], [], [], min(left, 1.0))
            if not ready:
                continue
            chunk = os.read(read_fd, 1 << 20)
            if not chunk:
                break
            chunks.append(chunk)
    finally:
        os.close(read_fd)
        if timed_out:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        _pid, status = os.waitpid(pid, 0)
    if timed_out:
        raise ParseRefused("time")
    if os.WIFSIGNALED(status):
        sig = os.WTERMSIG(status)
        raise ParseRefused("time" if sig in (signal.SIGXCPU, signal.SIGKILL) else "crash")
    if os.WIFEXITED(status) and os.WEXITSTATUS(status) == _EXIT_MEMORY:
        raise ParseRefused("memory")
    if not chunks:
        raise ParseRefused("crash")
    kind, value = pickle.loads(b"".join(chunks))
    if kind == "ok":
        return value
    if kind == "refused":
        raise ParseRefused(value)
    raise value
