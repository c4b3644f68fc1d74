"""The evening at a table: which games belong to it, and the standings across them (rules.evening)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from hypothesis import given
from hypothesis import strategies as st

from rules.evening import Played, Span, evening_of, evenings, placings, players_of, standings
from rules.points import HalfPoints, whole

SIX_HOURS = timedelta(hours=6)


def game(totals: dict[str, int], *, fewest_win: bool, finished: bool = True) -> Played:
    """Return a game with whole-point totals, its winners worked out as the rules do (ties share)."""
    points = {player: whole(total) for player, total in totals.items()}
    best = (min if fewest_win else max)(points.values())
    winners = tuple(player for player, total in points.items() if total == best) if finished else ()
    return Played(players=tuple(totals), totals=points, winners=winners, fewest_win=fewest_win)


def at(hour: float) -> datetime:
    """Return a moment of the evening of 5 December 2026, hours counted from midnight (26 is 2 a.m. next day)."""
    return datetime(2026, 12, 5, tzinfo=UTC) + timedelta(hours=hour)


# --- Worked examples ---------------------------------------------------------------------------


def test_two_auruxxx_games_and_a_twelve_days_game_make_the_evenings_standings() -> None:
    """Anna wins the first AURUXXX game, Ben the second, and Anna 12 Days: Anna leads with two wins.

    AURUXXX: lowest total wins. Game 1: Anna 28, Ben 73, Cleo 80 (Anna 1st, Ben 2nd, Cleo 3rd).
    Game 2: Anna 60, Ben 12, Cleo 60 (Ben 1st; Anna and Cleo share 2nd).
    12 Days: most points win. Anna 41, Ben 30, Cleo 35 (Anna 1st, Cleo 2nd, Ben 3rd).
    Anna: two wins, one 2nd. Ben: one win, one 2nd, one 3rd. Cleo: no win, two 2nd, one 3rd.
    """
    evening = [
        game({"Anna": 28, "Ben": 73, "Cleo": 80}, fewest_win=True),
        game({"Anna": 60, "Ben": 12, "Cleo": 60}, fewest_win=True),
        game({"Anna": 41, "Ben": 30, "Cleo": 35}, fewest_win=False),
    ]
    table = [(s.player, s.rank, s.wins, s.played, s.places) for s in standings(evening)]
    assert table == [
        ("Anna", 1, 2, 3, (2, 1, 0)),
        ("Ben", 2, 1, 3, (1, 1, 1)),
        ("Cleo", 3, 0, 3, (0, 2, 1)),
    ]


def test_equal_totals_share_a_place_and_the_next_place_is_skipped() -> None:
    """Two players level on the best total both win; the player after them is third, not second."""
    assert placings(game({"Anna": 20, "Ben": 20, "Cleo": 30}, fewest_win=True)) == {"Anna": 1, "Ben": 1, "Cleo": 3}
    assert placings(game({"Anna": 9, "Ben": 40, "Cleo": 40}, fewest_win=False)) == {"Anna": 3, "Ben": 1, "Cleo": 1}


def test_equal_records_share_a_rank_and_keep_the_order_they_sat_down_in() -> None:
    """Anna and Ben each won once and came second once: both are first, listed in seat order; Cleo is third."""
    evening = [
        game({"Anna": 10, "Ben": 20, "Cleo": 30}, fewest_win=True),
        game({"Ben": 10, "Anna": 20, "Cleo": 30}, fewest_win=True),
    ]
    assert [(s.player, s.rank) for s in standings(evening)] == [("Anna", 1), ("Ben", 1), ("Cleo", 3)]


def test_second_places_break_a_tie_in_wins() -> None:
    """Everyone won once; Ben came second twice, Cleo once, Anna never: Ben, Cleo, Anna."""
    evening = [
        game({"Anna": 10, "Ben": 20, "Cleo": 30}, fewest_win=True),
        game({"Anna": 30, "Ben": 10, "Cleo": 20}, fewest_win=True),
        game({"Anna": 30, "Ben": 20, "Cleo": 10}, fewest_win=True),
    ]
    assert [(s.player, s.wins, s.rank) for s in standings(evening)] == [("Ben", 1, 1), ("Cleo", 1, 2), ("Anna", 1, 3)]


def test_a_game_still_running_counts_for_nobody_but_lists_its_players() -> None:
    """Dora sat down only at the running game: she is listed with no games, below everyone who played."""
    evening = [
        game({"Anna": 10, "Ben": 20}, fewest_win=True),
        game({"Anna": 10, "Ben": 20, "Dora": 0}, fewest_win=True, finished=False),
    ]
    assert [(s.player, s.played, s.wins, s.rank) for s in standings(evening)] == [("Anna", 1, 1, 1), ("Ben", 1, 0, 2), ("Dora", 0, 0, 3)]


def test_a_name_is_the_same_player_whatever_its_case() -> None:
    """ "anna" in the second game is Anna of the first: one line, two wins, her first spelling."""
    evening = [game({"Anna": 10, "Ben": 20}, fewest_win=True), game({"anna": 10, "Ben": 20}, fewest_win=True)]
    assert [(s.player, s.wins) for s in standings(evening)] == [("Anna", 2), ("Ben", 0)]
    assert players_of(evening) == ("Anna", "Ben")


def test_half_points_decide_places() -> None:
    """8.5 beats 9 where the fewest points win."""
    played = Played(players=("Anna", "Ben"), totals={"Anna": HalfPoints(17), "Ben": whole(9)}, winners=("Anna",), fewest_win=True)
    assert placings(played) == {"Anna": 1, "Ben": 2}


def test_an_evening_ends_when_the_table_is_idle_for_more_than_six_hours() -> None:
    """19:00 to 23:30 is one evening with three games; the game the next afternoon begins the next one."""
    spans = [Span(at(19), at(19.8)), Span(at(19.9), at(20.9)), Span(at(21), at(23.5)), Span(at(24 + 15), at(24 + 16))]
    assert evenings(spans, idle=SIX_HOURS) == [range(3), range(3, 4)]
    assert evening_of(spans, 1, idle=SIX_HOURS) == range(3)
    assert evening_of(spans, 3, idle=SIX_HOURS) == range(3, 4)


def test_a_long_dinner_break_does_not_end_the_evening() -> None:
    """A game started five hours after the last tap is still the same evening; a minute past six hours it is not."""
    spans = [Span(at(13), at(14)), Span(at(19), at(20))]
    assert evenings(spans, idle=SIX_HOURS) == [range(2)]
    later = [Span(at(13), at(14)), Span(at(20) + timedelta(minutes=1), at(21))]
    assert evenings(later, idle=SIX_HOURS) == [range(1), range(1, 2)]


def test_a_game_played_on_keeps_the_table_busy() -> None:
    """The first game got a correction at 23:00, after the second began: the third game at 4:00 is the same evening."""
    spans = [Span(at(19), at(23)), Span(at(20), at(21)), Span(at(28), at(29))]
    assert evenings(spans, idle=SIX_HOURS) == [range(3)]


# --- Invariants ----------------------------------------------------------------------------------

NAMES = ("Anna", "Ben", "Cleo", "Dora", "Emil", "Fritz")


@st.composite
def played_games(draw: st.DrawFn) -> Played:
    """Return a game of 2–6 of the six names with any totals (halves too), mostly finished, either way of winning."""
    seated = draw(st.lists(st.sampled_from(NAMES), min_size=2, max_size=6, unique=True))
    totals = {player: HalfPoints(draw(st.integers(-200, 400))) for player in seated}
    fewest_win = draw(st.booleans())
    best = (min if fewest_win else max)(totals.values())
    finished = draw(st.integers(0, 4)) > 0
    winners = tuple(player for player in seated if totals[player] == best) if finished else ()
    return Played(players=tuple(seated), totals=totals, winners=winners, fewest_win=fewest_win)


evenings_of_games = st.lists(played_games(), min_size=1, max_size=8)


def by_player(games: list[Played]) -> dict[str, tuple[int, int, int, tuple[int, ...]]]:
    """Return every player's rank, wins, games and places: the standings without their listing order."""
    return {s.player: (s.rank, s.wins, s.played, s.places) for s in standings(games)}


