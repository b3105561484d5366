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


@pytest.mark.parametrize("module", ["incidents/services.py", "history.py"])
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
