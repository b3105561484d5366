"""Japanese input stays data: a cell of an exported CSV file that begins with a formula sign typed full-width
(＝ ＋ － ＠ ｜ ％, as a Japanese keyboard's IME writes them, which Japanese Excel reads as their half-width
originals), or padded with an ideographic space (U+3000), is neutralised like its half-width twin."""

from __future__ import annotations

import pytest

from judgeapp.postevent.services import to_csv


def cells(*values) -> list[str]:
    return to_csv(["a"], [[v] for v in values]).decode("utf-8-sig").splitlines()[1:]


@pytest.mark.parametrize(
    "typed",
    ['＝HYPERLINK("http://evil.example","クリック")', "＋1＋1", "－2＋3", "＠SUM(A1)", "｜cmd", "％x", "﹦1+1"],
)
def test_a_csv_cell_starting_with_a_full_width_formula_sign_is_neutralised(typed):
    (cell,) = cells(typed)
    assert cell.lstrip('"').startswith("'"), cell


@pytest.mark.parametrize("typed", ["\u3000=1+1", "\u3000\u3000＝1+1", " \u3000@SUM(A1)"])
def test_a_csv_cell_padded_with_ideographic_spaces_before_a_formula_sign_is_neutralised(typed):
    (cell,) = cells(typed)
    assert cell.lstrip('"').startswith("'"), cell


def test_japanese_text_and_numbers_that_are_no_formula_are_kept_as_typed():
    kept = ["佐藤 陽翔", "ー", "ーくん", "−3", "\u3000佐藤", "ＡＢＣ", "１２３"]  # ー: the long vowel mark, not a minus
    assert cells(*kept, -3) == [*kept, "-3"]
