"""The authority table and the lifecycles, without an app: what each role may do to a record in each state."""

import ast
import re
from pathlib import Path

import pytest

from judgeapp.lifecycles import (
    APPEAL,
    DECK_CHECK,
    INCIDENT,
    INVESTIGATION,
    MACHINES,
    AppealState,
    DeckCheckState,
    IllegalTransition,
    IncidentState,
    InvestigationState,
    incident_state,
)
from judgeapp.permissions import TABLE, Action, Role, decide

ROOT = Path(__file__).resolve().parents[2] / "judgeapp"
F, H, O, S = (frozenset({r}) for r in (Role.FLOOR_JUDGE, Role.HEAD_JUDGE, Role.ORGANIZER, Role.SCOREKEEPER))  # noqa: E741


@pytest.mark.parametrize("action", [Action.CORRECT_INCIDENT, Action.VOID_INCIDENT])
@pytest.mark.parametrize(
    "state, floor_may",
    [
        (IncidentState.LOGGED, True),
        (IncidentState.UNDER_APPEAL, False),
        (IncidentState.DECIDED, False),
        (IncidentState.RECOMMENDED, False),
    ],
)
def test_a_floor_judge_changes_their_own_incident_only_while_it_stands_as_they_ruled(action, state, floor_may):
    own = decide(action, F, state=state, own=True)
    assert own.allowed is floor_may
    if not floor_may:
        assert (
            own.status == 409
            and "only the head judge may change it now" in own.why
            and "ask the head judge" in own.instead
        )
    assert decide(action, F, state=IncidentState.LOGGED, own=False).status == 403  # another judge's incident


@pytest.mark.parametrize(
    "state", [IncidentState.LOGGED, IncidentState.UNDER_APPEAL, IncidentState.DECIDED, IncidentState.RECOMMENDED]
)
def test_the_head_judge_still_corrects_an_incident_in_any_standing_state(state):
    assert decide(Action.CORRECT_INCIDENT, H, state=state)


@pytest.mark.parametrize("state", list(IncidentState))
def test_a_note_can_be_added_to_an_incident_in_every_state_by_any_judge(state):
    assert decide(Action.NOTE_INCIDENT, F, state=state) and decide(Action.NOTE_INCIDENT, H, state=state)
    assert decide(Action.NOTE_INCIDENT, S, state=state).status == 403


def test_a_void_incident_cannot_be_corrected_even_by_the_head_judge():
    refused = decide(Action.CORRECT_INCIDENT, H, state=IncidentState.VOID)
    assert refused.status == 409 and "void" in refused.why


def test_only_the_head_judge_or_this_appeals_proxy_decides_it_and_only_while_it_is_open():
    assert decide(Action.DECIDE_APPEAL, H, state=AppealState.OPEN)
    assert decide(Action.DECIDE_APPEAL, frozenset({Role.FLOOR_JUDGE, Role.PROXY}), state=AppealState.OPEN)
    assert decide(Action.DECIDE_APPEAL, F, state=AppealState.OPEN).status == 403
    decided = decide(Action.DECIDE_APPEAL, H, state=AppealState.UPHELD)
    assert decided.status == 409 and decided.why == "This appeal is already decided: upheld."


def test_only_the_head_judge_gives_a_disqualification():
    assert decide(Action.ACCEPT_RECOMMENDATION, H, state=IncidentState.RECOMMENDED)
    for roles in (F, O, S):
        assert decide(Action.ACCEPT_RECOMMENDATION, roles, state=IncidentState.RECOMMENDED).status == 403


def test_a_closed_event_refuses_changes_but_takes_addenda_and_reopening():
    assert decide(Action.LOG_INCIDENT, F, event_closed=True).status == 409
    assert decide(Action.WRITE_UP, H, state=InvestigationState.OPEN, event_closed=True).status == 409
    assert decide(Action.TAKE_STATEMENT, H, state=InvestigationState.FINALIZED, event_closed=True)
    assert decide(Action.REOPEN_EVENT, O, event_closed=True, opening_form=False)
    assert decide(Action.VIEW_EVENT, S, event_closed=True)


def test_a_role_is_refused_before_the_state_is_looked_at():
    assert decide(Action.WRITE_UP, F, state=InvestigationState.FINALIZED).status == 403


