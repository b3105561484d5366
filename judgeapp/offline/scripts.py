"""The phone's script: native ES modules in static/js/, and the import map that keeps their imports versioned.

A module imports another by a relative address ("./storage.js"), which the browser resolves to the plain static URL.
When static URLs carry a content version (and are cached for a year), such an import would fetch the plain URL and
could keep a stale module for good. The import map in every page sends each module's plain URL to the one url_for
gives (versioned or not), so one page loads each module once, at the address the app chose.
"""

from __future__ import annotations

import functools
import posixpath
import re
from pathlib import Path

from flask import current_app, g, request

STATIC = Path(__file__).resolve().parents[1] / "static"
MODULE_DIR = "js"


@functools.cache
def module_files() -> tuple[str, ...]:
    """Every module of the phone's script, as static filenames ("js/page.js"): the one list the import map and the
    service worker's shell are built from (read once: the files change only with a deployment)."""
    return tuple(sorted(f"{MODULE_DIR}/{p.name}" for p in (STATIC / MODULE_DIR).glob("*.js")))


def plain_url(filename: str) -> str:
    """The address a relative import resolves to: the static URL with no version."""
    return f"{request.script_root}{current_app.static_url_path}/{filename}"


IMPORT_RE = re.compile(r'^import\b[^"]*"(\./[^"]+)";', re.MULTILINE)  # a module's static imports, at the line's start


@functools.cache
def module_graph(entry: str) -> tuple[str, ...]:
    """`entry` ("js/incident.js") and every module it imports, directly or not, as static filenames, each once (read
    once per process: the files change only with a deployment)."""
    found: list[str] = []
    queue = [entry]
    while queue:
        name = queue.pop(0)
        if name in found or not (STATIC / name).is_file():
            continue
        found.append(name)
        text = (STATIC / name).read_text(encoding="utf-8")
        queue += [posixpath.normpath(posixpath.join(posixpath.dirname(name), m)) for m in IMPORT_RE.findall(text)]
    return tuple(found)


def with_script_hashes(csp: str) -> str:
    """The policy with script-src extended by the hashes of the inline scripts this response rendered (the import map
    only: every other script is a file from 'self')."""
    hashes = sorted(g.get("judgeapp_script_hashes", ()))
    if not hashes:
        return csp
    return csp.replace("script-src 'self'", "script-src 'self' " + " ".join(hashes), 1)
