from . import import_views, player_views, round_views, staff_views  # noqa: F401  (their routes, on the events blueprint)
from .views import bp

__all__ = ["bp"]
