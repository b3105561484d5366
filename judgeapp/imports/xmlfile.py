"""What the two XML readers (tom.py, kts.py) share: a safe parse, a cheap look at the root element, and reasons that
name the kind of entry they are about.

The parse is defusedxml's with every guard on: a DTD, an entity (the "billion laughs" bomb, or one that pulls in
file:///etc/passwd) or an external reference is refused before anything is expanded or fetched. Tournament software
never writes any of them, so refusing them costs an organizer nothing.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace
from xml.etree.ElementTree import Element, ParseError
from xml.parsers import expat

from defusedxml import DefusedXmlException  # type: ignore[import-untyped]  # no stubs are published for 0.7.1
from defusedxml.ElementTree import fromstring  # type: ignore[import-untyped]

from ..texts import gettext as _
from ..texts import lazy_gettext as _l
from .model import TournamentFile, UnreadableFile, clean_text

HEAD_BYTES = 4096  # looks_like() reads no further than this
MAX_DEPTH = 32  # elements inside one another (a TOM or KTS file nests 6 or 7 deep)
MAX_ELEMENTS = 1_000_000  # elements in one file (130,000 players and their matches fit in about 700,000)

_ENTITIES = _l("The file declares XML entities, which judgeapp does not read (they can be used to attack a server).")
_DTD = _l(
    "The file declares a DTD (<!DOCTYPE …>), which judgeapp does not read and tournament software does not write."
)
_INCOMPLETE = ("no element found", "unclosed token", "unclosed cdata section")
_ROUND_PREFIX = re.compile(r"round \d+: |第\d+ラウンド：")  # what model.finish() starts a match's reason with
_POSITION = re.compile(r":\s*line \d+, column \d+\s*$")
_PROLOG = re.compile(
    r"""\s*(?:
        <\?.*?\?>                          # the XML declaration, processing instructions
      | <!--.*?-->                         # comments
      | <!DOCTYPE[^\[>]*(?:\[[^\]]*\][^\[>]*)*>  # a document type, with or without an internal subset
    )""",
    re.DOTALL | re.VERBOSE,
)
_START_TAG = re.compile(r"\s*<([A-Za-z_][\w.\-]*)")


class _Stop(Exception):
    """The bounds pass has seen enough: the real parse says what is wrong (or refuses the DTD) from here."""


def bounded(data: bytes) -> None:
    """Refuse, before the tree is built, a file nested deeper than MAX_DEPTH or of more than MAX_ELEMENTS elements:
    one streaming pass of expat that counts and keeps nothing. A DTD or broken XML stops the pass: `parse` then
    refuses it with its own reason."""
    parser = expat.ParserCreate()
    depth = count = 0

    def start(_name: str, _attributes: dict) -> None:
        nonlocal depth, count
        depth, count = depth + 1, count + 1
        if depth > MAX_DEPTH:
            raise UnreadableFile(
                _(
                    "The file nests elements more than %(max)s deep (line %(line)s); tournament files do not.",
                    max=MAX_DEPTH,
                    line=parser.CurrentLineNumber,
                )
            )
        if count > MAX_ELEMENTS:
            raise UnreadableFile(
                _("The file has more than %(max)s elements; judgeapp reads files of up to that many.", max=MAX_ELEMENTS)
            )

    def end(_name: str) -> None:
        nonlocal depth
        depth -= 1

    def stop(*_args: object) -> None:
        raise _Stop

    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parser.StartDoctypeDeclHandler = stop
    parser.EntityDeclHandler = stop
    try:
        parser.Parse(data, True)
    except (_Stop, expat.ExpatError):
        return


_DECLARED = re.compile(rb"""^(?:\xef\xbb\xbf)?\s*<\?xml[^>]*?\bencoding\s*=\s*(["'])([A-Za-z][\w.:\-]*)\1""")
EXPAT_ENCODINGS = {"utf8", "utf16", "iso88591", "latin1", "usascii", "ascii"}  # what expat reads itself


def readable(data: bytes) -> bytes:
    """The file as expat can read it. Expat reads UTF-8, UTF-16 and Latin-1 only, and raised a bare ValueError on a
    file declaring a multi-byte encoding such as Shift_JIS (which a Japanese Windows tool may write): such a file is
    decoded with Python's codec of the encoding it declares and given to expat as UTF-8, its declaration saying so."""
    declared = _DECLARED.match(data[:HEAD_BYTES])
    if declared is None:
        return data
    name = declared.group(2).decode("ascii")
    if re.sub(r"[^a-z0-9]", "", name.lower()) in EXPAT_ENCODINGS:
        return data
    start, end = declared.span(2)
    try:  # the declaration is ASCII, as in every encoding a file declaring itself so can be in (UTF-16 is expat's)
        rest = data[end:].decode(name)
    except LookupError:
        raise UnreadableFile(
            _("The file says it is written in the encoding %(encoding)s, which judgeapp does not know.", encoding=name)
        ) from None
    except UnicodeDecodeError as err:
        raise UnreadableFile(
            _(
                "The file says it is written in %(encoding)s, but byte %(position)s is not %(encoding)s text.",
                encoding=name,
                position=end + err.start + 1,
            )
        ) from None
    return data[:start] + b"UTF-8" + rest.encode("utf-8")


def parse(data: bytes) -> Element:
    """The root element of the file, or UnreadableFile saying in one sentence why the file cannot be read. The file
    is bounded (`bounded`) before the tree is built; a file in an encoding expat does not read is read as its
    declaration says (`readable`)."""
    data = readable(data)
    bounded(data)
    try:
        root: Element = fromstring(data, forbid_dtd=True, forbid_entities=True, forbid_external=True)
        return root
    except DefusedXmlException:
        # forbid_dtd refuses the <!DOCTYPE …> before any entity in it is seen: say which danger it was
        raise UnreadableFile(str(_ENTITIES if _declares_entities(data) else _DTD)) from None
    except ParseError as err:
        line, column = err.position[0], err.position[1] + 1  # expat counts columns from 0
        reason = _POSITION.sub("", str(err)).strip() or "the XML cannot be read"
        if reason.startswith(_INCOMPLETE):
            why = _(
                "The file is not complete XML: line %(line)s, column %(column)s: %(reason)s.",
                line=line,
                column=column,
                reason=reason,
            )
        else:
            why = _(
                "The file is not well-formed XML: line %(line)s, column %(column)s: %(reason)s.",
                line=line,
                column=column,
                reason=reason,
            )
        raise UnreadableFile(why) from None


def _declares_entities(data: bytes) -> bool:
    return any("<!ENTITY".encode(encoding) in data for encoding in ("utf-8", "utf-16-le", "utf-16-be"))


def head(data: bytes) -> str:
    """The first few KB as text (UTF-8 or UTF-16 by its byte order mark), for the cheap content checks."""
    chunk = data[:HEAD_BYTES]
    if chunk.startswith((b"\xff\xfe", b"\xfe\xff")):
        return chunk.decode("utf-16", errors="ignore")
    return chunk.decode("utf-8", errors="ignore").lstrip("\ufeff")


def root_name(text: str) -> str | None:
    """The name of the first element after the XML declaration, comments and any DOCTYPE; None if the text does not
    start like XML (a CSV, say)."""
    pos = 0
    while match := _PROLOG.match(text, pos):
        if match.end() == pos:
            break
        pos = match.end()
    start = _START_TAG.match(text, pos)
    return start.group(1) if start else None


def text_of(element: Element | None, path: str = ".") -> str | None:
    """The cleaned text at `path` under `element`, None when it is missing or blank."""
    if element is None:
        return None
    found = element.find(path)
    return clean_text(found.text) if found is not None else None


def shown(text: str | None) -> str:
    return _("'%(text)s'", text=text) if text else _("(blank)")


def player_label(n: int) -> str:
    return _("player %(n)s", n=n)


def match_label(k: int, round_text: str | None) -> str:
    return _("match %(n)s of round %(round)s", n=k, round=round_text or _("(blank)"))


def labelled(label: str, problem: str) -> str:
    """A reason with the entry it is about: "player 3: the player has no name"."""
    return _("%(entry)s: %(problem)s", entry=label, problem=problem)


def label_rejections(
    file: TournamentFile, since: int, labels: dict[int, Callable[[], str]], matches: set[int]
) -> TournamentFile:
    """Put the kind of entry into the reasons `finish()` wrote (from index `since` on): "player 3: …",
    "match 2 of round 4: …". `labels` maps id() of each entry's Where to what says its label (put in words only for
    the rejections kept): Where("row", 3) alone cannot tell the third player from the third match. `matches`: the
    id() of the Where of each match, whose label already names the round (the reason's own "round 4: " is then
    dropped, in English or Japanese)."""
    for i in range(since, len(file.rejected)):
        rejected = file.rejected[i]
        label = labels.get(id(rejected.where))
        if label is None:
            continue
        labels_a_match = id(rejected.where) in matches
        reason = rejected.reason
        round_prefix = _ROUND_PREFIX.match(reason)
        if round_prefix and labels_a_match:
            reason = reason[round_prefix.end() :]
        file.rejected[i] = replace(rejected, reason=labelled(label(), reason))
    return file
