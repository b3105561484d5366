"""Appeal rules in pure Python: what an appeal's outcome costs the player, and how many challenges they have left.

Bushiroad's rights of fighters: an event may limit how many times a player challenges a ruling. When the head
judge's decision matches the ruling appealed (upheld), the player spends one; when it differs (overturned or
changed) they keep it. Whether to count it stays the head judge's call.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from datetime import datetime, timedelta


class Outcome(str, enum.Enum):
    UPHELD = "upheld"
    OVERTURNED = "overturned"
    CHANGED = "changed"

    @property
    def spends_challenge(self) -> bool:
        """The default; the head judge may decide not to count an upheld appeal."""
        return self is Outcome.UPHELD

    @property
    def needs_reason(self) -> bool:
        return self is not Outcome.UPHELD


@dataclass(frozen=True)
class Challenges:
    limit: int | None  # None: the event sets no limit
    spent: int
    waiting: int  # appeals of this player not yet decided: each may still spend one

    @property
    def left(self) -> int | None:
        return None if self.limit is None else max(self.limit - self.spent, 0)

    @property
    def may_appeal(self) -> bool:
        return self.limit is None or self.spent + self.waiting < self.limit


def link_expiry(created: datetime, days: int) -> datetime:
    """When a one-time statement link stops working: the policy's statement deadline after it was made."""
    if days < 1:
        raise ValueError("a statement link must stay open at least one day")
    return created + timedelta(days=days)
