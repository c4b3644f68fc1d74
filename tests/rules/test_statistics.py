"""A table's statistics: each test is named after the figure it proves, on small tables worked out by hand."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from rules import record
from rules.auruxxx.statistics import tally as auruxxx_tally
from rules.games import find_game
from rules.json_value import JSON
from rules.points import HalfPoints
from rules.problems import Illegal
from rules.statistics import NameChange, StoredGame, checked_change, history_rows, places, stored_game, table_statistics
from rules.twelve_days.statistics import tally as twelve_days_tally

IDLE = timedelta(hours=6)
FRIDAY = datetime(2026, 3, 6, 19, tzinfo=UTC)


def game(
    number: int,
    totals: dict[str, int],
    winners: tuple[str, ...],
    *,
    name: str = "Skat",
    days_later: int = 0,
    complete: bool = True,
) -> StoredGame:
    """Return a stored game of whole points, started ``number`` half-hours into an evening ``days_later`` days after the first."""
    started = FRIDAY + timedelta(days=days_later, minutes=30 * number)
    return StoredGame(
        game_id=number + 100 * days_later,
        name=name,
        started=started,
        last_change=started + timedelta(minutes=20),
        players=tuple(totals),
        totals={player: HalfPoints(2 * points) for player, points in totals.items()},
        winners=winners,
        complete=complete,
    )


def player(stats: object, name: str) -> object:
    """Return one player's figures from a table's statistics."""
    return next(entry for entry in stats.players if entry.player == name)  # type: ignore[attr-defined]


def test_names_written_alike_are_one_player() -> None:
    """ "Anna", "anna", "Ａnna" and "Anna" with a zero-width space are one player, named as she first sat down."""
    games = [
        game(0, {"Anna": 10, "Ben": 4}, ("Anna",)),
        game(1, {"anna": 9, "Ben": 4}, ("anna",)),
        game(2, {"\uff21nna": 9, "Ben": 4}, ("\uff21nna",)),
        game(3, {"An\u200bna": 1, "Ben  Lee": 4}, ("Ben  Lee",)),
        game(4, {"Anna": 1, "Ben Lee": 4}, ("Ben Lee",)),
    ]
    stats = table_statistics(games, idle=IDLE)
    assert [(entry.player, entry.games, entry.wins) for entry in stats.players] == [("Anna", 5, 3), ("Ben  Lee", 2, 2), ("Ben", 3, 0)]


def test_a_merged_name_counts_as_the_player_and_an_unmerge_parts_them_again() -> None:
    """Ben sat down as "Benny" one Friday: merged, he has both games; the merge undone, Benny is on his own again."""
    games = [game(0, {"Anna": 10, "Ben": 4}, ("Anna",)), game(0, {"Anna": 1, "Benny": 4}, ("Benny",), days_later=7)]
    merged = [NameChange("merge", "Benny", "Ben")]
    ben = player(table_statistics(games, changes=merged, idle=IDLE), "Ben")
    assert (ben.games, ben.wins, ben.names) == (2, 1, ("Ben", "Benny"))  # type: ignore[attr-defined]
    parted = table_statistics(games, changes=[*merged, NameChange("unmerge", "benny", "Ben")], idle=IDLE)
    assert sorted(entry.player for entry in parted.players) == ["Anna", "Ben", "Benny"]


def test_two_names_that_played_together_cannot_be_merged() -> None:
    """Anna and Ben sat at one game, so they are two people; an unknown name or a second merge is refused as well."""
    games = [game(0, {"Anna": 10, "Ben": 4}, ("Anna",)), game(1, {"Anni": 1, "Ben": 4}, ("Ben",))]
    with pytest.raises(Illegal, match="same game"):
        checked_change(games, [], NameChange("merge", "Anna", "Ben"))
    with pytest.raises(Illegal, match="Nobody of that name"):
        checked_change(games, [], NameChange("merge", "Zoe", "Ben"))
    merge = checked_change(games, [], NameChange("merge", "Anni", "Anna"))
    with pytest.raises(Illegal, match="already count as one"):
        checked_change(games, [merge], NameChange("merge", "anni", "Anna"))
    with pytest.raises(Illegal, match="not merged"):
        checked_change(games, [], NameChange("unmerge", "Anni", "Anna"))


def test_a_winner_by_the_rules_comes_first_and_an_equal_total_second() -> None:
    """Every winner is 1st; a player with the winner's total who did not win comes 2nd, behind every winner."""
    tied = game(0, {"A": 5, "B": 5, "C": 9}, ("A",))
    assert places(tied) == {"A": 1, "B": 2, "C": 3}
    assert places(game(1, {"A": 30, "B": 10, "C": 10}, ("A",))) == {"A": 1, "B": 2, "C": 2}


