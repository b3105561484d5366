"""Any spreadsheet saved as CSV or TSV: a player list, pairings, or both, with English or Japanese headers.

What Excel and other spreadsheets really write, and what this reader therefore accepts:

- the encoding: UTF-8 with or without a BOM (Excel's "CSV UTF-8", Google Sheets, LibreOffice), UTF-16 with a BOM
  (Excel's "Unicode text"), else the legacy code page chosen by charset-normalizer among the few an organizer's
  Excel uses: CP932 (Japanese Excel's "CSV", Shift_JIS with Microsoft's extensions), EUC-JP, Windows-1252/1250/1251;
- the line ends: CRLF, LF or a lone CR (old Mac Excel);
- the delimiter: comma, semicolon (Excel where the decimal separator is a comma: German, French, …) or tab, from
  csv.Sniffer limited to those three and checked against the header line;
- the headers: mapped to `COLUMN_ROLES` by synonyms, ignoring case, spaces, punctuation and full/half width
  (NFKC); "first name" + "last name" (姓 + 名) are joined into one name. The organizer maps the columns
  (`NeedsMapping`, then `read(data, mapping=...)`) whenever a column's role is unsure: when neither a name nor an ID
  column is recognised; when a column whose header is unknown holds what looks like IDs (distinct short codes with
  a digit on most rows, e.g. a Weiß Schwarz organizer's `WSCode`: never dropped silently, it is offered as the
  player ID where the file has none); when the first- and last-name columns look swapped (the family name written
  in capitals, as passports and many registration forms write it, under "first name");
- placeholders a spreadsheet or registration site writes for "nothing" ("No Country Set", "N/A", "-", "未設定"…) are
  blanks, in every column, never stored as a country, a team or a name;
- no header at all: the old judgeapp players upload ("name, player id[, team]", one to three columns).

Pairings: a row with a round, a table and two players is one match; a row with a round, a table and one player is
a seat (two seats at one table make the match); a seat or a one-player row whose table is blank or says bye is a
bye. Line numbers in rejected entries are the file's physical lines, the header being line 1.
"""

from __future__ import annotations

import csv
import io
import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, field

from ..texts import gettext  # not `_`: the readers use `_` for a value they skip
from .model import (
    COLUMN_ROLES,
    FileMatch,
    FilePlayer,
    NeedsMapping,
    TournamentFile,
    UnreadableFile,
    Where,
    clean_text,
    finish,
    table_number,
)

DELIMITERS = ",;\t"
LEGACY_CODE_PAGES = ["cp932", "euc_jp", "cp1252", "cp1250", "cp1251"]
SAMPLE_ROWS = 5
SNIFF_CHARS = 8192
MAX_COLUMNS = 100
MAX_ROWS = 200_000  # a players file of 130,000 rows fits
MAX_CELL_CHARS = 1_000  # one cell: a name, an ID, a team
RUNAWAY_LINES = 3  # a row spanning this many lines or more: a stray quotation mark swallowed the lines after it
BYE_WORDS = {"bye", "不戦勝", "バイ"}
# What exports write for an empty field (NFKC, casefolded, inner spaces collapsed); a cell of punctuation only ("-",
# "—", "?") is one too. "NA" is not: it is Namibia's country code.
PLACEHOLDERS = {
    "n/a",
    "n.a.",
    "none",
    "null",
    "no country set",
    "no team set",
    "not set",
    "unknown",
    "未設定",
    "なし",
    "不明",
}
ID_SAMPLE_ROWS = 2_000  # rows looked at to tell whether an unknown column holds IDs
MAX_ID_CHARS = 32
# Headers the synonyms do not map but that are never a player ID, however distinct their numbers (a rank, a row number)
_NOT_IDS = {
    "rank", "place", "standing", "position", "points", "pts", "score", "record", "wins", "losses", "draws", "seat",
    "no", "nr", "number", "#", "punkte", "punti", "puntos", "順位", "勝ち点", "得点", "戦績", "席", "連番",
    "phone", "email", "mail", "電話", "メール",
}  # fmt: skip

