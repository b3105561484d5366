from . import player_views  # noqa: F401  (its routes, on the events blueprint)
from .views import bp

__all__ = ["bp"]
