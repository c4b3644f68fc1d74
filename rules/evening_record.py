"""The evening record: every game of one evening at a table in one JSON document, which imports again.

It extends the game record without changing it: each entry of ``games`` is a game record
exactly as ``rules.record`` reads and writes it, checked by ``rules.record.parse`` with its
own messages (placed under ``games[N]``). Around them the document names its table and,
like a game's ``result``, carries the standings, which an import recomputes and never trusts::

    {"evening": {"table": "Küchentisch", "date": "2026-12-05"},
     "games": [{"game": "auruxxx", "players": ["Anna", "Ben"], "rounds": [...]}, ...],
     "standings": [{"player": "Anna", "rank": 1, "played": 2, "wins": 2, "places": [2, 0]}, ...]}
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date

from rules import record
from rules.evening import Standing
from rules.json_value import JSON
from rules.problems import N_, Illegal, Problem, at

MAX_GAMES = 50
"""The most games one evening record holds: more than any evening at a card table."""
MAX_TABLE_NAME_LENGTH = 40


@dataclass(frozen=True)
class Evening:
    """An evening read from its record: the table's name and its games in the order they were played."""

    table: str | None
    games: tuple[object, ...]
    """Each a game's own typed game, as ``rules.record.parse`` returns it."""


def is_evening(raw: JSON) -> bool:
    """Return whether a decoded document is an evening record rather than a game record.

    >>> is_evening({"evening": {}, "games": []}), is_evening({"game": "auruxxx", "players": []})
    (True, False)
    """
    return isinstance(raw, dict) and "evening" in raw


def document(*, table: str | None, day: date | None, games: Sequence[dict[str, JSON]], standings: Sequence[Standing]) -> dict[str, JSON]:
    """Return an evening's record: its table and day, each game's scored record, and the standings."""
    about: dict[str, JSON] = {"table": table}
    if day is not None:
        about["date"] = day.isoformat()
    return {
        "evening": about,
        "games": list(games),
        "standings": [
            {"player": s.player, "rank": s.rank, "played": s.played, "wins": s.wins, "places": list(s.places)} for s in standings
        ],
    }


def _table_name(reader: record.Reader, value: JSON) -> str | None:
    """Return the table's name: text of at most 40 characters without control characters, or null."""
    if value is None:
        return None
    if not isinstance(value, str):
        reader.fail("evening.table", N_("must be text or null (got {got})"), got=record.json_type(value))
        return None
    if len(value) > MAX_TABLE_NAME_LENGTH:
        reader.fail(
            "evening.table", N_("a table's name has at most {limit} characters (got {got})"), limit=MAX_TABLE_NAME_LENGTH, got=len(value)
        )
        return None
    if not value.isprintable():
        reader.fail("evening.table", N_("a table's name cannot contain control characters"))
        return None
    return value.strip() or None


def _day(reader: record.Reader, value: JSON) -> None:
    """Check the evening's day: a date written as YYYY-MM-DD (it is shown, never trusted)."""
    try:
        date.fromisoformat(value if isinstance(value, str) else "")
    except ValueError:
        reader.fail("evening.date", N_("must be a date written as YYYY-MM-DD (got {got})"), got=record.shorten(value))


def _placed(index: int, found: Problem) -> Problem:
    """Return a game record's problem placed inside the evening: ``rounds[0]`` becomes ``games[2].rounds[0]``."""
    inside = at("games", index)
    return Problem(f"{inside}.{found.place}" if found.place else inside, found.template, found.params)


def parse(raw: JSON) -> Evening:
    """Return the evening a decoded evening record describes, or raise Illegal with every problem of every game.

    >>> game = {"game": "auruxxx", "players": ["Anna", "Ben"]}
    >>> parse({"evening": {"table": "Küche"}, "games": [game, game]}).table
    'Küche'
    >>> parse({"evening": {}, "games": [game, {"game": "auruxxx", "players": ["Anna"]}]})
    Traceback (most recent call last):
    ...
    rules.problems.Illegal: games[1].players: AURUXXX is played by 2 to 6 players (got 1)
    """
    reader = record.Reader()
    top = reader.object("", raw, required=("evening", "games"), optional=("standings",))
    if top is None:
        raise Illegal(reader.problems)
    about = reader.object("evening", top.get("evening"), required=(), optional=("table", "date"))
    table = _table_name(reader, about.get("table")) if about is not None else None
    if about is not None and "date" in about:
        _day(reader, about["date"])
    listed = top.get("games")
    games: list[object] = []
    if not isinstance(listed, list):
        if "games" in top:
            reader.fail("games", N_("must be a list of game records (got {got})"), got=record.json_type(listed))
    elif not 1 <= len(listed) <= MAX_GAMES:
        reader.fail("games", N_("an evening holds 1 to {limit} games (got {got})"), limit=MAX_GAMES, got=len(listed))
    else:
        for index, raw_game in enumerate(listed):
            try:
                games.append(record.parse(raw_game))
            except Illegal as illegal:
                reader.problems.extend(_placed(index, found) for found in illegal.problems)
    if "standings" in top and not isinstance(top["standings"], list):
        reader.fail("standings", N_("must be a list (got {got})"), got=record.json_type(top["standings"]))
    return reader.finish(Evening(table=table, games=tuple(games)))


def loads(text: str | bytes) -> Evening:
    """Return the evening a JSON text describes, or raise Illegal: broken JSON, a key given twice, or any problem of a game.

    The text is checked as strictly as a game record (``rules.record.loads``): a key given twice
    anywhere, ``NaN`` or ``Infinity``, or nesting too deep is refused.

    >>> loads('{"evening": {}, "evening": {}, "games": []}')
    Traceback (most recent call last):
    ...
    rules.problems.Illegal: evening: is given twice in one object
    """
    return parse(record.decode(text))
