"""The phone's scripts as two bundles (judgeapp/offline/bundles.py): each source module becomes an async function that
returns exactly what the module exports, run once when first asked for; a bundle runs only the entries the page's
script elements name; a source the bundler cannot turn into a function stops the start, naming the module."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from judgeapp.offline.bundles import (
    BUNDLE_DIR,
    BundleError,
    as_function,
    make_bundles,
    minified,
    static_digest,
    write_bundles,
)
from judgeapp.offline.scripts import STATIC

NODE = shutil.which("node")
# the modules that run in Node without a page (tests/js imports them the same way)
PURE = ("i18n", "outbox", "owed", "engine", "search", "names", "seats", "servertime")


def test_the_two_bundles_hold_every_module_the_offline_pages_run_each_once_the_finder_importing_the_app_by_version():
    app, finder = make_bundles()
    assert (app.name, finder.name) == ("app", "finder")
    every_page = {"js/page.js", "js/theme.js", "js/i18n.js", "js/outbox.js", "js/storage.js", "js/sync.js"}
    assert every_page <= set(app.modules)
    assert {"js/incident.js", "js/reference.js", "js/engine.js", "js/search.js"} <= set(finder.modules)
    assert not set(app.modules) & set(finder.modules)  # a module once: the finder asks the app's bundle for i18n.js
    assert finder.imports == ("app",)
    assert re.search(rf'from\s*"\./app\.js\?v={static_digest(app.text)}";', finder.text)
    # each module after those it imports
    assert app.modules.index("js/i18n.js") < app.modules.index("js/outbox.js") < app.modules.index("js/storage.js")
    assert app.modules.index("js/storage.js") < app.modules.index("js/page.js")


def test_imports_become_awaited_loads_and_exports_the_returned_names():
    body, needs = as_function(
        "js/x.js",
        'import { a, b as c } from "./y.js";\n'
        "export const ONE = 1, TWO = { three: 3, four: [4, 5] };\n"
        'export function f() { return import("./z.js"); }\n'
        "export async function g() {}\n"
        "let hidden = 2;\n",
    )
    assert needs == ["js/y.js", "js/z.js"]
    assert 'const { a, b: c } = await $load("y");' in body
    assert 'return $load("z");' in body
    assert body.rstrip().endswith("return { f, g, ONE, TWO };\n}")
    assert "export" not in body and "hidden" in body


@pytest.mark.parametrize(
    "source",
    [
        "export default 1;\n",
        "export { a };\n",
        "export class A {}\n",
        'import a from "./y.js";\n',
        "export * from './y.js';\n",
    ],
)
def test_what_the_bundler_cannot_turn_into_a_function_stops_it_naming_the_module(source):
    with pytest.raises(BundleError, match=r"js/broken\.js"):
        as_function("js/broken.js", source)


def test_the_bundles_are_written_only_when_their_text_changes(tmp_path):
    shutil.copytree(STATIC / "js", tmp_path / "js", ignore=shutil.ignore_patterns("bundle"))
    first = write_bundles(tmp_path)
    written = {b.name: (tmp_path / b.filename).stat().st_mtime_ns for b in first}
    assert [(tmp_path / b.filename).read_text(encoding="utf-8") for b in first] == [b.text for b in first]
    write_bundles(tmp_path)
    assert {b.name: (tmp_path / b.filename).stat().st_mtime_ns for b in first} == written
    assert (STATIC / BUNDLE_DIR / "app.js").read_text(encoding="utf-8") == first[0].text  # as the app writes them


def test_each_bundled_module_gives_what_its_source_exports_and_runs_once_and_only_named_entries_run(tmp_path):
    """In Node, with a page naming no entry: the finder bundle (and the app bundle it imports) run nothing by
    themselves; `$load` gives, for each pure module, the names its source module exports, the same functions' answers,
    and the same module object each time."""
    if NODE is None:
        pytest.skip("no node here")
    for bundle in make_bundles():
        (tmp_path / Path(bundle.filename).name).write_text(bundle.text, encoding="utf-8")
    sources = STATIC / "js"
    script = tmp_path / "check.mjs"
    script.write_text(
        """
globalThis.ran = [];
globalThis.document = { querySelectorAll: () => [], querySelector: () => null, documentElement: { lang: "en" } };
const bundle = await import("./finder.js");
const pure = PURE, sources = SOURCES;
const out = {};
for (const name of pure) {
  const mine = await bundle.$load(name), again = await bundle.$load(name);
  const source = await import(sources + "/" + name + ".js");
  out[name] = { bundled: Object.keys(mine).sort(), source: Object.keys(source).sort(), same: mine === again };
}
const search = await bundle.$load("search"), source = await import(sources + "/search.js");
out.fold = [search.fold("ＡＢＣ　ｶﾞ"), source.fold("ＡＢＣ　ｶﾞ")];
console.log(JSON.stringify(out));
""".replace("PURE", json.dumps(list(PURE))).replace("SOURCES", json.dumps(sources.as_uri())),
        encoding="utf-8",
    )
    done = subprocess.run([NODE, str(script)], capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    for name in PURE:
        assert out[name]["bundled"] == out[name]["source"] and out[name]["same"], (name, out[name])
    assert out["fold"][0] == out["fold"][1]


def test_with_debians_esbuild_a_bundles_local_names_are_short_and_without_it_rjsmin_is_left_to_do_the_minifying(
    monkeypatch,
):
    plain = "export function $load(name) { var aLongLocalName = name; return aLongLocalName; }\n"
    plain += 'const x = "data-entry";\n'
    if shutil.which("esbuild") is None:
        pytest.skip("no esbuild here (scripts/system-deps.sh installs Debian's)")
    made = minified(plain, None)
    assert "aLongLocalName" not in made and "$load" in made and '"data-entry"' in made
    assert minified(plain, made) is made  # made once per text: the file written before is taken again
    monkeypatch.setattr(shutil, "which", lambda name: None)
    assert minified(plain, None).endswith(plain)
