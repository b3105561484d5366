"""The README is the front door: small, the two commands first (and true), and every link into docs/ names a page."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")
LINKS = re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)|<img src=\"([^\"]+)\"", README)
TARGETS = [a or b for a, b in LINKS]


def test_the_readme_stays_under_8_kb():
    assert len(README.encode("utf-8")) < 8 * 1024


def test_the_readme_starts_with_make_run_then_make_test():
    first = re.match(r"# judgeapp\n\n```sh\n(.*?)\n```\n", README, flags=re.S)
    assert first, "the README opens with its title, then the commands"
    assert [line.split()[:2] for line in first[1].splitlines()] == [["make", "run"], ["make", "test"]]


def test_the_readmes_two_commands_are_make_targets_and_make_test_builds_the_docs_as_it_says():
    makefile = (ROOT / "Makefile").read_text()
    targets = dict(re.findall(r"^([a-z-]+):(.*)$", makefile, flags=re.M))
    assert "run" in targets and "test" in targets

    # every tier of both passes: `make test` runs the parts of test-sqlite and test-postgres (in stages, some side
    # by side), so each part is named in its recipe
    def named_in_recipe(target: str) -> set[str]:  # the tiers a target's recipe runs, through the targets it calls
        found = re.search(rf"^{target}:.*\n((?:\t.*\n)+)", makefile, flags=re.M)
        named = set(re.findall(r"(?<![\w/.-])(test-[a-z-]+|lint|docs)(?![\w/.-])", found.group(1))) if found else set()
        return named.union(*(named_in_recipe(t) for t in named - {target}))

    parts = set(targets["test-sqlite"].split()) | set(targets["test-postgres"].split())
    assert len(parts) >= 6 and parts <= named_in_recipe("test")
    assert {"lint", "docs"} <= named_in_recipe("test") | set(targets["test"].split())
    assert "mkdocs build --strict" in makefile


def test_every_docs_link_in_the_readme_names_a_page_of_the_site():
    docs = [t for t in TARGETS if t.startswith("docs/")]
    assert len(docs) >= 20
    nav = (ROOT / "mkdocs.yml").read_text()
    for link in docs:
        assert (ROOT / link).is_file(), link
        assert link.removeprefix("docs/") in nav, f"{link} is not in mkdocs.yml's nav"


def test_every_other_relative_link_in_the_readme_names_a_file():
    for link in TARGETS:
        if not link.startswith(("http://", "https://", "docs/")):
            assert (ROOT / link).is_file(), link