@pytest.mark.parametrize("machine", MACHINES, ids=lambda m: m.name)
def test_every_transition_leaves_from_and_leads_to_states_of_its_own_machine(machine):
    for name, (sources, target) in machine.transitions.items():
        assert sources and all(isinstance(s, machine.states) for s in sources), name
        assert target is None or isinstance(target, machine.states), name


def test_every_rule_with_a_machine_names_one_of_its_transitions():
    for action, rule in TABLE.items():
        if rule.machine is not None:
            assert rule.transition in rule.machine.transitions, action


def test_every_action_has_a_rule_and_every_rule_a_reason():
    assert set(TABLE) == set(Action)
    assert all(rule.refused.strip() for rule in TABLE.values())


@pytest.mark.parametrize(
    "machine, state, transition",
    [
        (DECK_CHECK, DeckCheckState.MATCHES, "end"),
        (APPEAL, AppealState.UPHELD, "delegate"),
        (INVESTIGATION, InvestigationState.FINALIZED, "write_up"),
        (INCIDENT, IncidentState.VOID, "void"),
    ],
)
def test_an_illegal_transition_says_why(machine, state, transition):
    with pytest.raises(IllegalTransition) as refused:
        machine.move(state, transition)
    assert refused.value.why


def test_a_deck_check_can_always_be_ended_while_it_runs():
    assert DECK_CHECK.move(DeckCheckState.IN_PROGRESS, "end_with_round") is DeckCheckState.UNFINISHED
    assert DECK_CHECK.allows(DeckCheckState.IN_PROGRESS, "end")


@pytest.mark.parametrize(
    "status, open_appeal, decided, state",
    [
        ("standing", False, False, IncidentState.LOGGED),
        ("standing", True, False, IncidentState.UNDER_APPEAL),
        ("standing", False, True, IncidentState.DECIDED),
        ("standing", True, True, IncidentState.UNDER_APPEAL),
        ("recommended", False, False, IncidentState.RECOMMENDED),
        ("void", True, True, IncidentState.VOID),
        ("overturned", False, True, IncidentState.OVERTURNED),
    ],
)
def test_an_incidents_state_is_read_off_its_status_appeals_and_the_head_judges_decisions(
    status, open_appeal, decided, state
):
    assert incident_state(status, open_appeal=open_appeal, head_judge_decided=decided) is state


ROLE_STRING = re.compile(r"""['"](head_judge|floor_judge|scorekeeper|organizer)['"]\s+(not\s+)?in\s+roles""")


def test_no_view_service_or_template_compares_role_strings():
    """Every rule of authority is a row of permissions.TABLE; nobody else spells a role to decide."""
    found = []
    for path in list(ROOT.rglob("*.py")) + list(ROOT.rglob("*.html")):
        if path.name == "permissions.py":
            continue
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if ROLE_STRING.search(line):
                found.append(f"{path.relative_to(ROOT)}:{n}: {line.strip()}")
    assert found == []


def test_the_lifecycles_are_pure_python():
    tree = ast.parse((ROOT / "lifecycles.py").read_text(encoding="utf-8"))
    imported = {a.name.split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.Import) for a in node.names}
    imported |= {
        node.module.split(".")[0]
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0
    }
    assert imported <= {"__future__", "enum", "dataclasses"}


def test_a_floor_judge_withdraws_only_the_time_they_gave_themselves_a_record_without_a_lifecycle_too():
    assert decide(Action.WITHDRAW_TIME, F, on_record=True, own=True)
    refused = decide(Action.WITHDRAW_TIME, F, on_record=True, own=False)
    assert refused.status == 403 and "Only the judge who gave the time" in refused.why
    assert decide(Action.WITHDRAW_TIME, H, on_record=True, own=False)
    assert decide(Action.WITHDRAW_TIME, F)  # the route, before the record is known, lets a floor judge through


def test_a_floor_judge_takes_only_a_waiting_call_and_the_head_judge_also_one_handed_to_them():
    from judgeapp.lifecycles import CallState

    assert decide(Action.TAKE_CALL, F, state=CallState.OPEN)
    handed = decide(Action.TAKE_CALL, F, state=CallState.ESCALATED)
    assert handed.status == 409 and "only the head judge" in handed.why
    assert decide(Action.TAKE_CALL, H, state=CallState.ESCALATED)
    assert decide(Action.TAKE_CALL, S, state=CallState.OPEN).status == 403  # a scorekeeper is not a judge
    assert decide(Action.TAKE_CALL, H, state=CallState.CLOSED).status == 409


