"""Offline capture: the installable app (manifest, service worker, offline page) and what a phone keeps to log
incidents, time extensions and deck checks with no network (sent later from its outbox)."""

from .bundles import import_map_tag, module_preloads, script_module
from .views import bp

bp.add_app_template_global(import_map_tag, "import_map")  # base.html and the offline page, before any module
bp.add_app_template_global(module_preloads, "module_preloads")  # a page's entry module and all it imports
bp.add_app_template_global(script_module, "script_module")  # a page's <script type="module">: its bundle, or itself

__all__ = ["bp"]
