"""Who can ask judgeapp for something: one Role, read by the authority table (judgeapp/permissions.py) and stored on a
staff assignment or invitation (judgeapp/models.py), so that a role read from either is the same member."""

from __future__ import annotations

import enum

from .texts import lazy_gettext as _l


class Role(str, enum.Enum):
    """Everyone who can ask judgeapp for something. The staff roles' values are those stored on StaffAssignment."""

    ORGANIZER = "organizer"  # the event's own organizer (at account level: an organizer account)
    HEAD_JUDGE = "head_judge"
    # confirms the penalties the policy has "the head judge or an assistant head judge" confirm (Play! Pokémon Penalty
    # Guidelines 3.2, 4.1, 4.1.1.1); otherwise a floor judge: disqualifications, appeals and investigations stay the
    # head judge's (PPG 2.1, 6.2). Several per event.
    ASSISTANT_HEAD_JUDGE = "assistant_head_judge"
    FLOOR_JUDGE = "floor_judge"
    SCOREKEEPER = "scorekeeper"
    PROXY = "proxy"  # a floor judge the head judge handed one appeal to decide
    STATEMENT_AUTHOR = "statement_author"  # a person holding a one-time statement link, no account
    TABLE_LINK = "table_link"  # a player holding a table's call link (its QR code), no account
    SIGNED_IN = "signed_in"  # any account, whatever it holds at an event
    ANONYMOUS = "anonymous"

    @property
    def label(self) -> str:
        return {
            "organizer": _l("organizer"),
            "head_judge": _l("head judge"),
            "assistant_head_judge": _l("assistant head judge"),
            "floor_judge": _l("floor judge"),
            "scorekeeper": _l("scorekeeper"),
            "proxy": _l("proxy"),
            "statement_author": _l("statement author"),
            "table_link": _l("table link"),
            "signed_in": _l("signed in"),
            "anonymous": _l("anonymous"),
        }[self.value]


STAFF_ROLES = (
    Role.HEAD_JUDGE,
    Role.ASSISTANT_HEAD_JUDGE,
    Role.FLOOR_JUDGE,
    Role.SCOREKEEPER,
)  # those an assignment or invitation stores
JUDGE_ROLES = (Role.HEAD_JUDGE, Role.ASSISTANT_HEAD_JUDGE, Role.FLOOR_JUDGE)  # who judges at the tables
