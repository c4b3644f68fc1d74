"""A tap played on from the table its history added up to (``step``) gives exactly what folding the whole history gives.

Histories come from the strategies that replay legal records of either game (every house rule
and variant), with taps undone and played again, finished rounds and days corrected, rematch
notes, and stray changes drawn at random in between, legal or not: the table is then played on
as the app does, keeping what the rules accept. At every change the stepped table and the whole
fold agree: the same table and the same record, or the same refusal.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules import record
from rules.games import Table, TableEvent
from rules.history import check, fold
from rules.problems import Illegal
from tests.rules.auruxxx_strategies import auruxxx_histories
from tests.rules.twelve_days_strategies import twelve_days_histories

Record = dict[str, Any]
Outcome = tuple[str, object]


def outcome(folding: Callable[[], Table[Any]]) -> Outcome:
    """Return what a fold came to: the table with its record as written (key order included), or the refusal."""
    try:
        table = folding()
    except Illegal as illegal:
        return "refused", [(p.place, p.template, sorted(p.params.items())) for p in illegal.problems]
    return "table", (table, json.dumps(record.serialise(table.game)))


def stray(draw: st.DrawFn, setup: Record, seq: int, shown: Table[Any]) -> tuple[str, Record]:
    """Return a change a phone could send at this moment, legal or not: any kind, any round or day, any player."""
    players = [*setup["players"], "Zoe"]
    position = st.integers(-1, 13)
    who = st.sampled_from(players)
    written = record.serialise(shown.game)
    finished = written.get("rounds", written.get("days", []))
    correct = "correct_round" if setup["game"] == "auruxxx" else "correct_day"
    stage = "round" if setup["game"] == "auruxxx" else "day"
    kinds: dict[str, st.SearchStrategy[Record]] = {
        "undo": st.fixed_dictionaries({"event": st.integers(0, seq)}),
        "rematch": st.just({}),
        "nonsense": st.just({"round": 0}),
        correct: st.fixed_dictionaries({stage: position, "record": st.sampled_from(finished or [{}])}),
    }
    if setup["game"] == "auruxxx":
        kinds |= {
            "pass": st.fixed_dictionaries({"round": position, "player": who}),
            "happy_man": st.fixed_dictionaries({"round": position, "player": who}),
            "finish": st.fixed_dictionaries({"round": position, "player": who, "golden12": st.integers(-1, 4)}),
            "hand": st.fixed_dictionaries(
                {"round": position, "player": who, "hand": st.sampled_from([{}, {"numbers": [3, 7]}, {"fifty": 9}])}
            ),
        }
    else:
        card = st.one_of(st.integers(-1, 13), st.sampled_from(["claus", "ghost"]))
        kinds |= {
            "card": st.fixed_dictionaries({"day": position, "player": who, "card": card}),
            "gift": st.fixed_dictionaries({"day": position, "player": who}),
            "taken": st.fixed_dictionaries({"day": position, "player": st.one_of(st.none(), who)}),
            "hand": st.fixed_dictionaries({"player": who, "cards": st.lists(card, max_size=4)}),
        }
    kind = draw(st.sampled_from(sorted(kinds)))
    return kind, draw(kinds[kind])


@st.composite
def played_histories(
    draw: st.DrawFn, histories: st.SearchStrategy[tuple[Record, Record, list[TableEvent]]]
) -> tuple[Record, list[tuple[str, Record]]]:
    """Return a setup and the changes phones send to replay a record, with undos, corrections and stray changes in between."""
    _, setup, events = draw(histories)
    sent: list[tuple[str, Record]] = []
    for event in events:
        extra = draw(st.sampled_from(["none", "none", "none", "undo and again", "correct", "stray"]))
        sent.append((event.kind, dict(event.payload)))
        if extra == "undo and again":
            sent += [("undo", {"event": -1}), (event.kind, dict(event.payload))]
        elif extra == "correct":
            sent.append(("correct", {}))
        elif extra == "stray":
            sent.append(("stray", {}))
    return setup, sent


def play(draw: st.DrawFn, setup: Record, sent: Sequence[tuple[str, Record]]) -> int:
    """Send every change as the app does, checking step against the whole fold at each; return how many were stepped on."""
    history: list[TableEvent] = []
    table = fold(setup, [])
    for kind, payload in sent:
        seq = len(history) + 1
        if kind == "undo" and payload["event"] == -1:
            payload = {"event": history[-1].seq}
        elif kind == "correct":
            written = record.serialise(table.game)
            stage, parts = ("round", written.get("rounds", [])) if setup["game"] == "auruxxx" else ("day", written.get("days", []))
            if not parts:
                continue
            kind, payload = f"correct_{stage}", {stage: len(parts) - 1, "record": parts[-1]}
        elif kind == "stray":
            kind, payload = stray(draw, setup, seq, table)
        new = TableEvent(seq, kind, payload)
        stepped = outcome(lambda: check(setup, history, [new], table=table))
        whole = outcome(lambda: fold(setup, [*history, new]))
        assert stepped == whole, (new, history)
        if whole[0] == "table":
            history.append(new)
            table = check(setup, history[:-1], [new], table=table)
    return len(history)


@pytest.mark.parametrize("histories", [auruxxx_histories(), twelve_days_histories()], ids=["auruxxx", "12days"])
@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_a_tap_stepped_on_from_its_table_is_what_the_whole_history_folds_to(
    histories: st.SearchStrategy[tuple[Record, Record, list[TableEvent]]], data: st.DataObject
) -> None:
    setup, sent = data.draw(played_histories(histories))
    play(data.draw, setup, sent)


def test_a_replayed_record_is_stepped_on_tap_by_tap_to_the_record_itself() -> None:
    """Without strays every change of a replayed record is kept: the step is tested on the whole game, not on refusals."""
    setup = {"game": "auruxxx", "players": ["Anna", "Ben"]}
    taps = [
        ("pass", {"round": 0, "player": "Anna"}),
        ("happy_man", {"round": 0, "player": "Ben"}),
        ("finish", {"round": 0, "player": "Ben", "golden12": 1}),
        ("hand", {"round": 0, "player": "Anna", "hand": {"numbers": [3, 7]}}),
        ("pass", {"round": 1, "player": "Ben"}),
    ]
    assert play(lambda strategy: None, setup, taps) == len(taps)
