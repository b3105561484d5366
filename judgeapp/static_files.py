"""Static files under names that carry their content's hash, so browsers may keep them for a year.

`url_for('static', filename='app.css')` builds `/static/v/<hash>/app.css`, where <hash> is the first 12 hex digits of
the file's SHA-256: templates, the manifest and the service worker's shell list change nothing and get versioned
URLs. Such a URL is answered with `Cache-Control: public, max-age=31536000, immutable`; a new deployment changes the
file, so its hash, so its URL, and no browser or proxy ever serves the old copy under the new name.

The hash lives in the path, not in a `?v=` query, because the service worker (static/sw.js) recognises its shell files
by `url.pathname`: a query would be invisible to it and the files would not be served offline.

A request whose hash is not the file's current one (a page rendered before a deployment, or a module's relative
import resolved against another file's folder) still gets the current file, with the short cache of an unversioned
request (Flask's `no-cache`, revalidated by ETag): a page that is a few minutes old keeps working instead of losing
its script to a 404, and no content is ever stored for a year under a name that is not its own hash.
"""
from __future__ import annotations

import hashlib
import os
import re
from typing import Any

from flask import Flask, Response, g, request

IMMUTABLE = "public, max-age=31536000, immutable"
PREFIX = "v"  # /static/v/<hash>/<filename>; no real static file lives under static/v/
VERSIONED = re.compile(rf"^{PREFIX}/(?P<hash>[0-9a-f]{{12}})/(?P<filename>.+)$")


class StaticVersions:
    """Content hashes of the files in one static folder, recomputed when a file's size or mtime changes."""

    def __init__(self, folder: str) -> None:
        self.folder = folder
        self._hashes: dict[str, tuple[int, int, str]] = {}  # filename -> (mtime_ns, size, hash)

    def hash_of(self, filename: str) -> str | None:
        """The file's content hash, or None when there is no such file inside the folder."""
        path = os.path.realpath(os.path.join(self.folder, filename))
        if not path.startswith(os.path.realpath(self.folder) + os.sep):
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

    @app.url_defaults
    def _versioned_url(endpoint: str, values: dict[str, Any]) -> None:
        filename = values.get("filename")
        if endpoint != "static" or not isinstance(filename, str) or VERSIONED.match(filename):
            return
        digest = versions.hash_of(filename)
        if digest is not None:  # a missing file keeps its plain URL (and answers 404 as before)
            values["filename"] = f"{PREFIX}/{digest}/{filename}"

    @app.url_value_preprocessor
    def _unversioned_file(endpoint: str | None, values: dict[str, Any] | None) -> None:
        if endpoint != "static" or not values:
            return
        match = VERSIONED.match(values.get("filename", ""))
        if match:
            values["filename"] = match["filename"]
            g.judgeapp_static_version = match["hash"]

    @app.after_request  # registered after Flask-Compress, so it runs before it (after_request runs in reverse)
    def _cache_versioned(response: Response) -> Response:
        if request.endpoint != "static":
            return response
        requested = g.pop("judgeapp_static_version", None)
        if (requested is not None and response.status_code in (200, 304) and request.view_args
                and requested == versions.hash_of(request.view_args["filename"])):
            response.headers["Cache-Control"] = IMMUTABLE
        if response.status_code == 200 and response.direct_passthrough:
            # Read the (small) file now: Flask-Compress then compresses it whole, with gzip too, and the file is closed
            # with the response; compressing the open file as a stream would leave it to the garbage collector.
            response.direct_passthrough = False
            response.get_data()
        return response
