"""The floor's modules depend one way: investigations, appeals, the clock and deck checks build on incidents and
the history, never the other way round (not even with an import inside a function)."""

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "judgeapp"
BUILT_ON_INCIDENTS = {
    "judgeapp.investigations",
    "judgeapp.appeals",
    "judgeapp.clock",
    "judgeapp.deckchecks",
    "judgeapp.postevent",
    "judgeapp.offline",
}


def imports_of(path: Path) -> set[str]:
    """Every judgeapp module `path` imports, at module level or inside a function, as dotted names."""
    package = ".".join(("judgeapp", *path.relative_to(PACKAGE).parent.parts)).rstrip(".")
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = package.split(".")[: len(package.split(".")) - node.level + 1] if node.level else []
            module = ".".join([*base, *(node.module.split(".") if node.module else [])])
            found |= {module} | {f"{module}.{a.name}" for a in node.names}
    return {m for m in found if m.startswith("judgeapp")}


@pytest.mark.parametrize(
    "module",
    [
        "incidents/services.py",
        "incidents/lookup_services.py",
        "incidents/ruling_services.py",
        "incidents/edit_services.py",
        "incidents/list_services.py",
        "history.py",
    ],
)
def test_incidents_and_the_history_never_import_the_modules_built_on_them(module):
    upward = {
        m for m in imports_of(PACKAGE / module) if any(m == b or m.startswith(b + ".") for b in BUILT_ON_INCIDENTS)
    }
    assert not upward, f"{module} imports {sorted(upward)}"


def test_the_history_is_read_from_one_module():
    """Prior penalties are counted in judgeapp/history.py only: no other module builds the engine's priors from the
    records or picks the statuses that count itself (the CLI's `penalty suggest` builds priors typed on its command
    line, and the engine itself is judgeapp/infractions)."""
    builders = [
        p.relative_to(PACKAGE).as_posix()
        for p in PACKAGE.rglob("*.py")
        if p.name not in ("history.py", "cli.py")
        and "infractions" not in p.parts
        and ("Prior(" in p.read_text() or "IncidentStatus.RECOMMENDED]" in p.read_text())
    ]
    assert builders == []


