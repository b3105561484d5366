"""The post-event report's pure parts: which penalties are listed one by one, and the bar chart."""

import re

from judgeapp.infractions import load_catalog
from judgeapp.reports.event import EventReport, PenaltyRow, bar_chart_svg
from tests.conftest import CATALOG


def test_penalties_from_the_lowest_rank_reported_to_the_head_judge_are_the_serious_ones():
    policies = load_catalog(CATALOG).policies
    assert policies["bushiroad-afr"].reported_from.name == "Loss of Game"
    assert policies["transformers-tcg"].reported_from.name == "Disqualification"  # the only penalty its text names


def test_a_policy_whose_text_names_no_penalty_has_no_serious_rank():
    assert load_catalog(CATALOG).policies["wars-tcg"].reported_from is None


def report(rows):
    fields = {name: None for name in EventReport.__dataclass_fields__}
    fields.update(ranks=["Caution", "Warning", "Loss of Game"], penalties=rows)
    return EventReport(**fields)


def test_the_chart_draws_each_infraction_as_bars_stacked_by_rank_in_proportion():
    svg = str(
        bar_chart_svg(
            report(
                [
                    PenaltyRow("3.5.2", "Failure to Discard", [2, 4, 0]),
                    PenaltyRow("4.1", "Cheating", [0, 0, 3]),
                    PenaltyRow("3.9", "Never given", [0, 0, 0]),
                ]
            )
        )
    )
    widths = [float(w) for w in re.findall(r'<rect x="[\d.]+" y="\d+" width="([\d.]+)" height="\d+" fill', svg)]
    bars, legend = widths[:3], widths[3:]
    assert abs(bars[0] * 2 - bars[1]) < 0.2 and abs(bars[0] + bars[1] - 2 * bars[2]) < 0.2  # 2, 4 and 3 of 6
    assert len(legend) == 3 and "3.9" not in svg  # an infraction nobody drew takes no row
    assert ">6</text>" in svg and ">3</text>" in svg


def test_chart_labels_are_escaped():
    svg = str(bar_chart_svg(report([PenaltyRow("<b>x</b>", "n", [1, 0, 0])])))
    assert "<b>" not in svg and "&lt;b&gt;x&lt;/b&gt;" in svg
