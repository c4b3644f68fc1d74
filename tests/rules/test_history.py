"""Folding the event history into the game: taps, round ends, undo, corrections, import."""

from __future__ import annotations

from typing import Any

import pytest

from rules import history, record
from rules.auruxxx.history import AuruxxxTable
from rules.games import Table, TableEvent
from rules.problems import Illegal
from rules.twelve_days.history import TwelveDaysTable
from rules.twelve_days.record import read_day

AURUXXX_SETUP = {"game": "auruxxx", "players": ["Anna", "Ben", "Cleo"]}
TWELVE_DAYS_SETUP = {"game": "12days", "players": ["A", "B", "C"]}


class Writing:
    """A game's history being written, one checked event at a time, as the app appends them."""

    def __init__(self, setup: dict[str, Any]) -> None:
        self.setup = setup
        self.events: list[TableEvent] = []

    def tap(self, kind: str, **payload: Any) -> Table[Any]:
        """Append an event if the rules allow it and return the game it leads to."""
        event = TableEvent(self.events[-1].seq + 1 if self.events else 1, kind, payload)
        table = history.check(self.setup, self.events, [event])
        self.events.append(event)
        return table

    def refused(self, kind: str, **payload: Any) -> list[str]:
        """Return the problems an event is refused with; the history stays as it was."""
        before = list(self.events)
        with pytest.raises(Illegal) as refusal:
            self.tap(kind, **payload)
        assert self.events == before
        return [str(p) for p in refusal.value.problems]

    def undo(self) -> Table[Any]:
        """Undo the last change that still counts."""
        last = history.last_change(self.events)
        assert last is not None
        return self.tap("undo", event=last.seq)

    def auruxxx(self) -> AuruxxxTable:
        """Return the folded AURUXXX game."""
        table = history.fold(self.setup, self.events)
        assert isinstance(table, AuruxxxTable)
        return table

    def twelve_days(self) -> TwelveDaysTable:
        """Return the folded 12 Days game."""
        table = history.fold(self.setup, self.events)
        assert isinstance(table, TwelveDaysTable)
        return table

    def totals(self) -> Any:
        """Return the totals of the scored record."""
        return record.scored(history.fold(self.setup, self.events).game)["result"]["totals"]


def play_round(table: Writing, index: int, finisher: str, golden12: int, hands: dict[str, int]) -> None:
    """End a round: the finisher, then every other hand as a counted total."""
    table.tap("finish", round=index, player=finisher, golden12=golden12)
    for player, points in hands.items():
        table.tap("hand", round=index, player=player, hand={"points": points})


def test_crosses_and_hands_add_up_to_the_round_score() -> None:
    """A round closes when the last hand is in, and its scores follow the rules."""
    table = Writing(AURUXXX_SETUP)
    table.tap("pass", round=0, player="Anna")
    table.tap("pass", round=0, player="Anna")
    table.tap("happy_man", round=0, player="Cleo")
    table.tap("finish", round=0, player="Ben", golden12=2)
    table.tap("hand", round=0, player="Anna", hand={"numbers": [3, 8, 11]})
    open_round = table.auruxxx().current
    assert open_round is not None and open_round.index == 0 and open_round.waiting_for(["Anna", "Ben", "Cleo"]) == ("Cleo",)
    folded = table.tap("hand", round=0, player="Cleo", hand={"numbers": [9, 8]})
    assert isinstance(folded, AuruxxxTable)
    assert folded.current is not None and folded.current.index == 1 and folded.current.holder == "Cleo"
    assert table.totals() == {"Anna": 32, "Ben": -10, "Cleo": 8.5}


def test_fourth_cross_is_refused_and_changes_nothing() -> None:
    """At most 3 passes per round."""
    table = Writing(AURUXXX_SETUP)
    for _ in range(3):
        table.tap("pass", round=0, player="Ben")
    assert table.refused("pass", round=0, player="Ben") == ["rounds[0].passes.Ben: at most 3 passes per round (got 4)"]


def test_taps_for_a_finished_or_later_round_are_refused() -> None:
    """A late tap for a closed round cannot sneak into the next one."""
    table = Writing(AURUXXX_SETUP)
    play_round(table, 0, "Ben", 1, {"Anna": 4, "Cleo": 5})
    assert table.refused("pass", round=0, player="Anna") == ["events[4].round: round 1 is finished; round 2 is being played"]
    assert table.refused("pass", round=2, player="Anna") == ["events[4].round: round 3 has not begun; round 2 is being played"]