def _module_names() -> dict[str, Path]:
    """Every module of the package by its dotted name (a package by its own name, for its __init__.py)."""
    names = {}
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        names[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return names


def _under_type_checking(tree: ast.AST) -> set[int]:
    """The nodes inside `if TYPE_CHECKING:` blocks: read by the type checker only, never run."""
    inside = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            inside |= {id(n) for statement in node.body for n in ast.walk(statement)}
    return inside


def import_graph() -> dict[str, set[str]]:
    """Which judgeapp modules each judgeapp module imports when it runs: at module level or inside a function (an
    import put inside a function to dodge a circle is still a circle). `from pkg import name` points at the module
    pkg.name when there is one, else at pkg itself (its __init__.py)."""
    modules = _module_names()
    graph = {}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        tree = ast.parse(path.read_text())
        skipped = _under_type_checking(tree)
        targets = set()
        for node in ast.walk(tree):
            if id(node) in skipped:
                continue
            if isinstance(node, ast.Import):
                targets |= {a.name for a in node.names if a.name in modules}
            elif isinstance(node, ast.ImportFrom):
                base = package.split(".")[: len(package.split(".")) - node.level + 1] if node.level else []
                source = ".".join([*base, *(node.module.split(".") if node.module else [])])
                for alias in node.names:
                    if f"{source}.{alias.name}" in modules:
                        targets.add(f"{source}.{alias.name}")
                    elif source in modules:
                        targets.add(source)
        graph[name] = targets - {name}
    return graph


def import_circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """One circle per strongly connected group of modules, as the path that leaves its first module and comes back."""
    circles = []
    seen: set[str] = set()
    for start in sorted(graph):
        if start in seen:
            continue
        path = _path_back(graph, start)
        if path:
            circles.append(path)
            seen |= set(path)
    return circles


def _path_back(graph: dict[str, set[str]], start: str) -> list[str] | None:
    """The shortest way from `start` through its imports back to `start`, or None (breadth first, so the named circle
    is the smallest one to read)."""
    came_from: dict[str, str] = {}
    frontier = [start]
    while frontier:
        following = []
        for module in frontier:
            for target in sorted(graph[module]):
                if target == start:
                    path = [module]
                    while path[-1] != start:
                        path.append(came_from[path[-1]])
                    return [*reversed(path), start]
                if target not in came_from:
                    came_from[target] = module
                    following.append(target)
        frontier = following
    return None


def test_the_import_graph_reads_both_kinds_of_import():
    """The walk sees the imports it must: a module-level one and one inside a function (web's refuse reads the db)."""
    graph = import_graph()
    assert "judgeapp.extensions" in graph["judgeapp.models"] or "judgeapp.database" in graph["judgeapp.models"]
    assert "judgeapp.extensions" in graph["judgeapp.web"]
    assert "judgeapp.calls.services" in graph["judgeapp.calls.views"]


def test_no_module_in_judgeapp_comes_back_to_itself_through_its_imports():
    """No import circle anywhere in the package, not even through an import inside a function: each module builds
    on modules that never need it. A circle found is named module by module."""
    circles = import_circles(import_graph())
    assert circles == [], "import circles:\n" + "\n".join(" -> ".join(c) for c in circles)


MOST_LINES = 500
# The services and views still longer than MOST_LINES, and why: this list only shrinks. A module that comes under the
# limit must leave it (the test below says so), and no other may join it.
STILL_LONG: dict[str, str] = {}


def _services_and_views() -> dict[str, int]:
    """Every services or views module of the package (player_views.py too) with its number of lines."""
    return {
        p.relative_to(PACKAGE).as_posix(): len(p.read_text().splitlines())
        for p in PACKAGE.rglob("*.py")
        if p.stem in ("services", "views") or p.stem.endswith(("_services", "_views"))
    }


def test_no_services_or_views_module_is_longer_than_500_lines_but_those_listed_with_why():
    """Each services or views module answers one question and reads in one sitting: at most 500 lines. The modules
    still over it are named in STILL_LONG with the reason; the list only shrinks."""
    sizes = _services_and_views()
    too_long = {path: n for path, n in sizes.items() if n > MOST_LINES and path not in STILL_LONG}
    assert too_long == {}, f"over {MOST_LINES} lines: split them along their use cases"
    back_under = sorted(path for path in STILL_LONG if sizes.get(path, 0) <= MOST_LINES)
    assert back_under == [], "now under the limit: take them off STILL_LONG"


FIRST_IMPORT = """
import importlib, json, os, sys, traceback
import judgeapp, weasyprint  # the libraries and the top package once, then each module first in its own child
failed, loaded_by = [], {}
for name in sorted(sys.argv[1:], key=lambda n: (n.count("."), n)):  # a package before its modules
    # Importing a.b.c first runs a.b's __init__.py first: when that already imported a.b.c, importing a.b.c first
    # is importing a.b first, done already (about 3 modules in 5 are so, and are not imported again)
    if name in loaded_by.get(name.rpartition(".")[0], ()):
        continue
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read)
        before = set(sys.modules)
        try:
            importlib.import_module(name)
        except Exception:
            sys.stderr.write(name + ": " + traceback.format_exc().strip().splitlines()[-1] + "\\n")
            os._exit(1)
        os.write(write, json.dumps([m for m in set(sys.modules) - before if m.startswith("judgeapp.")]).encode())
        os._exit(0)
    os.close(write)
    with os.fdopen(read, "rb") as answer:
        loaded = answer.read()
    if os.waitpid(pid, 0)[1] != 0:
        failed.append(name)
    else:
        loaded_by[name] = set(json.loads(loaded))
sys.exit(1 if failed else 0)
"""


def test_every_module_of_judgeapp_imports_when_it_is_the_first_one_imported():
    """Importing a module runs its package's __init__.py first, and the views a package's __init__ imports: a circle
    through a package (floor -> events -> events.round_views -> floor) passes the graph above but fails at run time
    whenever that module is the first imported (a test importing judgeapp.incidents.services first, say). Each module
    is imported first in a fresh interpreter (a forked child), but for those its package's __init__.py imports
    itself, for which that is the same as importing the package first (62 -> 16 CPU s, 27 Nov)."""
    import os
    import subprocess
    import sys

    names = sorted(_module_names())
    # not measured by coverage (pytest-cov would trace every child's imports: minutes instead of about one)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("COV_CORE", "COVERAGE"))}
    done = subprocess.run(
        [sys.executable, "-c", FIRST_IMPORT, *names],
        capture_output=True,
        text=True,
        cwd=PACKAGE.parent,
        env=env,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
