"""Pure-Python penalty rules: catalog loading and validation, the penalty engine, time arithmetic.

Nothing here imports Flask or SQLAlchemy (a unit test checks it).
"""

from .appeals import Challenges, Outcome, link_expiry
from .catalog import (
    Catalog,
    ExtensionReason,
    Infraction,
    Level,
    PenaltyRange,
    Policy,
    Rank,
    RepeatScope,
    UnknownChoice,
)
from .engine import Prior, PriorStatus, Suggestion, suggest
from .loader import CatalogError, load_catalog, parse_catalog
from .timing import ExtensionOwed, extension_owed, round_end, table_end_time

__all__ = [
    "Catalog",
    "CatalogError",
    "Challenges",
    "ExtensionOwed",
    "ExtensionReason",
    "Infraction",
    "Level",
    "Outcome",
    "PenaltyRange",
    "Policy",
    "Prior",
    "PriorStatus",
    "Rank",
    "RepeatScope",
    "Suggestion",
    "UnknownChoice",
    "extension_owed",
    "link_expiry",
    "load_catalog",
    "parse_catalog",
    "round_end",
    "suggest",
    "table_end_time",
]