def test_hands_wait_for_the_finisher_and_the_finisher_has_none() -> None:
    """Hands are counted after the finisher is known, and never for the finisher."""
    table = Writing(AURUXXX_SETUP)
    assert table.refused("hand", round=0, player="Anna", hand={"points": 3}) == [
        "rounds[0].hands.Anna: hands are counted once the finisher is known"
    ]
    table.tap("finish", round=0, player="Ben", golden12=1)
    assert table.refused("hand", round=0, player="Ben", hand={"points": 3}) == [
        "rounds[0].hands.Ben: the finisher has no hand left to count"
    ]
    assert table.refused("hand", round=0, player="Anna", hand={"numbers": [14]}) == [
        "rounds[0].hands.Anna.numbers[0]: number cards go from 0 to 12 (got 14)"
    ]


def test_happy_man_stays_with_its_holder_across_rounds_and_never_returns_to_nobody() -> None:
    """The figure is carried into the next round; a tap back to nobody is refused."""
    table = Writing(AURUXXX_SETUP)
    table.tap("happy_man", round=0, player="Anna")
    play_round(table, 0, "Ben", 1, {"Anna": 10, "Cleo": 10})
    play_round(table, 1, "Ben", 1, {"Anna": 10, "Cleo": 10})
    game = table.auruxxx().game
    assert [r.happy_man for r in game.rounds] == ["Anna", "Anna"]
    assert table.refused("happy_man", round=2, player=None) == ["events[8].player: null is not a player of this game"]


def test_undo_takes_back_the_last_change_even_a_round_end() -> None:
    """Undo removes the most recent change that counts; undoing the hand that closed a round reopens it."""
    table = Writing(AURUXXX_SETUP)
    play_round(table, 0, "Ben", 1, {"Anna": 4, "Cleo": 5})
    table.tap("pass", round=1, player="Anna")
    table.undo()
    assert table.auruxxx().current is not None and table.auruxxx().current.passes == {}  # type: ignore[union-attr]
    reopened = table.undo()
    assert isinstance(reopened, AuruxxxTable)
    assert reopened.game.rounds == () and reopened.current is not None and reopened.current.index == 0
    assert reopened.current.waiting_for(["Anna", "Ben", "Cleo"]) == ("Cleo",)


def test_undo_names_an_earlier_change_once() -> None:
    """An undo of nothing, of an unknown event or twice of the same is refused."""
    table = Writing(AURUXXX_SETUP)
    table.tap("pass", round=0, player="Anna")
    assert table.refused("undo", event=99) == ["events[2]: an undo names an earlier change of this game"]
    table.tap("undo", event=1)
    assert table.refused("undo", event=1) == ["events[3]: that change was already undone"]


def test_a_rematch_note_changes_no_score_and_is_never_undone() -> None:
    """The note that a rematch started counts for nothing, is not what "undo" offers, and cannot be undone."""
    table = Writing(AURUXXX_SETUP)
    play_round(table, 0, "Ben", 1, {"Anna": 4, "Cleo": 5})
    totals = table.totals()
    table.tap("rematch")
    assert table.totals() == totals
    last = history.last_change(table.events)
    assert last is not None and last.kind == "hand"
    assert table.refused("undo", event=table.events[-1].seq) == ["events[5]: an undo names an earlier change of this game"]
    assert table.refused("rematch", game=7) == ['events[5]: unknown key "game"']
    days = Writing(TWELVE_DAYS_SETUP)
    days.tap("rematch")
    assert days.twelve_days().game.days == ()


def test_correcting_an_earlier_round_recomputes_everything_after_it() -> None:
    """A correction replaces a finished round; the Happy-Man holder carried on follows it."""
    table = Writing(AURUXXX_SETUP)
    table.tap("happy_man", round=0, player="Anna")
    play_round(table, 0, "Ben", 1, {"Anna": 10, "Cleo": 10})
    play_round(table, 1, "Ben", 1, {"Anna": 10, "Cleo": 10})
    assert table.totals() == {"Anna": 10, "Ben": -10, "Cleo": 20}
    corrected = {"finisher": "Ben", "golden12": 1, "happy_man": "Cleo", "hands": {"Anna": {"points": 10}, "Cleo": {"points": 10}}}
    folded = table.tap("correct_round", round=0, record=corrected)
    assert isinstance(folded, AuruxxxTable)
    assert [r.happy_man for r in folded.game.rounds] == ["Cleo", "Cleo"]
    assert folded.current is not None and folded.current.holder == "Cleo"
    assert table.totals() == {"Anna": 20, "Ben": -10, "Cleo": 10}
    assert table.refused("correct_round", round=2, record=corrected) == ["events[9].round: only a finished round can be corrected"]
    assert table.refused("correct_round", round=1, record={**corrected, "happy_man": None}) == [
        "rounds[1].happy_man: the Happy-Man figure never goes back to nobody (Cleo holds it)"
    ]


