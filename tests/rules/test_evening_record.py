"""The evening record: an evening's games in one document that reads back to the same games (rules.evening_record)."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules import evening_record, record
from rules.evening import standings
from rules.problems import Illegal
from tests.examples import AURUXXX_EXAMPLE, TWELVE_DAYS_EXAMPLE, finished_auruxxx
from tests.rules.strategies import records


def evening_of(*games: dict[str, object], table: str | None = "Küchentisch") -> dict[str, object]:
    """Return an evening record of scored games, as the export writes it."""
    scored = [record.scored(record.parse(game)) for game in games]
    return evening_record.document(table=table, day=None, games=scored, standings=standings([]))


def problems(raw: object) -> list[str]:
    """Return the lines an evening record is refused with."""
    with pytest.raises(Illegal) as refused:
        evening_record.parse(raw)
    return [str(problem) for problem in refused.value.problems]


def test_an_exported_evening_reads_back_game_by_game() -> None:
    """Each game of the document is a game record: it reads back to the same game, the table's name with them."""
    document = evening_of(finished_auruxxx(), AURUXXX_EXAMPLE, TWELVE_DAYS_EXAMPLE)
    evening = evening_record.loads(json.dumps(document))
    assert evening.table == "Küchentisch"
    assert [record.serialise(game) for game in evening.games] == [
        record.serialise(record.parse(game)) for game in (finished_auruxxx(), AURUXXX_EXAMPLE, TWELVE_DAYS_EXAMPLE)
    ]
    assert evening_record.is_evening(document) and not evening_record.is_evening(AURUXXX_EXAMPLE)


@settings(max_examples=40, deadline=None)
@given(st.lists(records(), min_size=1, max_size=4))
def test_any_evening_of_legal_games_round_trips(games: list[dict[str, object]]) -> None:
    """Whatever legal games an evening holds, its record reads back to exactly those games, in order."""
    document = evening_of(*games, table=None)
    evening = evening_record.loads(record.dumps(document))
    assert evening.table is None
    assert [record.scored(game) for game in evening.games] == document["games"]


def test_a_bad_game_is_refused_with_the_game_records_own_message_under_its_place() -> None:
    """The second game passes four times in a round: the message is the game record's, placed under games[1]."""
    bad = json.loads(json.dumps(AURUXXX_EXAMPLE))
    bad["rounds"][0]["passes"]["Anna"] = 4
    assert problems(evening_of(AURUXXX_EXAMPLE, table=None) | {"games": [AURUXXX_EXAMPLE, bad]}) == [
        "games[1].rounds[0].passes.Anna: at most 3 passes per round (got 4)"
    ]


def test_every_problem_of_every_game_and_of_the_evening_is_reported_at_once() -> None:
    """A table name that is a number and two broken games: three lines."""
    raw = {"evening": {"table": 7}, "games": [{"game": "auruxxx", "players": ["A"]}, {"game": "chess", "players": []}]}
    assert problems(raw) == [
        "evening.table: must be text or null (got the number 7)",
        "games[0].players: AURUXXX is played by 2 to 6 players (got 1)",
        'games[1].game: must be one of "auruxxx", "12days", "plain" (got "chess")',
    ]


@pytest.mark.parametrize(
    ("raw", "line"),
    [
        ({"evening": {}, "games": []}, "games: an evening holds 1 to 50 games (got 0)"),
        ({"evening": {}, "games": [AURUXXX_EXAMPLE] * 51}, "games: an evening holds 1 to 50 games (got 51)"),
        ({"evening": {}, "games": {}}, "games: must be a list of game records (got an object)"),
        ({"evening": {}}, "games: is required"),
        ({"evening": {"table": "x" * 41}, "games": [AURUXXX_EXAMPLE]}, "evening.table: a table's name has at most 40 characters (got 41)"),
        ({"evening": {"table": "a\nb"}, "games": [AURUXXX_EXAMPLE]}, "evening.table: a table's name cannot contain control characters"),
        ({"evening": {"date": "5.12."}, "games": [AURUXXX_EXAMPLE]}, 'evening.date: must be a date written as YYYY-MM-DD (got "5.12.")'),
        ({"evening": {"colour": 1}, "games": [AURUXXX_EXAMPLE]}, 'evening: unknown key "colour"'),
        ({"evening": {}, "games": [AURUXXX_EXAMPLE], "standings": 3}, "standings: must be a list (got the number 3)"),
        ([], "record: must be an object (got a list)"),
    ],
)
def test_a_malformed_evening_is_refused_naming_the_field(raw: object, line: str) -> None:
    """Each mistake in the evening's own part is one line naming where it is."""
    assert line in problems(raw)


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ('{"evening": {}, "evening": {}, "games": []}', "evening: is given twice in one object"),
        (
            '{"evening": {}, "games": [{"game": "auruxxx", "game": "auruxxx", "players": ["A", "B"]}]}',
            "games[0].game: is given twice in one object",
        ),
        (
            '{"evening": {}, "games": [{"game": "auruxxx", "players": ["A", "B"], "rounds": NaN}]}',
            "games[0].rounds: NaN is not a JSON number",
        ),
        ('{"evening": {', "record: is not valid JSON (Expecting property name enclosed in double quotes: line 1 column 14 (char 13))"),
        ("[" * 100_000, "record: is nested more than 16 levels deep"),
    ],
)
def test_an_evening_text_is_read_as_strictly_as_a_game_record(text: str, line: str) -> None:
    """A key given twice, NaN, broken JSON or nesting past any record: refused, with one line."""
    with pytest.raises(Illegal) as refused:
        evening_record.loads(text)
    assert [str(problem) for problem in refused.value.problems] == [line]