# Header synonyms, written as `header_key` folds them (NFKC, casefolded, letters and digits only).
_SYNONYMS: dict[str, tuple[str, ...]] = {
    "name": (
        "name", "player", "player name", "players name", "full name", "participant", "名前", "氏名", "プレイヤー名",
        "プレイヤー", "選手名", "参加者名", "nom", "spieler", "spielername", "nombre", "jugador",
    ),
    "code": (
        "code", "player id", "id", "pop id", "play pokemon id", "konami id", "player code",
        "membership number", "プレイヤーid", "会員番号", "プレイヤー番号", "コナミid", "カードゲーマーid",
        "spieler id", "identifiant", "id 1",
    ),
    "reading": ("reading", "furigana", "name reading", "フリガナ", "ふりがな", "よみがな", "ヨミガナ", "読み", "よみ"),
    "handle": (
        "handle", "nickname", "nick", "handle name", "player handle", "ハンドルネーム", "ハンドル", "ハンドル名",
        "ニックネーム", "hn", "pseudo", "spitzname",
    ),
    "bushiroad": (
        "bushiroad id", "bushiroad", "bushinavi id", "bushi navi id", "ブシロードid", "ブシナビid", "ブシナビ",
        "ブシロードid番号",
    ),
    "country": ("country", "nation", "country code", "国", "国名", "land", "pays", "país"),
    "team": ("team", "team name", "チーム", "チーム名", "équipe"),
    "round": ("round", "round number", "rnd", "回戦", "ラウンド", "回戦数", "runde", "ronde"),
    "table": ("table", "table number", "table no", "tbl", "卓", "卓番号", "テーブル", "テーブル番号", "tisch"),
    "name_2": ("opponent", "opponent name", "player 2", "player 2 name", "対戦相手", "対戦相手名", "gegner"),
    "code_2": ("opponent id", "id 2", "opponent player id", "player 2 id", "対戦相手id", "対戦相手プレイヤーid"),
    "first_name": ("first name", "given name", "firstname", "名", "vorname", "prénom"),
    "last_name": (
        "last name", "family name", "surname", "lastname", "姓", "苗字", "nachname", "nom de famille", "apellidos",
        "apellido", "cognome",
    ),
    "code_1": ("player 1 id",),
    "name_1": ("player 1", "player 1 name"),
}  # fmt: skip


def header_key(text: str) -> str:
    """A header folded for comparison: full/half width and case ignored, only letters and digits kept."""
    text = unicodedata.normalize("NFKC", text or "").casefold()
    return "".join(c for c in text if c.isalnum())


_ROLE_OF: dict[str, str] = {header_key(s): role for role, names in _SYNONYMS.items() for s in names}
_NOT_ID_KEYS = {header_key(h) or h for h in _NOT_IDS}


def is_placeholder(text: str) -> bool:
    """Whether a cell says "nothing here" in one of the ways exports do ("No Country Set", "N/A", "-", "未設定")."""
    folded = " ".join(unicodedata.normalize("NFKC", text).casefold().split())
    return len(folded) <= 20 and (folded in PLACEHOLDERS or not any(c.isalnum() for c in folded))


_ALIAS = {"code_1": "code", "name_1": "name"}  # "Player 1" / "Player 1 ID" as the first player's columns


def role_of(header: str) -> str | None:
    """The role a header names (one of COLUMN_ROLES, or first_name/last_name), or None."""
    role = _ROLE_OF.get(header_key(header))
    return _ALIAS.get(role, role) if role else None


# ---- bytes to rows ---------------------------------------------------------------------------------------------------


def decode(data: bytes) -> str:
    """The file's text: UTF-8 (with or without BOM), UTF-16 with a BOM, else the likeliest legacy code page."""
    if data.startswith(b"\xef\xbb\xbf"):
        return data[3:].decode("utf-8", errors="replace")
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return data.decode("utf-16", errors="replace")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        pass
    from charset_normalizer import from_bytes

    best = from_bytes(data, cp_isolation=LEGACY_CODE_PAGES).best()
    if best is not None and best.encoding in ("cp932", "euc_jp"):
        return str(best)
    try:  # Western European Excel: what an organizer's computer most often writes; charset-normalizer tends to
        return data.decode("cp1252")  # pick Central European cp1250 for it, turning "Peña" into "Peńa"
    except UnicodeDecodeError:
        pass
    if best is None:
        raise UnreadableFile(
            gettext("The file is not text in any encoding a spreadsheet writes (save it as CSV UTF-8).")
        )
    return str(best)