def test_a_round_changed_since_a_version_only_when_what_folds_into_it_changed() -> None:
    """Taps and undos of the open round leave round 2 as it was; a correction of round 1 handing it another holder does not."""
    table = Writing(AURUXXX_SETUP)
    table.tap("happy_man", round=0, player="Anna")
    play_round(table, 0, "Ben", 1, {"Anna": 10, "Cleo": 10})
    play_round(table, 1, "Ben", 1, {"Anna": 10, "Cleo": 10})
    then = history.fold(table.setup, table.events)
    table.tap("pass", round=2, player="Cleo")
    table.undo()
    now = history.fold(table.setup, table.events)
    assert not history.changed_between(then, now, 1)
    assert not history.changed_between(then, now, 0)
    corrected = {"finisher": "Ben", "golden12": 1, "happy_man": "Cleo", "hands": {"Anna": {"points": 10}, "Cleo": {"points": 10}}}
    table.tap("correct_round", round=0, record=corrected)
    now = history.fold(table.setup, table.events)
    assert history.changed_between(then, now, 0)
    assert history.changed_between(then, now, 1)  # its holder came from round 1
    assert not history.changed_between(then, now, 2)  # not finished: the rules refuse it


def test_only_the_last_change_is_not_superseded() -> None:
    """Undoing a change that newer changes followed would skip them; unknown or undone changes are the rules' to refuse."""
    table = Writing(AURUXXX_SETUP)
    table.tap("pass", round=0, player="Anna")
    table.tap("pass", round=0, player="Ben")
    assert history.superseded(table.events, 1) and not history.superseded(table.events, 2)
    table.undo()
    assert not history.superseded(table.events, 1) and not history.superseded(table.events, 2)
    assert not history.superseded(table.events, 99)


def test_after_three_rounds_nothing_more_is_played() -> None:
    """The game ends after the third round."""
    table = Writing(AURUXXX_SETUP)
    for index in range(3):
        play_round(table, index, "Anna", 1, {"Ben": 1, "Cleo": 2})
    assert table.auruxxx().current is None and table.auruxxx().game.rounds[2].finisher == "Anna"
    assert table.refused("pass", round=3, player="Anna") == ["events[10].round: all 3 rounds are finished"]


def test_a_day_resolves_when_the_last_card_is_in() -> None:
    """Cards may come in any order and be changed until the day resolves."""
    table = Writing(TWELVE_DAYS_SETUP)
    table.tap("card", day=0, player="B", card=3)
    table.tap("card", day=0, player="A", card=3)
    table.tap("card", day=0, player="A", card=5)
    assert table.twelve_days().current is not None and table.twelve_days().current.played == {"B": 3, "A": 5}  # type: ignore[union-attr]
    table.tap("card", day=0, player="C", card=9)
    assert table.twelve_days().game.days[0] == read_day({"played": {"A": 5, "B": 3, "C": 9}}, ("A", "B", "C"))
    assert table.totals() == {"A": 0, "B": 1, "C": 0}


def test_a_claus_win_waits_for_the_gift_to_another_player() -> None:
    """The day stays open until the Claus winner names another player."""
    table = Writing(TWELVE_DAYS_SETUP)
    for player, card in (("A", "santa"), ("B", 2), ("C", 7)):
        table.tap("card", day=0, player=player, card=card)
    assert table.twelve_days().current is not None and table.twelve_days().current.index == 0  # type: ignore[union-attr]
    assert table.refused("gift", day=0, player="A") == ["days[0].gift_to: A won with a Claus card and must give the day to another player"]
    table.tap("gift", day=0, player="C")
    assert table.totals() == {"A": 0, "B": 0, "C": 1}
    assert table.refused("gift", day=1, player="B") == ["days[1].gift_to: only a player who wins with a Claus card gives the day away"]


def test_cards_beyond_the_deck_are_refused_on_the_day() -> None:
    """A third 2 on one day cannot be revealed, nor a card the variant lacks."""
    table = Writing(TWELVE_DAYS_SETUP)
    table.tap("card", day=0, player="A", card=2)
    table.tap("card", day=0, player="B", card=2)
    assert table.refused("card", day=0, player="C", card=2) == ["days[0].played: the deck has 2 of card 2, but this day shows 3"]
    assert table.refused("card", day=0, player="C", card=13) == ["days[0].played.C: gift cards in 12 Days go from 1 to 12 (got 13)"]


