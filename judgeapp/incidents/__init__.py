from . import edit_views, list_views  # noqa: F401  (their routes, on the incidents blueprint)
from .views import bp

__all__ = ["bp"]
