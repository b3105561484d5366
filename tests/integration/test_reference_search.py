"""The quick reference searches with the finder (judgeapp/infractions/search.py `rank`): without JavaScript, `?q=`
shows what the incident form's picker finds for the same words, best first, and hides the rest."""

from __future__ import annotations

import html
import json
import re

import pytest

from judgeapp.choices import finder_entries_of, finder_file_of
from judgeapp.infractions.search import entries_of_file, rank
from tests.integration.test_event_policy import organizer, upload
from tests.integration.test_incidents import signed_in, text

# Not `db`: what is shown comes from the catalog in Python, and the rows through the ORM (docs/contributing/tests.md)


def shown(page: str) -> list[str]:
    """The codes of the infractions the page shows, in the order it shows them (the hidden ones left out)."""
    return re.findall(r'<li class="infraction" data-code="([^"]+)"[^>]*?(?<!hidden)>', page)


@pytest.fixture
def judge(app, floor):
    return signed_in(app, floor["people"]["floor_judge"][1])


@pytest.mark.parametrize(
    ("words", "first"),
    [
        ("drew extra card", "3.5.4"),  # the judge's words, none of them the name's
        ("slow play", "3.20.1"),
        ("引きすぎ", "3.5.4"),  # what a Japanese judge says
        ("スロープレイ", "3.20.1"),
    ],
)
def test_the_quick_reference_finds_a_judges_words_best_first_as_the_incident_forms_finder(app, judge, words, first):
    page = text(judge.get(f"/reference/bushiroad-afr?level=2&q={words}"))
    policy = app.extensions["judgeapp.catalog"].policy("bushiroad-afr")
    assert shown(page)[0] == first
    assert shown(page) == [hit.code for hit in rank(policy, words)]  # the finder's order, nothing else shown


@pytest.mark.parametrize(
    ("query", "count"),
    [("3.5.4", "1 of 57 infractions"), ("3.5.3", "2 of 57 infractions")],
)
def test_the_quick_reference_counts_what_it_shows(judge, query, count):
    assert count in text(judge.get(f"/reference/bushiroad-afr?level=2&q={query}"))


def test_an_empty_search_shows_every_infraction_in_the_policys_order(app, judge):
    policy = app.extensions["judgeapp.catalog"].policy("bushiroad-afr")
    assert shown(text(judge.get("/reference/bushiroad-afr?level=2&q="))) == [inf.code for inf in policy.infractions]


def test_a_code_lists_that_infraction_and_those_under_it_not_texts_that_mention_it(judge):
    assert shown(text(judge.get("/reference/bushiroad-afr?level=2&q=3.5.3"))) == ["3.5.3.1", "3.5.3.2"]


def finder_address(page: str) -> str:
    found = re.search(r'<ul class="list infractions" id="infractions" data-finder="([^"]+)"', page)
    assert found, "the list names no finder file"
    return html.unescape(found.group(1))


def test_the_quick_reference_carries_no_finder_entries_and_its_script_loads_the_incident_forms_finder_file(app, judge):
    page = text(judge.get("/reference/bushiroad-afr?level=2"))
    assert 'id="infraction-finder"' not in page and '"fields"' not in page  # no entries embedded in the page
    assert "引きすぎ" not in page  # a Japanese judge's phrase: in the file, not on the English page
    policy = app.extensions["judgeapp.catalog"].policy("bushiroad-afr")
    data, digest = finder_file_of(policy)
    assert finder_address(page) == f"/offline/finder/bushiroad-afr.json?v={digest}"  # the incident form's file
    answer = judge.get(finder_address(page))
    assert answer.status_code == 200 and answer.get_data() == data
    assert entries_of_file(json.loads(data)) == finder_entries_of(policy) and "引きすぎ" in data.decode()
    assert "immutable" in answer.headers["Cache-Control"]  # kept a year at the address that names its content


def test_an_events_uploaded_policy_page_loads_that_events_finder_file(app, floor, judge):
    event_id = floor["event_id"]
    assert upload(organizer(app, floor), event_id).status_code == 302
    page = text(judge.get(f"/reference/events/{event_id}?level=2"))
    address = finder_address(page)
    assert address.startswith(f"/offline/finder/events/{event_id}.json?v=")
    codes = [entry["code"] for entry in entries_of_file(judge.get(address).get_json())]
    assert codes == ["1.1", "2.1"] and codes == [c for c in shown(page)]