def test_quick_days_pot_and_a_lost_last_day() -> None:
    """Quick entries feed the same pot; an unwon last day is lost with its pot."""
    table = Writing(TWELVE_DAYS_SETUP)
    for day in range(10):
        table.tap("taken", day=day, player="A")
    table.tap("taken", day=10, player=None)
    table.tap("taken", day=11, player=None)
    result = record.scored(table.twelve_days().game)["result"]
    assert result["lost"] == 23 and result["day_points"]["A"] == 55
    assert table.twelve_days().current is None


def test_final_hands_complete_the_game() -> None:
    """Once every final hand is in, the bonuses count and the game is complete."""
    table = Writing(TWELVE_DAYS_SETUP)
    for day in range(12):
        table.tap("taken", day=day, player="A")
    table.tap("hand", player="A", cards=[12] * 12)
    table.tap("hand", player="B", cards=[11] * 11 + [1])
    assert record.scored(table.twelve_days().game)["result"]["complete"] is False
    assert table.refused("hand", player="C", cards=[10] * 10 + [1, 9]) == ["hands: the deck has 1 of card 1, but the hands hold 2"]
    table.tap("hand", player="C", cards=[10] * 10 + [9, 9])
    result = record.scored(table.twelve_days().game)["result"]
    assert result["complete"] is True and result["bonus"] == {"A": 12, "B": 12, "C": 19}


def test_correcting_a_past_day_moves_the_pot() -> None:
    """A corrected day changes who took it and every pot after it."""
    table = Writing(TWELVE_DAYS_SETUP)
    table.tap("taken", day=0, player="A")
    table.tap("taken", day=1, player="B")
    table.tap("correct_day", day=0, record={"taken_by": None})
    assert table.totals() == {"A": 0, "B": 3, "C": 0}
    assert table.refused("correct_day", day=0, record={"played": {"A": 1, "B": 1}}) == [
        "days[0].played: every player reveals a card; missing: C",
        "days[0].played: the deck has 1 of card 1, but this day shows 2",
    ]


def test_an_import_starts_a_game_from_its_record() -> None:
    """A whole record can be the first change of a game, and play goes on after it."""
    raw = {
        "game": "auruxxx",
        "players": ["Anna", "Ben", "Cleo"],
        "rounds": [{"finisher": "Ben", "golden12": 1, "happy_man": "Cleo", "hands": {"Anna": {"points": 3}, "Cleo": {"points": 8}}}],
    }
    table = Writing(AURUXXX_SETUP)
    table.tap("import", record=raw)
    folded = table.tap("pass", round=1, player="Anna")
    assert isinstance(folded, AuruxxxTable) and folded.current is not None and folded.current.holder == "Cleo"
    assert table.totals() == {"Anna": 3, "Ben": -5, "Cleo": 4}
    assert table.refused("import", record=raw) == ["events[3]: a record can only be imported into a new game"]
    other = Writing(AURUXXX_SETUP)
    assert other.refused("import", record={**raw, "players": ["Ben", "Anna", "Cleo"]}) == [
        "events[1].players: differs from the game it is imported into"
    ]


def test_unknown_changes_and_malformed_payloads_are_refused() -> None:
    """Events of the other game, missing keys or unknown players never fold."""
    table = Writing(AURUXXX_SETUP)
    assert table.refused("card", round=0, player="Anna") == ["events[1]: 'card' is not a change of an AURUXXX game"]
    assert table.refused("pass", round=0) == ["events[1].player: is required"]
    assert table.refused("pass", round=0, player="Dora") == ['events[1].player: "Dora" is not a player of this game']
    assert table.refused("pass", round="0", player="Anna") == ["events[1].round: must be the number of a round"]


def test_an_imported_record_is_corrected_never_undone() -> None:
    """Undo offers the taps after an import, never the import itself, and refuses to take it back."""
    raw = {
        "game": "auruxxx",
        "players": ["Anna", "Ben", "Cleo"],
        "rounds": [{"finisher": "Ben", "golden12": 1, "happy_man": None, "hands": {"Anna": {"points": 3}, "Cleo": {"points": 8}}}],
    }
    table = Writing(AURUXXX_SETUP)
    table.tap("import", record=raw)
    assert history.last_change(table.events) is None
    assert table.refused("undo", event=1) == ["events[2]: an imported record cannot be undone; correct its rounds or days instead"]
    table.tap("pass", round=1, player="Anna")
    last = history.last_change(table.events)
    assert last is not None and last.kind == "pass"
