"""How the browser tests wait, read from their source (no browser needed).

Playwright's wait_for_function evaluates its string in the page with `eval`: once from the test's own call (which
Chromium lets through whatever the page's Content-Security-Policy says), then again at each animation frame while the
answer is false. Our pages forbid eval (script-src without 'unsafe-eval'), so a bare expression such as
"document.querySelector('#x').disabled" works only when it is already true at the first look, that is, on a quiet
machine: under load the second look raises EvalError (test_policy_language failed so, at load ~10). A function,
"() => …", is evaluated once and then only called, which the policy allows."""

from __future__ import annotations

import ast
import re
from pathlib import Path

HERE = Path(__file__).resolve().parent
FUNCTION = re.compile(r"^\s*(async\s+)?(\(\s*[\w\s,]*\)|\w+)\s*=>|^\s*(async\s+)?function\b")


def _first_text(arg: ast.expr) -> str | None:
    """The start of a literal string or f-string argument (None: not a literal, so not checked here)."""
    if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
        return arg.value
    if isinstance(arg, ast.JoinedStr) and arg.values and isinstance(arg.values[0], ast.Constant):
        return str(arg.values[0].value)
    return None


def test_every_wait_for_function_in_the_browser_tests_waits_on_a_function_which_the_pages_csp_lets_it_poll():
    bare = []
    for path in sorted(HERE.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
                continue
            if node.func.attr != "wait_for_function" or not node.args:
                continue
            text = _first_text(node.args[0])
            if text is not None and not FUNCTION.match(text):
                bare.append(f"{path.name}:{node.lineno}: {text[:60]}")
    assert not bare, "wait_for_function on a bare expression (polled by eval, which the CSP refuses):\n" + "\n".join(
        bare
    )
