"""The phone's scripts as two bundles instead of a file per module (issue 36: 18 requests on a first visit, each with
its headers and its own compression, for ~43 KB as sent).

The modules in static/js/ stay the source (the tests under tests/js import them as they are; the pages that need the
network anyway still load theirs one by one through the import map). The modules the pages kept for offline use run
(`BUNDLES`) are written, at the app's start, into static/js/bundle/<name>.js: one ES module per bundle in which each
source module is an async function that returns its exports, run once, the first time it is asked for (`$load`), so a
module's top-level code (i18n.js's `await` of its catalog included) runs as it did, after the modules it imports.
A bundle's entries run only on the pages that name them: a page asks for an entry with
`<script type="module" src="…/bundle/app.js?v=…" data-entry="page">` (`script_module`), and the bundle, once loaded,
runs each entry of its own that a script element of the page names, in the page's order. The same bundle named by
several script elements is loaded and run once (it is one module).

Each bundle is minified by Debian's esbuild when the machine has it (`minified`: short local names; export names and
the entries' names, strings, are kept), else sent through rjsmin like any script.

A bundle imports the bundles before it at their versioned address (a static URL carries its content's hash:
judgeapp/static_files.py), so a bundle changes, and with it its address, whenever one it imports changes. The files are
written only when their text changes (several processes may start at once) and are not in git (.gitignore): `make
setup` and every start make them from the sources.

What a source module may use, checked when the bundle is made (anything else stops the start with the module named):
`import { a, b as c } from "./x.js";` at a line's start, `import("./x.js")`, `export function`, `export async function`,
`export const|let|var` (every name it declares is exported); no `export default`, `export {…}`, `export class`, no
import cycle, no module importing one of a later bundle.
"""

from __future__ import annotations

import base64
import functools
import hashlib
import os
import posixpath
import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from flask import g, url_for
from jinja2.utils import htmlsafe_json_dumps
from markupsafe import Markup, escape

from .scripts import MODULE_DIR, STATIC, module_files, module_graph, plain_url

BUNDLE_DIR = f"{MODULE_DIR}/bundle"

# name -> the entry modules it runs; a bundle holds its entries and every module they import that no bundle before it
# holds. "app": what every page runs (the theme, the page's offline work, the header's badges) and the small modules of
# the other pages kept for offline use (the calls page, the time-extension and deck-check forms), so those pages need
# no file of their own; "finder": the incident form and the quick reference, with the engine and the finder they share.
BUNDLES: dict[str, tuple[str, ...]] = {
    "app": ("js/theme.js", "js/page.js", "js/badge.js", "js/feed.js", "js/timers.js"),
    "finder": ("js/incident.js", "js/reference.js"),
}


class BundleError(ValueError):
    """A source module uses something the bundler does not turn into a function (named in the message)."""


@dataclass(frozen=True)
class Bundle:
    name: str
    filename: str  # "js/bundle/app.js"
    entries: tuple[str, ...]  # "js/page.js"
    modules: tuple[str, ...]  # every module it holds, each after the ones it imports
    imports: tuple[str, ...]  # the bundles before it that it asks for modules (their names)
    text: str


def module_key(filename: str) -> str:
    """The name a module is asked for by in a bundle: "js/page.js" -> "page"."""
    return posixpath.splitext(posixpath.basename(filename))[0]


def entry_bundles() -> dict[str, str]:
    """{entry module: the bundle that runs it}."""
    return {entry: name for name, entries in BUNDLES.items() for entry in entries}


def bundled_modules() -> set[str]:
    """Every module some bundle holds."""
    return {m for name in BUNDLES for m in module_graph_all(BUNDLES[name])}


def module_graph_all(entries: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(m for entry in entries for m in module_graph(entry)))


# ---- one source module as an async function --------------------------------------------------------------------

STATIC_IMPORT = re.compile(r'^import\s*\{([^}]*)\}\s*from\s*"(\./[^"]+)";', re.MULTILINE)
DYNAMIC_IMPORT = re.compile(r'\bimport\(\s*"(\./[^"]+)"\s*\)')
EXPORT_FUNCTION = re.compile(r"^export\s+((?:async\s+)?function\*?\s+([A-Za-z_$][\w$]*))", re.MULTILINE)
EXPORT_BINDING = re.compile(r"^export\s+((?:const|let|var)\s+)(.*)$", re.MULTILINE)
DECLARED = re.compile(r"(?:^|,)\s*([A-Za-z_$][\w$]*)\s*=")
UNSUPPORTED = re.compile(r"^\s*export\s+(?:default\b|\{|\*|class\b)|^\s*import\s+(?![{(])", re.MULTILINE)


def _dependency(importer: str, relative: str) -> str:
    return posixpath.normpath(posixpath.join(posixpath.dirname(importer), relative))