def delimiter(text: str) -> str:
    """Comma, semicolon or tab: what csv.Sniffer finds, checked against the header line's own count."""
    # a bounded sample: csv.Sniffer's time grows with the square of its input (a 66 KB line took 8 s)
    lines = [line for line in text[:SNIFF_CHARS].split("\n")[:50] if line.strip()]
    header = lines[0] if lines else ""
    counts = {d: _count_outside_quotes(header, d) for d in DELIMITERS}
    try:
        found = csv.Sniffer().sniff("\n".join(lines), delimiters=DELIMITERS).delimiter
    except csv.Error:
        found = ""
    if found in counts and counts[found] > 0:
        return found
    best = max(DELIMITERS, key=lambda d: counts[d])
    return best if counts[best] > 0 else ","


def _count_outside_quotes(line: str, sep: str) -> int:
    count, quoted = 0, False
    for c in line:
        if c == '"':
            quoted = not quoted
        elif c == sep and not quoted:
            count += 1
    return count


def rows(text: str) -> list[tuple[int, list[str]]]:
    """(physical line where the row starts, its cells) for each non-blank row; a quoted cell may span lines."""
    text = text.replace("\r\n", "\n").replace("\r", "\n").replace("\x00", "")
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter(text), strict=False)
    out: list[tuple[int, list[str]]] = []
    line = 1
    try:
        for cells in reader:
            if reader.line_num - line + 1 >= RUNAWAY_LINES and any("\n" in c for c in cells):
                raise UnreadableFile(
                    gettext(
                        "A quotation mark on line %(line)s opens a cell that runs on to line %(end)s: close or "
                        "remove that quotation mark and upload the file again.",
                        line=line,
                        end=reader.line_num,
                    )
                )
            if any(c.strip() for c in cells):
                _check_row(line, cells, len(out))
                out.append((line, cells))
            line = reader.line_num + 1
    except csv.Error as err:
        raise UnreadableFile(
            gettext("Line %(line)s of the file cannot be read as CSV (%(error)s).", line=line, error=err)
        ) from None
    return out


def _check_row(line: int, cells: list[str], rows_before: int) -> None:
    """A spreadsheet bounded as it is read: at most MAX_ROWS rows, MAX_COLUMNS filled columns, MAX_CELL_CHARS a
    cell (what no players or pairings file comes near, and what keeps a hostile file's cost small)."""
    if rows_before >= MAX_ROWS:
        raise UnreadableFile(
            gettext("The file has more than %(max)s rows; judgeapp reads files of up to that many.", max=MAX_ROWS)
        )
    filled = len(cells)
    while filled and not cells[filled - 1].strip():
        filled -= 1
    if filled > MAX_COLUMNS:
        raise UnreadableFile(
            gettext(
                "Line %(line)s has %(count)s columns; a players or pairings file has a few (at most %(max)s).",
                line=line,
                count=filled,
                max=MAX_COLUMNS,
            )
        )
    if any(len(c) > MAX_CELL_CHARS for c in cells):
        raise UnreadableFile(
            gettext(
                "Line %(line)s has a cell longer than %(max)s characters; names and IDs are far shorter.",
                line=line,
                max=MAX_CELL_CHARS,
            )
        )


# ---- rows to a tournament file ---------------------------------------------------------------------------------------


def looks_like(data: bytes) -> bool:
    """Anything may be a spreadsheet: the reader of last resort."""
    return True


