from .views import bp

__all__ = ["bp"]