def _top_level_names(declaration: str) -> list[str]:
    """The names a `const a = 1, b = {` line declares at its top level (commas inside brackets are not theirs)."""
    depth, top = 0, []
    for ch in declaration:
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        top.append(ch if depth == 0 or ch in "([{" else " ")
    text = "".join(top).split("//")[0]
    return DECLARED.findall(text)


def as_function(filename: str, source: str) -> tuple[str, list[str]]:
    """`source` (the module `filename`) as the body of an async function returning its exports; and the modules it
    imports (static filenames)."""
    bad = UNSUPPORTED.search(source)
    if bad:
        raise BundleError(f"{filename}: {bad.group(0).strip()!r} is not bundled (judgeapp/offline/bundles.py)")
    needs: list[str] = []
    exports: list[str] = []

    def static_import(match: re.Match[str]) -> str:
        dependency = _dependency(filename, match.group(2))
        needs.append(dependency)
        names = []
        for part in match.group(1).split(","):
            words = part.split()
            if not words:
                continue
            names.append(words[0] if len(words) == 1 else f"{words[0]}: {words[2]}")  # a as b -> a: b
        return f'const {{ {", ".join(names)} }} = await $load("{module_key(dependency)}");'

    def dynamic_import(match: re.Match[str]) -> str:
        dependency = _dependency(filename, match.group(1))
        needs.append(dependency)
        return f'$load("{module_key(dependency)}")'

    def export_function(match: re.Match[str]) -> str:
        exports.append(match.group(2))
        return match.group(1)

    def export_binding(match: re.Match[str]) -> str:
        names = _top_level_names(match.group(2))
        if not names:
            raise BundleError(f"{filename}: no name found in {match.group(0)!r}")
        exports.extend(names)
        return match.group(1) + match.group(2)

    body = STATIC_IMPORT.sub(static_import, source)
    if re.search(r"^import\b", body, re.MULTILINE):
        raise BundleError(f"{filename}: an import the bundler does not read")
    body = DYNAMIC_IMPORT.sub(dynamic_import, body)
    body = EXPORT_FUNCTION.sub(export_function, body)
    body = EXPORT_BINDING.sub(export_binding, body)
    if re.search(r"^\s*export\b", body, re.MULTILINE):
        raise BundleError(f"{filename}: an export the bundler does not read")
    returned = ", ".join(exports)
    return f"async function () {{\n{body}\nreturn {{ {returned} }};\n}}", needs


# ---- the bundles ------------------------------------------------------------------------------------------------

PRELUDE = """const $defs = {}, $made = {};
export function $load(name) {
  if (!(name in $defs)) return %(fallback)s;
  return $made[name] || ($made[name] = $defs[name]());
}
"""
RUN = """for (const element of document.querySelectorAll("script[data-entry]")) {
  const name = element.getAttribute("data-entry");
  if (%(entries)s.indexOf(name) !== -1) $load(name);
}
"""


