"""Flask-Babel's gettext functions, typed, for the modules mypy checks strictly (flask_babel ships no types).

`lazy_gettext` (imported as `_l`) is for texts written once at import time and read in many requests: the authority
table's reasons, the lifecycles' refusals, the records' state labels, form labels. It is translated each time it is
turned into text (str(), Jinja, an f-string, `.format`, `==`, `in`), in the language of the request at that moment,
and is English outside a request. It is typed as `str`, which it behaves as; where it is kept (a Decision, an
exception, a database column, a JSON answer) make it `str()` first, so that it is translated once, in the request
that made it. `gettext` (imported as `_`) translates at once, for text made inside a request.

Each of them, and the pages' `_()` (i18n.init_app installs `translations` in Jinja), finds the catalog in force through
`translations`: Flask-Babel's own look-up reads `g` through its proxy five to ten times per message and parses nothing
new, ~7 % of a page's Python work (issue 36, cProfile of the form fuzzer's requests); this one reads it once and keeps
the catalog beside the locale Flask-Babel chose, so that force_locale and refresh still change it.
"""

from __future__ import annotations

from typing import Any, cast

import flask_babel
from flask import g
from flask_babel.speaklater import LazyString


def translations() -> Any:
    """The gettext catalog of the language in force (the request's, or one force_locale sets): Flask-Babel's, kept on
    its own per-context namespace next to the locale and the domain it was found for. A new locale object
    (force_locale, refresh, the request after a language change) or domain finds it again through Flask-Babel."""
    try:
        babel_state = g._get_current_object().__dict__.get("_flask_babel")
    except RuntimeError:  # outside an application context: Flask-Babel's answer (no catalog)
        return flask_babel.get_translations()
    if babel_state is not None:
        kept = babel_state.__dict__.get("judgeapp_translations")
        found_for = (babel_state.__dict__.get("babel_locale"), babel_state.__dict__.get("babel_domain"))
        if kept is not None and kept[0] is found_for[0] and kept[1] is found_for[1] and found_for[0] is not None:
            return kept[2]
    found = flask_babel.get_translations()  # chooses the locale and the domain, kept on the namespace it makes
    babel_state = g._get_current_object().__dict__["_flask_babel"]
    babel_state.judgeapp_translations = (babel_state.babel_locale, babel_state.babel_domain, found)
    return found


def install_gettext(environment: Any) -> None:
    """A Jinja environment's `_()`, `ngettext()`… through `translations` (the pages' and the reports' environments);
    Jinja fills in the placeholders itself, escaping the values."""
    environment.install_gettext_callables(
        gettext=lambda message: translations().ugettext(message),
        ngettext=lambda singular, plural, n: translations().ungettext(singular, plural, n),
        pgettext=lambda context, message: translations().upgettext(context, message),
        npgettext=lambda context, singular, plural, n: translations().unpgettext(context, singular, plural, n),
        newstyle=True,
    )


def gettext(message: str, **variables: object) -> str:
    text = translations().ugettext(message)
    return cast(str, text % variables if variables else text)


def ngettext(singular: str, plural: str, num: int, **variables: object) -> str:
    variables.setdefault("num", num)
    return cast(str, translations().ungettext(singular, plural, num) % variables)


def pgettext(context: str, message: str, **variables: object) -> str:
    text = translations().upgettext(context, message)
    return cast(str, text % variables if variables else text)


def lazy_gettext(message: str, **variables: object) -> str:
    return cast(str, LazyString(gettext, message, **variables))