def read(data: bytes, *, mapping: dict[int, str] | None = None) -> TournamentFile:
    """A spreadsheet's players and pairings, checked by `finish`. `mapping` (column index → role) replaces the
    header recognition, as the organizer chose it on the column-mapping page."""
    if data.startswith(b"PK\x03\x04"):
        raise UnreadableFile(
            gettext("This is a workbook (.xlsx or .ods), not a CSV file: save it as CSV and upload that.")
        )
    text = decode(data)
    if text.lstrip("\ufeff \t\r\n").startswith("<"):
        raise UnreadableFile(
            gettext("The file is XML or HTML that no reader recognised, not a spreadsheet saved as CSV.")
        )
    table = rows(text)
    if not table:
        raise UnreadableFile(gettext("The file has no rows."))
    _, header = table[0]
    while header and not header[-1].strip():  # spreadsheets pad rows with empty columns
        header = header[:-1]
    if not header:
        raise UnreadableFile(gettext("The file's first row is empty: it needs a header row (name, player ID…)."))
    if len(header) > MAX_COLUMNS:
        raise UnreadableFile(
            gettext(
                "The file has %(count)s columns; a players or pairings file has a few (at most %(max)s).",
                count=len(header),
                max=MAX_COLUMNS,
            )
        )
    width = len(header)
    if mapping is not None:
        columns = _checked_mapping(mapping, header, table)
        body = table[1:]
    else:
        guess = {i: role for i, h in enumerate(header) if (role := role_of(h)) is not None}
        if not guess and 2 <= len(header) <= 3 and any(c.isdigit() for c in header[1]):
            # the old players upload: no header, "name, player id[, team]" (its first row's second cell is an ID,
            # which has digits; a header the synonyms do not know, "Spieler;Kennung;Verein", goes to the mapping)
            columns = dict(enumerate(["name", "code", "team"][: len(header)]))
            body, width = table, 3
        else:
            columns = guess
            body = table[1:]
            problem: str | None = None
            if not ({"name", "code", "first_name", "last_name"} & set(columns.values())):
                problem = gettext(
                    "The file's columns were not recognised: say which column holds the player's name or ID."
                )
            elif ids := id_like_columns(header, body, columns):
                shown = ", ".join(gettext("'%(text)s'", text=clean_text(header[i]) or "") for i in ids)
                if "code" not in columns.values():
                    guess = {**guess, ids[0]: "code"}
                    problem = gettext(
                        "The column %(columns)s holds what look like player IDs: check that it is the player ID "
                        "(namesakes are told apart by it), then import.",
                        columns=shown,
                    )
                else:
                    problem = gettext(
                        "The column %(columns)s holds what look like IDs, beside the player ID column: say what it "
                        "holds, or leave it not imported.",
                        columns=shown,
                    )
            elif names_look_swapped(body, columns):
                first = next(i for i, r in guess.items() if r == "first_name")
                last = next(i for i, r in guess.items() if r == "last_name")
                guess = {**guess, first: "last_name", last: "first_name"}
                problem = gettext(
                    "The first-name column holds what look like family names (written in capitals) and the "
                    "last-name column given names: check which is which, then import."
                )
            if problem is not None:
                raise NeedsMapping(
                    problem,
                    headers=[clean_text(h) or "" for h in header],
                    sample=[[clean_text(c) or "" for c in cells[:width]] for _, cells in table[1 : 1 + SAMPLE_ROWS]],
                    mapping={i: r for i, r in guess.items() if r in COLUMN_ROLES},
                )
    return _Reader(columns, body, width).read()


def _filled(cells: list[str], i: int) -> str | None:
    text = clean_text(cells[i]) if i < len(cells) else None
    return None if text is None or is_placeholder(text) else text


def id_like_columns(header: list[str], body: list[tuple[int, list[str]]], columns: dict[int, str]) -> list[int]:
    """The columns whose header no synonym knows but whose values look like IDs: on most of the first rows a short
    code with a digit and no space, distinct from row to row, and not just the rows counted 1, 2, 3… (a row number or
    a rank)."""
    rows = [cells for _, cells in body[:ID_SAMPLE_ROWS]]
    if len(rows) < 2:
        return []
    found = []
    for i, h in enumerate(header):
        if i in columns or (header_key(h) or h.strip()) in _NOT_ID_KEYS:
            continue
        values = [v for cells in rows if (v := _filled(cells, i)) is not None]
        if len(values) < 0.8 * len(rows) or len(set(values)) < 0.95 * len(values):
            continue
        if not all(len(v) <= MAX_ID_CHARS and " " not in v and any(c.isdigit() for c in v) for v in values):
            continue
        if any(re.fullmatch(r"[0-9]+[.,][0-9]+", v) for v in values):
            continue  # 4,5 or 0.625: a score or a percentage
        if all(v.isascii() and v.isdigit() for v in values) and sorted(int(v) for v in values) == list(
            range(min(int(v) for v in values), min(int(v) for v in values) + len(values))
        ):
            continue  # 1, 2, 3…: a row number or a rank
        found.append(i)
    return found