def static_digest(text: str) -> str:
    """The content hash static_files.StaticVersions gives the written file (its ?v=)."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:12]


def _in_order(functions: dict[str, tuple[str, list[str]]]) -> list[str]:
    """The modules of `functions`, each after the ones it imports (an import cycle stops the start)."""
    ordered: list[str] = []

    def visit(module: str, path: tuple[str, ...]) -> None:
        if module in ordered or module not in functions:
            return
        if module in path:
            raise BundleError(f"an import cycle: {' -> '.join((*path, module))}")
        for dependency in functions[module][1]:
            visit(dependency, (*path, module))
        ordered.append(module)

    for module in functions:
        visit(module, ())
    return ordered


def minified(plain: str, kept: str | None) -> str:
    """`plain` (a bundle's text) minified by Debian's esbuild (a Go program, scripts/system-deps.sh), which also gives
    local names one or two letters (~2.8 KB fewer as sent than rjsmin alone for the two bundles); `plain` itself when
    there is no esbuild (static_files.py then sends it through rjsmin, as any script). Made once per text: the first
    line names the text it was made from, and `kept` (the file written before) is taken again when it names this one."""
    head = f"// {BUNDLE_DIR}: made by judgeapp/offline/bundles.py from {static_digest(plain)}\n"
    if kept is not None and kept.startswith(head):
        return kept
    esbuild = shutil.which("esbuild")
    if esbuild is not None:
        done = subprocess.run(
            [esbuild, "--minify", "--format=esm", "--target=es2022", "--log-level=error"],
            input=plain,
            capture_output=True,
            text=True,
            timeout=120,
        )
        if done.returncode == 0:
            return head + done.stdout
    return head + plain


def make_bundles(static: Path = STATIC) -> list[Bundle]:
    """Every bundle's text, from the sources under `static`, in BUNDLES' order."""
    made: list[Bundle] = []
    held: dict[str, str] = {}  # module -> the bundle that holds it
    for name, entries in BUNDLES.items():
        own = [m for m in module_graph_all(entries) if m not in held]
        functions = {m: as_function(m, (static / m).read_text(encoding="utf-8")) for m in own}
        for module, (_, needs) in functions.items():
            for dependency in needs:
                if dependency not in functions and dependency not in held:
                    raise BundleError(f"{module} imports {dependency}, which no bundle up to {name!r} holds")
        ordered = _in_order(functions)
        imported = tuple(dict.fromkeys(held[d] for _, needs in functions.values() for d in needs if d in held))
        lines = [f"// {BUNDLE_DIR}/{name}.js: made by judgeapp/offline/bundles.py from static/js/ (do not edit)"]
        for other in imported:
            before = next(b for b in made if b.name == other)
            lines.append(f'import {{ $load as ${other} }} from "./{other}.js?v={static_digest(before.text)}";')
        # a module this bundle does not hold: from the bundles it imports, the first that has it
        fallback = 'Promise.reject(new Error("no module " + name))'
        for n, other in enumerate(reversed(imported)):
            fallback = f"${other}(name)" if n == 0 else f"${other}(name).catch(() => {fallback})"
        lines.append(PRELUDE % {"fallback": fallback})
        for module in ordered:
            lines.append(f'// ---- {module}\n$defs["{module_key(module)}"] = {functions[module][0]};')
        keys = "[" + ", ".join(f'"{module_key(e)}"' for e in entries) + "]"
        lines.append(RUN % {"entries": keys})
        held.update(dict.fromkeys(own, name))
        try:
            kept: str | None = (static / BUNDLE_DIR / f"{name}.js").read_text(encoding="utf-8")
        except OSError:
            kept = None
        text = minified("\n".join(lines) + "\n", kept)
        made.append(Bundle(name, f"{BUNDLE_DIR}/{name}.js", entries, tuple(ordered), imported, text))
    return made


def write_bundles(static: Path = STATIC) -> list[Bundle]:
    """Write each bundle into static/js/bundle/ when its text changed (atomically: processes may start together)."""
    bundles = make_bundles(static)
    folder = static / BUNDLE_DIR
    for bundle in bundles:
        path = static / bundle.filename
        try:
            if path.read_text(encoding="utf-8") == bundle.text:
                continue
        except OSError:
            pass
        try:
            folder.mkdir(parents=True, exist_ok=True)
            fd, temporary = tempfile.mkstemp(dir=folder, prefix=f".{bundle.name}-", suffix=".tmp")
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(bundle.text)
            os.replace(temporary, path)
        except OSError as error:  # a read-only install: made beforehand by `make bundles`, or out of date
            raise BundleError(f"{path} is out of date and cannot be written ({error}): run `make bundles`") from error
    return bundles


# ---- the pages' script elements ---------------------------------------------------------------------------------


def script_module(filename: str) -> Markup:
    """The <script type="module"> that runs `filename` ("js/incident.js"): its bundle, naming it as the entry, when a
    bundle runs it; else the module itself (through the import map)."""
    bundle = entry_bundles().get(filename)
    if bundle is None:
        return Markup(f'<script type="module" src="{escape(url_for("static", filename=filename))}"></script>')
    src = url_for("static", filename=f"{BUNDLE_DIR}/{bundle}.js")
    return Markup(f'<script type="module" src="{escape(src)}" data-entry="{escape(module_key(filename))}"></script>')


@functools.cache
def unbundled_modules() -> tuple[str, ...]:
    """The modules a page loads one by one: the entries no bundle runs (judgeapp/offline/bundles.py), the modules of
    pages that need the network anyway, and every module they import."""
    held = bundled_modules()
    entries = [f for f in module_files() if f not in held]
    return tuple(sorted({m for entry in entries for m in module_graph(entry)}))


def import_map() -> dict[str, dict[str, str]]:
    """{"imports": {plain URL: url_for's URL}} for every module a page loads one by one (the bundles import each other
    at their versioned addresses already)."""
    return {"imports": {plain_url(f): url_for("static", filename=f) for f in unbundled_modules()}}


def import_map_tag() -> Markup:
    """The <script type="importmap"> element; its hash is allowed by this response's Content-Security-Policy."""
    text = htmlsafe_json_dumps(import_map())
    digest = base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode("ascii")
    g.setdefault("judgeapp_script_hashes", set()).add(f"'sha256-{digest}'")
    return Markup(f'<script type="importmap">{text}</script>')


def module_preloads(entry: str) -> Markup:
    """<link rel="modulepreload"> for the file that runs `entry` (its bundle, judgeapp/offline/bundles.py, else the
    module and every module it imports), at url_for's (versioned) addresses: the browser fetches it from the page's
    head instead of after the page's end."""
    bundle = entry_bundles().get(entry)
    files = [f"{BUNDLE_DIR}/{bundle}.js"] if bundle else module_graph(entry)
    links = (f'<link rel="modulepreload" href="{escape(url_for("static", filename=f))}">' for f in files)
    return Markup("".join(links))
