"""Flask-Babel's gettext functions, typed, for the modules mypy checks strictly (flask_babel ships no types).

`lazy_gettext` (imported as `_l`) is for texts written once at import time and read in many requests: the authority
table's reasons, the lifecycles' refusals, the records' state labels, form labels. It is translated each time it is
turned into text (str(), Jinja, an f-string, `.format`, `==`, `in`), in the language of the request at that moment,
and is English outside a request. It is typed as `str`, which it behaves as; where it is kept (a Decision, an
exception, a database column, a JSON answer) make it `str()` first, so that it is translated once, in the request
that made it. `gettext` (imported as `_`) translates at once, for text made inside a request.
"""

from __future__ import annotations

from typing import cast

from flask_babel import gettext as _gettext
from flask_babel import lazy_gettext as _lazy_gettext
from flask_babel import ngettext as _ngettext


def gettext(message: str, **variables: object) -> str:
    return cast(str, _gettext(message, **variables))


def ngettext(singular: str, plural: str, num: int, **variables: object) -> str:
    return cast(str, _ngettext(singular, plural, num, **variables))


def lazy_gettext(message: str, **variables: object) -> str:
    return cast(str, _lazy_gettext(message, **variables))