def names_look_swapped(body: list[tuple[int, list[str]]], columns: dict[int, str]) -> bool:
    """Whether the first- and last-name columns look the wrong way round: on most rows with both, the "first name" is
    written in capitals (TANAKA, the family name as passports and many registration forms write it) and the "last
    name" is not."""
    at = {role: i for i, role in columns.items()}
    if "first_name" not in at or "last_name" not in at:
        return False
    both = [
        (first, last)
        for _, cells in body[:ID_SAMPLE_ROWS]
        if (first := _filled(cells, at["first_name"])) and (last := _filled(cells, at["last_name"]))
    ]
    capitals = sum(1 for first, last in both if _capitals(first) and not _capitals(last))
    return len(both) >= 2 and capitals > 0.8 * len(both)


def _capitals(text: str) -> bool:
    letters = [c for c in text if c.isalpha()]
    return len(letters) > 1 and all(c.isupper() for c in letters)


def mapping_of_headers(data: bytes, chosen: dict[str, str]) -> dict[int, str]:
    """A mapping (column index → role) for `read(data, mapping=...)`: the headers recognised as they are, and each
    role in `chosen` (role → the header of its column, matched as `header_key` folds it) given to that column instead.
    Raises UnreadableFile naming a role or header that is not there (the CLI's `--column ROLE=HEADER`)."""
    end = data.find(b"\n", 0, 65536)
    head = data if data.startswith((b"\xff\xfe", b"\xfe\xff")) or end < 0 else data[:end]
    table = rows(decode(head))
    header = table[0][1] if table else []
    mapping = {i: role for i, h in enumerate(header) if (role := role_of(h)) is not None and role in COLUMN_ROLES}
    for role, wanted in chosen.items():
        if role not in COLUMN_ROLES:
            raise UnreadableFile(
                gettext(
                    "%(role)s is not a kind of column; the kinds are %(roles)s.",
                    role=role,
                    roles=", ".join(COLUMN_ROLES),
                )
            )
        at = [i for i, h in enumerate(header) if header_key(h) == header_key(wanted)]
        if not at:
            raise UnreadableFile(
                gettext(
                    "The file has no column %(header)s; its columns are %(headers)s.",
                    header=wanted,
                    headers=", ".join(clean_text(h) or "" for h in header),
                )
            )
        mapping = {i: r for i, r in mapping.items() if r != role and i != at[0]}
        mapping[at[0]] = role
    return mapping


def _checked_mapping(mapping: dict[int, str], header: list[str], table: list[tuple[int, list[str]]]) -> dict[int, str]:
    columns = {int(i): role for i, role in mapping.items() if role in COLUMN_ROLES and 0 <= int(i) < len(header)}
    chosen = list(columns.values())
    twice = sorted({str(COLUMN_ROLES[r]) for r in chosen if chosen.count(r) > 1})
    problem = (
        gettext(
            "Each kind of column can be chosen once: %(columns)s was chosen for more than one column.",
            columns=", ".join(twice),
        )
        if twice
        else gettext("Say which column holds the player's name or the player ID.")
    )
    if twice or not ({"name", "code", "first_name", "last_name"} & set(chosen)):
        raise NeedsMapping(
            problem,
            headers=[clean_text(h) or "" for h in header],
            sample=[[clean_text(c) or "" for c in cells[: len(header)]] for _, cells in table[1 : 1 + SAMPLE_ROWS]],
            mapping=columns,
        )
    return columns


