"""The hostile policy files of issue 32, built byte for byte as the review reproduced them, and a legitimate policy
of about 40 KB to measure them against (tests/unit/test_policy_bombs.py, tests/integration/test_bounded_uploads.py,
bench/policy_upload.py)."""

from __future__ import annotations

from pathlib import Path

HOUSE = (Path(__file__).resolve().parents[1] / "fixtures" / "catalogs" / "valid.yaml").read_text()


def alias_bomb(levels: int = 8, item: str = "x") -> str:
    """`l0: &l0 [x ×10]`, `l1: &l1 [*l0 ×10]` … `l7`, then `policies: {}`: 464 bytes, 10**8 nodes when composed."""
    lines = [f"l0: &l0 [{', '.join([item] * 10)}]"]
    for n in range(1, levels):
        lines.append(f"l{n}: &l{n} [{', '.join([f'*l{n - 1}'] * 10)}]")
    return "\n".join(lines) + "\npolicies: {}\n"


def duplicate_key_bomb(levels: int = 8) -> str:
    """The alias bomb with a duplicated key in `l0` (`[{k: 1, k: 1}, …]`): the duplicate-key walk follows every
    alias (456 B took 5.7 s and 530 MB at 7 levels)."""
    return alias_bomb(levels, "{k: 1, k: 1}")


def deep_brackets(depth: int = 100_000) -> str:
    """`policies: ` then 100,000 `[` and as many `]`: libyaml's composer recurses until it segfaults."""
    return "policies: " + "[" * depth + "]" * depth + "\n"


SELF_ALIAS = "policies: &a [*a]\n"  # a list holding itself: RecursionError in the duplicate-key walk


def deep_levels(depth: int = 2_000) -> str:
    """2,000 mappings inside one another (`{k: {k: … v}}`): RecursionError in the duplicate-key walk, a 500."""
    return "policies: " + "{k: " * depth + "v" + "}" * depth + "\n"


def _language(n: int) -> str:
    letters = "abcdefghijklmnopqrstuvwxyz"
    return letters[n // 676 % 26] + letters[n // 26 % 26] + letters[n % 26]


def language_codes(languages: int = 2_000, infractions: int = 1_000) -> str:
    """A policy named in 2,000 languages with 1,000 infractions named in none: 2 million problems (one per missing
    name), all formatted before the first 20 were kept (14 s, 1.6 GB)."""
    names = ", ".join(f"{_language(n)}: N" for n in range(languages))
    head = HOUSE.split("    infractions:\n", 1)[0].replace(
        "    name: Shop House Rules\n", f"    name: Shop House Rules\n    names: {{{names}}}\n", 1
    )
    rows = "".join(
        f'      - {{code: "1.{n}", name: I{n}, subsection: "1", notes: N, defaults: {{level_1: caution, level_2: '
        "warning}}\n"
        for n in range(infractions)
    )
    return head + "    infractions:\n" + rows


def synonyms_alias(infractions: int = 4_000, synonyms: int = 20_000) -> str:
    """First infraction `synonyms: &S [s0 … s19999]`, the others `synonyms: *S`: a 560 KB file that validated today,
    then cost 57 s and 3.4 GB to parse, again in every worker."""
    head = HOUSE.split("    infractions:\n", 1)[0]
    words = ", ".join(f"s{n}" for n in range(synonyms))
    rows = [
        f'      - {{code: "1.0", name: I0, subsection: "1", notes: N, synonyms: &S [{words}], '
        "defaults: {level_1: caution, level_2: warning}}\n"
    ]
    rows += [
        f'      - {{code: "1.{n}", name: I{n}, subsection: "1", notes: N, synonyms: *S, '
        "defaults: {level_1: caution, level_2: warning}}\n"
        for n in range(1, infractions)
    ]
    return head + "    infractions:\n" + "".join(rows)


def legitimate(target_bytes: int = 40_000, policy_id: str = "house-rules") -> str:
    """A plain policy of about `target_bytes`: the house rules with as many infractions as fit, each with notes,
    a remedy and synonyms, as a real guide's are."""
    head = HOUSE.split("    infractions:\n", 1)[0].replace("  house-rules:", f"  {policy_id}:", 1)
    rows: list[str] = []
    n = 0
    size = len(head)
    while size < target_bytes:
        row = (
            f'      - code: "1.{n}"\n        name: Card handling mistake number {n}\n        subsection: "1"\n'
            "        notes: >-\n          A player drew, looked at or moved cards they should not have; the judge "
            "checks what\n          happened and applies the default penalty for the level.\n"
            "        remedy: Shuffle the extra card into the random portion of the deck.\n"
            "        synonyms: [extra card, drew too many, looked at cards]\n"
            "        defaults: {level_1: caution, level_2: {min: warning, max: loss_of_game}}\n"
        )
        rows.append(row)
        size += len(row)
        n += 1
    return head + "    infractions:\n" + "".join(rows)