@given(evenings_of_games, st.randoms(use_true_random=False))
def test_the_order_of_the_games_does_not_change_anyones_rank(games: list[Played], random: object) -> None:
    """Playing the same games in another order gives every player the same rank and record (ties included)."""
    shuffled = list(games)
    random.shuffle(shuffled)  # type: ignore[attr-defined]
    assert by_player(shuffled) == by_player(games)


@given(evenings_of_games)
def test_wins_never_exceed_games_and_every_finished_game_has_a_winner(games: list[Played]) -> None:
    """A player's wins are at most their finished games; there are at least as many wins as finished games."""
    table = standings(games)
    finished = [g for g in games if g.finished]
    for s in table:
        assert 0 <= s.wins <= s.played == sum(s.places)
        assert s.played == sum(1 for g in finished if s.player in g.players)
    assert sum(s.wins for s in table) >= len(finished)


@given(evenings_of_games)
def test_ranks_follow_the_listing_and_count_who_is_better(games: list[Played]) -> None:
    """Ranks never go down the list, start at 1, and a rank is one more than the players with a better record."""
    table = standings(games)
    ranks = [s.rank for s in table]
    assert ranks == sorted(ranks) and ranks[0] == 1
    for s in table:
        better = [other for other in table if tuple(-c for c in other.places) < tuple(-c for c in s.places)]
        assert s.rank == 1 + len(better)