def test_only_the_judge_holding_a_call_hands_it_over_or_closes_it_and_the_head_judge_closes_any():
    from judgeapp.lifecycles import CallState

    assert decide(Action.ESCALATE_CALL, F, state=CallState.TAKEN, own=True)
    assert decide(Action.ESCALATE_CALL, F, state=CallState.TAKEN, own=False).status == 403
    assert decide(Action.ESCALATE_CALL, F, state=CallState.OPEN, own=True).status == 409  # take it first
    assert decide(Action.CLOSE_CALL, F, state=CallState.TAKEN, own=True)
    assert decide(Action.CLOSE_CALL, F, state=CallState.TAKEN, own=False).status == 403
    assert decide(Action.CLOSE_CALL, F, state=CallState.ESCALATED, own=True).status == 409
    for state in (CallState.OPEN, CallState.TAKEN, CallState.ESCALATED):
        assert decide(Action.CLOSE_CALL, H, state=state)
    assert decide(Action.LOG_FROM_CALL, F, state=CallState.TAKEN, own=True)
    assert decide(Action.LOG_FROM_CALL, F, state=CallState.OPEN, own=True).status == 409


def test_a_closed_event_stops_calls_from_its_tables():
    link = frozenset({Role.TABLE_LINK})
    assert decide(Action.RAISE_CALL, link)
    assert decide(Action.RAISE_CALL, link, event_closed=True).status == 409
    assert decide(Action.RAISE_CALL, frozenset({Role.ANONYMOUS})).status == 403


def test_the_docs_table_of_who_may_do_what_has_one_row_per_action_naming_its_roles():
    page = (ROOT.parent / "docs" / "contributing" / "permissions.md").read_text()
    rows = dict(re.findall(r"^\| `([a-z_]+)` \| ([^|]*) \|", page, flags=re.M))
    assert set(rows) == {a.value for a in Action}
    words = {
        Role.ORGANIZER: "organizer",
        Role.HEAD_JUDGE: "head judge",
        Role.ASSISTANT_HEAD_JUDGE: "assistant head judge",
        Role.FLOOR_JUDGE: "floor judge",
        Role.SCOREKEEPER: "scorekeeper",
        Role.PROXY: "proxy",
        Role.STATEMENT_AUTHOR: "link holder",
        Role.TABLE_LINK: "call link holder",
        Role.SIGNED_IN: "signed-in account",
        Role.ANONYMOUS: "signed out",
    }
    for action, rule in TABLE.items():
        named = {role for role, word in words.items() if word in rows[action.value]}
        if "head judge" not in rows[action.value].replace("assistant head judge", ""):
            named.discard(Role.HEAD_JUDGE)  # "assistant head judge" contains "head judge"
        if Role.TABLE_LINK in named:
            named.discard(Role.STATEMENT_AUTHOR)  # "call link holder" contains "link holder"
        assert named == rule.roles(), action


def test_a_tables_call_link_signature_differs_by_table_event_and_secret_and_is_stable():
    from judgeapp.calls.services import SIGNATURE_CHARS, signature

    seven = signature("secret-one", 1, 7)
    assert seven == signature("secret-one", 1, 7) and len(seven) == SIGNATURE_CHARS and seven.isalnum()
    assert (
        len({seven, signature("secret-one", 1, 8), signature("secret-one", 2, 7), signature("secret-two", 1, 7)}) == 4
    )


def test_a_role_is_one_type_whether_stored_on_an_assignment_or_read_in_the_authority_table():
    """One Role: the staff role read from an assignment is the authority table's own member, so comparing them by
    identity (`role is Role.HEAD_JUDGE`) can never miss (add_staff once skipped replacing the head judge so), and an
    assignment stores only the staff roles, by value."""
    from judgeapp import models

    assert models.Role is Role
    stored = models.StaffAssignment.__table__.c.role.type
    assert list(stored.enums) == ["head_judge", "assistant_head_judge", "floor_judge", "scorekeeper"]
    assert models.StaffInvitation.__table__.c.role.type.enums == stored.enums
    assert models.STAFF_ROLES == (Role.HEAD_JUDGE, Role.ASSISTANT_HEAD_JUDGE, Role.FLOOR_JUDGE, Role.SCOREKEEPER)
