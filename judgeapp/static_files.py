"""Static files at addresses that carry their content's hash, so browsers may keep them for a year.

`url_for('static', filename='app.css')` builds `/static/app.css?v=<hash>`, where <hash> is the first 12 hex digits of
the file's SHA-256: templates, the manifest and the service worker's shell list change nothing and get versioned
URLs. Such a URL is answered with `Cache-Control: public, max-age=31536000, immutable`; a new deployment changes the
file, so its hash, so its URL, and no browser or proxy ever serves the old copy under the new address.

The hash is a query, not a folder, because the phone's scripts are ES modules that import each other by relative
address: "./engine.js" imported from `/static/js/incident.js?v=…` resolves to `/static/js/engine.js`, which the page's
import map (judgeapp/offline/scripts.py) sends on to `/static/js/engine.js?v=<its own hash>`. Under a hashed folder
it would resolve inside the importing file's folder, under the importer's hash. The service worker matches its shell
files by path and query (static/sw.js).

A request whose hash is not the file's current one (a page rendered before a deployment) still gets the current
file, with the short cache of an unversioned request (Flask's `no-cache`, revalidated by ETag): a page that is a few
minutes old keeps working instead of losing its script, and no content is ever stored for a year under an address
that is not its own hash.

Scripts and the stylesheet are sent minified (rjsmin, rcssmin: comments and indentation out, nothing renamed), each
made once per content hash: the sources keep their comments, a phone's first visit does not download them (issue 36:
~23 KB of the cold visit's ~63 KB of scripts as sent). A module's exports and its import lines are untouched, so the
import map and `module_graph` (judgeapp/offline/scripts.py) read the sources as before.
"""

from __future__ import annotations

import hashlib
import os
from typing import Any

import brotli
import rcssmin
import rjsmin
from flask import Flask, Response, request

IMMUTABLE = "public, max-age=31536000, immutable"
VERSION_ARG = "v"  # /static/<filename>?v=<hash>


MINIFIERS = {"text/javascript": rjsmin.jsmin, "application/javascript": rjsmin.jsmin, "text/css": rcssmin.cssmin}


class Minified:
    """The minified text of each script and stylesheet, made once per content hash (a few ms per file, once)."""

    def __init__(self) -> None:
        self._made: dict[tuple[str, str], bytes] = {}

    def of(self, key: tuple[str, str], mimetype: str, data: bytes) -> bytes:
        made = self._made.get(key)
        if made is None:
            made = self._made[key] = minify(mimetype, data)
        return made


def minify(mimetype: str, data: bytes) -> bytes:
    """`data` without comments and needless whitespace when it is a script or a stylesheet; anything else as it is."""
    minifier = MINIFIERS.get(mimetype)
    if minifier is None:
        return data
    return minifier(data.decode("utf-8")).encode("utf-8")


ONCE_TYPES = {*MINIFIERS, "application/json", "image/svg+xml"}  # the static text files compressed once each
BROTLI_ONCE = 11  # brotli's best: a file compressed once per content hash, not per answer, may take the slow level
BROTLI_KEPT = 256  # compressed files kept in memory (the static text files are about 30, a finder file ~22 KB)
_BROTLI_MADE: dict[tuple[str, str], bytes] = {}


def accepts_brotli() -> bool:
    """The request's Accept-Encoding takes br (and not with q=0)."""
    for part in request.headers.get("Accept-Encoding", "").split(","):
        name, _, params = part.strip().partition(";")
        if name.strip().lower() == "br":
            weight = params.strip().removeprefix("q=")
            try:
                return not weight or float(weight) > 0
            except ValueError:
                return True
    return False


def send_compressed_once(response: Response, key: tuple[str, str]) -> Response:
    """`response` (a file that is the same for everyone: a script, a stylesheet, a policy's finder file) as brotli at
    its best level, compressed once per `key` (its name and content hash) and kept in memory; a browser that takes no
    brotli is left to Flask-Compress (gzip). Issue 36: ~2 KB fewer on a first visit than compressing each answer at
    the per-answer level. Never for a page: a page's compression is breach.py's."""
    if response.status_code != 200 or "Content-Encoding" in response.headers or not accepts_brotli():
        return response
    data = response.get_data()
    if len(data) < 500:  # config COMPRESS_MIN_SIZE: not worth it
        return response
    made = _BROTLI_MADE.get(key)
    if made is None:
        while len(_BROTLI_MADE) >= BROTLI_KEPT:  # uploaded policies' finder files come and go: the oldest goes
            _BROTLI_MADE.pop(next(iter(_BROTLI_MADE)))
        made = _BROTLI_MADE[key] = brotli.compress(data, quality=BROTLI_ONCE)
    response.set_data(made)
    response.headers["Content-Encoding"] = "br"
    response.headers["Vary"] = "Accept-Encoding"
    return response