@dataclass
class _Reader:
    columns: dict[int, str]  # column index → role; a role given twice keeps its first column
    body: list[tuple[int, list[str]]]
    width: int  # the columns the header names: a row with more filled cells is not the shape the header says
    file: TournamentFile = field(default_factory=lambda: TournamentFile(format="csv"))
    named: dict[str, tuple[str, int]] = field(default_factory=dict)  # key → (name, line) of pairing players
    order: list[str] = field(default_factory=list)  # pairing players' keys in order of appearance
    pairing_player: dict[str, FilePlayer] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.at: dict[str, int] = {}
        for i, role in self.columns.items():
            self.at.setdefault(role, i)
        if "bushiroad" in self.at and "code" not in self.at:
            self.at["code"] = self.at["bushiroad"]  # the Bushiroad ID is the player ID of a file with no other
        has = set(self.at)
        self.has_names = bool({"name", "first_name", "last_name"} & has)
        self.has_codes = "code" in has
        # an ID column where some rows have IDs: a blank ID is then a mistake, not "this file has no IDs"
        self.ids_expected = self.has_codes and any(self.cell(cells, "code") for _, cells in self.body)

    def cell(self, cells: list[str], role: str) -> str | None:
        i = self.at.get(role)
        text = clean_text(cells[i]) if i is not None and i < len(cells) else None
        if text is not None and is_placeholder(text):
            return None
        if text is not None and i == self.at.get("bushiroad"):
            return unicodedata.normalize("NFKC", text)  # a Bushiroad ID typed in full-width digits is the same ID
        return text

    def name(self, cells: list[str]) -> str | None:
        """The player's name; a "name" column beside a first-name column is the surname ("Prénom" and "Nom",
        "Vorname" and "Name"), beside a last-name column the given name ("Nombre" and "Apellidos")."""
        first, last = self.cell(cells, "first_name"), self.cell(cells, "last_name")
        if "name" not in self.at:
            return _joined(first, last)
        if "first_name" in self.at and "last_name" not in self.at:
            return _joined(first, self.cell(cells, "name"))
        if "last_name" in self.at and "first_name" not in self.at:
            return _joined(self.cell(cells, "name"), last)
        return self.cell(cells, "name") or _joined(first, last)

    def read(self) -> TournamentFile:
        self.file.fields = tuple(
            r
            for r in ("name", "code", "reading", "handle", "bushiroad", "country", "team")
            if r in self.at or (r == "name" and self.has_names)
        )
        seats: dict[tuple[int, int], list[tuple[int, str]]] = {}
        for line, cells in self.body:
            where = Where("line", line)
            extra = [c for c in cells[self.width :] if c.strip()]
            if extra:
                filled = max(i for i, c in enumerate(cells) if c.strip()) + 1
                self.file.reject(
                    where,
                    gettext(
                        "the row has %(cells)s cells but the file has %(columns)s columns",
                        cells=filled,
                        columns=self.width,
                    ),
                )
                continue
            round_text = self.cell(cells, "round")
            if "round" not in self.at or (
                round_text is None and not self.cell(cells, "name_2") and not self.cell(cells, "code_2")
            ):
                self.player_row(where, cells)
                continue
            number = _number(round_text, ("round", "r", "第", "回戦", "ラウンド"))
            if number is None:
                self.file.reject(where, gettext("the round %(round)s is not a number", round=_shown(round_text)))
                continue
            self.pairing_row(where, number, cells, seats)
        for (number, table), seated in seats.items():
            if len(seated) == 2:
                keys = tuple(key for _, key in seated)
                self.file.matches.append(FileMatch(number, table, keys, Where("line", seated[0][0])))
            else:
                why = (
                    gettext(
                        "round %(round)s, table %(table)s: only one player at this table", round=number, table=table
                    )
                    if len(seated) == 1
                    else gettext(
                        "round %(round)s, table %(table)s: %(count)s players at this table",
                        round=number,
                        table=table,
                        count=len(seated),
                    )
                )
                for line, _ in seated:
                    self.file.reject(Where("line", line), why)
        listed = {p.key for p in self.file.players}
        self.file.players.extend(self.pairing_player[k] for k in self.order if k not in listed)
        self.file.players.sort(key=lambda p: p.where.number)
        self.file.matches.sort(key=lambda m: m.where.number)
        return finish(self.file)

    def player_row(self, where: Where, cells: list[str]) -> None:
        name, code = self.name(cells), self.cell(cells, "code")
        if code is None and self.ids_expected:
            self.file.reject(where, gettext("the player ID is blank"))
            return
        if name is None and code is not None and not self.has_names:
            name = code  # a file of IDs only: the ID stands for the name
        reading, bushiroad = self.cell(cells, "reading"), self.cell(cells, "bushiroad")
        self.file.players.append(
            FilePlayer(
                name=name or "",
                code=code,
                where=where,
                reading=unicodedata.normalize("NFKC", reading) if reading else None,
                handle=self.cell(cells, "handle"),
                country=self.cell(cells, "country"),
                platform_ids={"bushiroad": bushiroad} if bushiroad else {},
                team=self.cell(cells, "team"),
            )
        )

    def pairing_row(
        self, where: Where, number: int, cells: list[str], seats: dict[tuple[int, int], list[tuple[int, str]]]
    ) -> None:
        first = self.player_key(where, self.name(cells), self.cell(cells, "code"))
        if first is None:
            return
        opponent_name, opponent_code = self.cell(cells, "name_2"), self.cell(cells, "code_2")
        if opponent_code is None and opponent_name is not None and opponent_name.casefold() in BYE_WORDS:
            opponent_name = None
        table_text = self.cell(cells, "table")
        if opponent_name is None and opponent_code is None:
            if table_text is None or table_text.casefold() in BYE_WORDS or {"name_2", "code_2"} & set(self.at):
                # a one-player row of a two-player layout, or a seat with no table: a bye
                self.file.matches.append(FileMatch(number, None, (first,), where))
                return
            table = _number(table_text, ("table", "卓", "テーブル"), limit=True)
            if table is None:
                self.file.reject(
                    where,
                    gettext(
                        "round %(round)s: the table %(table)s is not a number", round=number, table=_shown(table_text)
                    ),
                )
                return
            seats.setdefault((number, table), []).append((where.number, first))
            return
        table = _number(table_text, ("table", "卓", "テーブル"), limit=True)
        if table is None:
            self.file.reject(
                where,
                gettext("round %(round)s: the table %(table)s is not a number", round=number, table=_shown(table_text)),
            )
            return
        second = self.player_key(where, opponent_name, opponent_code)
        if second is None:
            return
        self.file.matches.append(FileMatch(number, table, (first, second), where))

    def player_key(self, where: Where, name: str | None, code: str | None) -> str | None:
        """The key a pairing uses for this player, recording the player of the file on first sight; None (the row
        rejected) when the row names no one or gives a blank ID in a file of IDs."""
        if code is None and self.ids_expected:
            self.file.reject(where, gettext("the player ID is blank") if name else gettext("the row names no player"))
            return None
        if code is None and name is None:
            self.file.reject(where, gettext("the row names no player"))
            return None
        if name is None and not self.has_names:
            name = code
        player = FilePlayer(name=name or "", code=code, where=where)
        key = player.key
        known = self.pairing_player.get(key)
        if known is None:
            self.pairing_player[key] = player
            self.order.append(key)
        elif not known.name and name:
            self.pairing_player[key] = FilePlayer(name=name, code=code, where=known.where)
        elif name and known.name != name:
            self.file.reject(
                where,
                gettext(
                    "player ID %(id)s is given to %(name)s on line %(line)s and to %(other)s here",
                    id=code,
                    name=known.name,
                    line=known.where.number,
                    other=name,
                ),
            )
            return None
        return key


def _joined(first: str | None, last: str | None) -> str | None:
    return " ".join(p for p in (first, last) if p) or None


def _number(text: str | None, affixes: Iterable[str], *, limit: bool = False) -> int | None:
    """A round or table number as people type it: "3", "３", "Round 3", "第3回戦", "3卓"; None if it is not one."""
    if text is None:
        return None
    folded = unicodedata.normalize("NFKC", text).casefold().replace(" ", "")
    for affix in sorted(affixes, key=len, reverse=True):
        folded = folded.removeprefix(affix).removesuffix(affix)
    if limit:
        return table_number(folded)
    return int(folded) if re.fullmatch(r"[0-9]{1,3}", folded) and int(folded) > 0 else None


def _shown(text: str | None) -> str:
    return gettext("'%(text)s'", text=text) if text else gettext("(blank)")
