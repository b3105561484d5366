"""The policy author's guide (docs/policies/language.md) says true things: every whole policy it shows loads, and
every `flask penalty suggest` command it shows gives the answer written under it."""

import json
import re
import shlex
from pathlib import Path
from typing import Any

import pytest

from judgeapp.infractions import suggest
from judgeapp.infractions.engine import Prior
from judgeapp.infractions.loader import parse_catalog

GUIDE = Path(__file__).resolve().parents[2] / "docs" / "policies" / "language.md"
TEXT = GUIDE.read_text(encoding="utf-8")
POLICIES = re.findall(r"```yaml\n(policies:\n.*?)```", TEXT, flags=re.S)
COMMANDS = re.findall(r"^JUDGEAPP_CATALOG=\S+ flask --app wsgi penalty suggest ([^\n]+)\n# ([^\n]+)$", TEXT, flags=re.M)


def holds(got: Any, want: Any) -> bool:
    """`want` is part of `got`: the keys it names (recursively), the items of a list one by one."""
    if isinstance(want, dict):
        return isinstance(got, dict) and all(k in got and holds(got[k], v) for k, v in want.items())
    if isinstance(want, list):
        return isinstance(got, list) and len(got) == len(want) and all(map(holds, got, want))
    return bool(got == want)


def answer(args: str) -> dict[str, Any]:
    """What `flask penalty suggest ARGS` prints, read as the CLI reads its options (judgeapp/cli.py)."""
    words = shlex.split(args)
    options: dict[str, list[str]] = {}
    for key, value in zip(words[::2], words[1::2], strict=True):
        options.setdefault(key, []).append(value)
    policies = {pid: p for block in POLICIES for pid, p in parse_catalog(block).policies.items()}
    policy = policies[options["--policy"][0]]
    priors = [Prior(*item.split(":"), ref=n) for n, item in enumerate(options.get("--prior", []), start=1)]
    minutes = int(options["--minutes-late"][0]) if "--minutes-late" in options else None
    level = policy.level(options["--level"][0]).number
    return suggest(policy, level, options["--infraction"][0], priors, minutes_late=minutes).as_dict()


def test_the_guide_shows_a_whole_policy_and_a_worked_example_for_every_kind_of_repeat_rule():
    rules = [r for block in POLICIES for p in parse_catalog(block).policies.values() for r in p.repeat_rules]
    kinds = {r.result.value for r in rules} | {"offered" for r in rules if r.offered}
    assert {"up", "rank", "ladder", "offered"} <= kinds
    ups = [r for r in rules if r.result.value == "up" and not r.offered]
    assert any(r.above_highest_prior for r in ups) and any(r.above_last_given for r in ups)
    assert any(not (r.above_highest_prior or r.above_last_given) for r in ups)  # from the default
    assert len(COMMANDS) >= 10


@pytest.mark.parametrize("block", POLICIES, ids=[re.search(r"^  (\S+):", b, re.M)[1] for b in POLICIES])
def test_every_whole_policy_in_the_guide_loads(block):
    assert parse_catalog(block, str(GUIDE)).policies


@pytest.mark.parametrize("args, printed", COMMANDS, ids=[c[0] for c in COMMANDS])
def test_every_penalty_suggest_command_in_the_guide_prints_what_the_guide_says(args, printed):
    assert holds(answer(args), json.loads("{" + printed + "}"))