MAX_STATIC_NAMES = 4096  # StaticVersions' resolved names kept (the static folder holds a few hundred files)


class StaticVersions:
    """Content hashes of the files in one static folder, recomputed when a file's size or mtime changes."""

    def __init__(self, folder: str) -> None:
        self._hashes: dict[str, tuple[int, int, str]] = {}  # filename -> (mtime_ns, size, hash)
        self.folder = folder

    @property
    def folder(self) -> str:
        return self._folder

    @folder.setter
    def folder(self, folder: str) -> None:
        self._folder = folder
        self._root = os.path.realpath(folder) + os.sep
        # filename -> its resolved path, None when it resolves outside the folder. Resolving is most of the cost of a
        # page's ~15 static URLs (two realpath walks each, ~2 ms a page), and a name resolves the same way until the
        # folder's links change, which a deployment does by restarting; the content's freshness is still the stat.
        self._paths: dict[str, str | None] = {}

    def _path(self, filename: str) -> str | None:
        if filename not in self._paths:
            if len(self._paths) >= MAX_STATIC_NAMES:  # names asked for by URLs: bounded, whatever a client sends
                self._paths.clear()
            path = os.path.realpath(os.path.join(self.folder, filename))
            self._paths[filename] = path if path.startswith(self._root) else None
        return self._paths[filename]

    def hash_of(self, filename: str) -> str | None:
        """The file's content hash, or None when there is no such file inside the folder."""
        path = self._path(filename)
        if path is None:
            return None
        try:
            stat = os.stat(path)
        except OSError:
            return None
        known = self._hashes.get(filename)
        if known and known[:2] == (stat.st_mtime_ns, stat.st_size):
            return known[2]
        with open(path, "rb") as f:
            digest = hashlib.file_digest(f, "sha256").hexdigest()[:12]
        self._hashes[filename] = (stat.st_mtime_ns, stat.st_size, digest)
        return digest


def init_static_versions(app: Flask) -> None:
    """Version the static endpoint's URLs and cache versioned answers for a year."""
    if app.static_folder is None:
        return
    versions = StaticVersions(app.static_folder)
    app.extensions["judgeapp.static_versions"] = versions
    minified = Minified()

    @app.url_defaults
    def _versioned_url(endpoint: str, values: dict[str, Any]) -> None:
        filename = values.get("filename")
        if endpoint != "static" or not isinstance(filename, str) or VERSION_ARG in values:
            return
        digest = versions.hash_of(filename)
        if digest is not None:  # a missing file keeps its plain URL (and answers 404 as before)
            values[VERSION_ARG] = digest

    @app.after_request  # registered after Flask-Compress, so it runs before it (after_request runs in reverse)
    def _cache_versioned(response: Response) -> Response:
        if request.endpoint != "static":
            return response
        requested = request.args.get(VERSION_ARG)
        if (
            requested is not None
            and response.status_code in (200, 304)
            and request.view_args
            and requested == versions.hash_of(request.view_args["filename"])
        ):
            response.headers["Cache-Control"] = IMMUTABLE
            # kept for a year and never revalidated: its validators would only be bytes on every first visit
            for header in ("ETag", "Last-Modified"):
                response.headers.pop(header, None)
        for header in ("Content-Disposition", "Accept-Ranges"):  # send_file's; a browser has no use for them here
            response.headers.pop(header, None)
        if response.status_code == 200 and response.direct_passthrough:
            # Read the (small) file now: Flask-Compress then compresses it whole, with gzip too, and the file is closed
            # with the response; compressing the open file as a stream would leave it to the garbage collector.
            response.direct_passthrough = False
            data = response.get_data()
            if request.view_args:
                filename = request.view_args["filename"]
                digest = versions.hash_of(filename) or ""
                if response.mimetype in MINIFIERS:
                    response.set_data(minified.of((filename, digest), response.mimetype, data))
                if response.mimetype in ONCE_TYPES:
                    send_compressed_once(response, (filename, digest))
        return response