def test_the_longest_winning_streak_counts_wins_in_a_row_across_games_and_evenings() -> None:
    """Won, won, lost, then won three times over two evenings: a streak of 3."""
    results = ["Anna", "Anna", "Ben", "Anna", "Anna", "Anna"]
    games = [game(index % 3, {"Anna": 10, "Ben": 4}, (winner,), days_later=7 * (index // 3)) for index, winner in enumerate(results)]
    stats = table_statistics(games, idle=IDLE)
    assert player(stats, "Anna").longest_streak == 3  # type: ignore[attr-defined]
    assert player(stats, "Ben").longest_streak == 1  # type: ignore[attr-defined]
    assert stats.evenings == 2 and [entry.games for entry in stats.timeline] == [{"Skat": 3}, {"Skat": 3}]


def test_rival_is_whom_a_player_beat_most_nemesis_who_beat_them_most_and_buddies_whom_they_sat_with_most() -> None:
    """Anna finished ahead of Ben twice and behind Cleo twice; she sat with Cleo three times."""
    games = [
        game(0, {"Anna": 5, "Ben": 9, "Cleo": 1}, ("Cleo",)),
        game(1, {"Anna": 5, "Ben": 9, "Cleo": 1}, ("Cleo",)),
        game(2, {"Anna": 5, "Cleo": 9}, ("Anna",)),
    ]
    anna = player(table_statistics(games, idle=IDLE), "Anna")
    assert (anna.rival.player, anna.rival.times) == ("Ben", 2)  # type: ignore[attr-defined]
    assert (anna.nemesis.player, anna.nemesis.times) == ("Cleo", 2)  # type: ignore[attr-defined]
    assert [(buddy.player, buddy.times) for buddy in anna.buddies] == [("Cleo", 3)]  # type: ignore[attr-defined]


def test_best_total_is_the_lowest_where_the_fewest_points_win_and_the_highest_elsewhere() -> None:
    """The direction is read from each game's own result: its winner's total against the others'."""
    low = [game(0, {"A": -12, "B": 40}, ("A",), name="Low"), game(1, {"A": 30, "B": 20}, ("B",), name="Low")]
    high = [game(2, {"A": 80, "B": 40}, ("A",), name="High"), game(3, {"A": 30, "B": 50}, ("B",), name="High")]
    a = player(table_statistics([*low, *high], idle=IDLE), "A")
    by_name = {entry.name: (entry.best, entry.worst) for entry in a.per_game}  # type: ignore[attr-defined]
    assert by_name == {"Low": (-24, 60), "High": (160, 60)}


def test_records_name_the_lowest_and_the_highest_total_with_their_game() -> None:
    """Cleo −12 on the first Friday is the lowest total; Ben's 40 the highest."""
    games = [game(0, {"Cleo": -12, "Ben": 40}, ("Cleo",)), game(0, {"Cleo": 3, "Ben": 5}, ("Cleo",), days_later=7)]
    records = {found.which: (found.players, found.total, found.game_id) for found in table_statistics(games, idle=IDLE).records}
    assert records == {"lowest": (("Cleo",), -24, 0), "highest": (("Ben",), 80, 0)}


def test_a_record_two_players_share_in_one_game_names_both_and_a_later_equal_total_does_not_take_it() -> None:
    """Anna and Ben both end on 8 in the first game: both hold the lowest total; Cleo's 8 a week later came second."""
    games = [game(0, {"Anna": 4, "Ben": 4, "Cleo": 20}, ("Anna", "Ben")), game(1, {"Cleo": 4, "Anna": 9}, ("Cleo",), days_later=7)]
    lowest = next(found for found in table_statistics(games, idle=IDLE).records if found.which == "lowest")
    assert (lowest.players, lowest.total, lowest.game_id) == (("Anna", "Ben"), 8, 0)


def test_a_game_still_being_played_counts_for_nobody() -> None:
    """An unfinished game adds no game, no evening, no player."""
    stats = table_statistics([game(0, {"Anna": 1, "Ben": 2}, ("Anna",), complete=False)], idle=IDLE)
    assert (stats.games, stats.evenings, stats.players) == (0, 0, ())


def test_figures_by_number_of_players_count_games_and_wins_at_each_size() -> None:
    """Anna won one of two three-player games and her only four-player game."""
    games = [
        game(0, {"Anna": 1, "Ben": 2, "Cleo": 3}, ("Cleo",)),
        game(1, {"Anna": 3, "Ben": 2, "Cleo": 1}, ("Anna",)),
        game(2, {"Anna": 3, "Ben": 2, "Cleo": 1, "Dora": 0}, ("Anna",)),
    ]
    stats = table_statistics(games, idle=IDLE)
    [skat] = player(stats, "Anna").per_game  # type: ignore[attr-defined]
    assert [(count.players, count.games, count.wins) for count in skat.by_players] == [(3, 2, 1), (4, 1, 1)]
    assert stats.by_game[0].by_players == ((3, 2), (4, 1))


def test_a_game_that_counts_no_figures_of_its_own_still_gives_totals_winners_and_records() -> None:
    """A generic score sheet brings only its result: games, wins, places and records work from it alone."""
    stats = table_statistics([game(0, {"Anna": 20, "Ben": 35}, ("Ben",), name="Wizard")], idle=IDLE)
    assert stats.by_game[0].figures == () and player(stats, "Ben").per_game[0].tally == {}  # type: ignore[attr-defined]
    assert {found.which: found.players for found in stats.records} == {"lowest": ("Anna",), "highest": ("Ben",)}


def test_the_happy_man_figure_saves_what_halving_took_off_and_golden_12s_count_for_the_finisher() -> None:
    """Ben ends with two Golden 12; Cleo holds the figure with 21 points in hand and 1 cross: 26 halved to 13 saves 13 points."""
    raw = {
        "game": "auruxxx",
        "players": ["Anna", "Ben", "Cleo"],
        "rounds": [{"finisher": "Ben", "golden12": 2, "happy_man": "Cleo", "passes": {"Cleo": 1}, "hands": {"Cleo": {"points": 21}}}],
    }
    counted = auruxxx_tally(record.parse(raw))  # type: ignore[arg-type]
    assert counted.players["Ben"] == {"rounds_played": 1, "rounds_ended": 1, "golden12": 2}
    assert counted.players["Cleo"] == {"rounds_played": 1, "passes": 1, "happy_man_rounds": 1, "happy_man_saved": 26}


def test_a_pot_is_taken_by_the_next_days_winner_and_a_claus_win_gives_its_cards_away() -> None:
    """Day 1 nobody wins; day 2 A wins with Santa and gives days 1 and 2 to C: A's Claus win and gift, C's gift and pot."""
    raw = {
        "game": "12days",
        "players": ["A", "B", "C"],
        "days": [{"played": {"A": 4, "B": 4, "C": 4}}, {"played": {"A": "santa", "B": 2, "C": 7}, "gift_to": "C"}],
    }
    counted = twelve_days_tally(record.parse(raw))  # type: ignore[arg-type]
    assert counted.players["A"] == {"days_won": 1, "claus_wins": 1, "gifts_given": 1}
    assert counted.players["C"] == {"gifts_received": 1, "pots_taken": 1}


def test_a_stored_game_reads_the_registry_result_and_counts_its_figures_only_once_finished() -> None:
    """A game of three rounds is finished and tallied; the same game after one round counts nothing of its own yet."""
    rounds: list[JSON] = [{"finisher": "Ben", "golden12": 1, "happy_man": None, "hands": {"Anna": {"points": 7}}}] * 3
    rules = find_game("auruxxx")
    whole = stored_game(
        rules,
        record.parse({"game": "auruxxx", "players": ["Anna", "Ben"], "rounds": rounds}),
        game_id=1,
        started=FRIDAY,
        last_change=FRIDAY,
    )
    assert (whole.complete, whole.winners, whole.totals) == (True, ("Ben",), {"Anna": 42, "Ben": -30})
    assert whole.tally.players["Ben"]["rounds_ended"] == 3
    begun = stored_game(
        rules,
        record.parse({"game": "auruxxx", "players": ["Anna", "Ben"], "rounds": rounds[:1]}),
        game_id=2,
        started=FRIDAY,
        last_change=FRIDAY,
    )
    assert not begun.complete and begun.tally.players == {}


def test_the_history_has_one_row_per_player_per_finished_game_numbered_by_evening() -> None:
    """Two finished games on two evenings and one left unfinished: four rows, evenings 1 and 2, names as merged."""
    games = [
        game(0, {"Anna": 1, "Ben": 2}, ("Anna",)),
        game(1, {"Anna": 1, "Ben": 2}, ("Anna",), complete=False),
        game(0, {"Anni": 5, "Ben": 2}, ("Anni",), days_later=7),
    ]
    rows = history_rows(games, changes=[NameChange("merge", "Anni", "Anna")], idle=IDLE)
    assert [(row.number, row.evening, row.player, row.seated_as, row.place, row.won) for row in rows] == [
        (1, 1, "Anna", "Anna", 1, True),
        (1, 1, "Ben", "Ben", 2, False),
        (2, 2, "Anna", "Anni", 1, True),
        (2, 2, "Ben", "Ben", 2, False),
    ]
