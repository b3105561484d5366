"""judgeapp.infractions stays pure Python: no web framework or ORM anywhere in its imports."""

import ast
from pathlib import Path

import pytest

DOMAIN = Path(__file__).resolve().parents[2] / "judgeapp" / "infractions"
FORBIDDEN = ("flask", "sqlalchemy", "werkzeug", "jinja2", "wtforms", "flask_wtf", "flask_sqlalchemy", "flask_login")


@pytest.mark.parametrize("module", sorted(DOMAIN.glob("*.py")), ids=lambda p: p.name)
def test_domain_module_imports_no_flask_or_sqlalchemy(module):
    tree = ast.parse(module.read_text())
    imported = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imported |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            imported.add(node.module.split(".")[0])
        elif isinstance(node, ast.ImportFrom) and node.level > 1:
            imported.add("judgeapp (outside infractions)")
    assert not imported & set(FORBIDDEN), imported & set(FORBIDDEN)
    assert "judgeapp (outside infractions)" not in imported
