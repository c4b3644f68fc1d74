"""A table's statistics: every finished game it played, added up per game, per player and per evening.

A player is a name at a table: names the record format counts as the same (``"anna"``, ``"Ａnna"``,
``"Anna  Lena"`` for ``"Anna Lena"``) are one player, and a table may merge two names that are
not ("Anni" is Anna, or Ben sat down as "Benny" one night) and undo the merge. Merges and
their undoing are a history of changes, folded here; the newest word on a name counts.

What a game counts besides totals and winners (its ``Figure`` values, counted by its ``tally``)
comes from the registry; this module adds them up without knowing which game it is. Only a
finished game (its result ``complete``) counts. A game's direction (fewest or most points win)
is read from its own result: its winners' total against the others'.

Pure: games come in as ``StoredGame`` values, made by ``stored_game`` from a typed game and
its rules; times are aware datetimes; nothing here knows where the games are stored.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from fractions import Fraction
from typing import Any, Literal

from rules.evening import Span, evenings
from rules.games import NO_TALLY, Figure, GameRules, Tally
from rules.points import HalfPoints, from_json_number
from rules.problems import N_, Illegal, problem
from rules.record import same_name_as, same_name_keys

BUDDIES = 3
"""How many players the page names as those a player sat with most."""


@dataclass(frozen=True, kw_only=True)
class StoredGame:
    """One game of the table as the statistics read it: its result, its own figures, and when it was played."""

    game_id: int
    name: str
    """The game's name as its result names it ("12 Days – 8 Nights"): the statistics add up each name apart."""
    started: datetime
    last_change: datetime
    players: tuple[str, ...]
    totals: Mapping[str, HalfPoints]
    winners: tuple[str, ...]
    complete: bool
    figures: tuple[Figure, ...] = ()
    tally: Tally = NO_TALLY
    """Counted for a finished game only."""


def stored_game(rules: GameRules[Any, Any], game: object, *, game_id: int, started: datetime, last_change: datetime) -> StoredGame:
    """Return a typed game as the statistics read it: the registry's ``result`` and ``name``, and the game's own ``tally``."""
    result = rules.result(game)
    totals = result["totals"]
    winners = result["winners"]
    assert isinstance(totals, dict) and isinstance(winners, list), "every game's result has totals and winners"
    complete = result.get("complete") is True
    return StoredGame(
        game_id=game_id,
        name=rules.name(game),
        started=started,
        last_change=last_change,
        players=tuple(str(player) for player in totals),
        totals={str(player): from_json_number(points) for player, points in totals.items() if isinstance(points, int | float)},
        winners=tuple(str(winner) for winner in winners),
        complete=complete,
        figures=rules.figures,
        tally=rules.tally(game) if complete else NO_TALLY,
    )


# --- Who is who -------------------------------------------------------------------------------


@dataclass(frozen=True)
class NameChange:
    """A table's word on two names: ``alias`` is ``player`` from now on (merge), or no longer (unmerge)."""

    kind: Literal["merge", "unmerge"]
    alias: str
    player: str


def merges_in_force(changes: Sequence[NameChange]) -> list[NameChange]:
    """Return the merges that still count, oldest first: every merge its alias was not unmerged from since.

    >>> [c.alias for c in merges_in_force([NameChange("merge", "Anni", "Anna"), NameChange("merge", "Benny", "Ben"),
    ...                                    NameChange("unmerge", "anni", "Anna")])]
    ['Benny']
    """
    merges: list[NameChange] = []
    for change in changes:
        merges = [merge for merge in merges if same_name_as(change.alias, [merge.alias]) is None]
        if change.kind == "merge":
            merges.append(change)
    return merges


class People:
    """The players of a table: each name seen at it, grouped by the record's name rules and by the table's merges."""

    def __init__(self, games: Sequence[StoredGame], merges: Sequence[NameChange]) -> None:
        self._parent: dict[str, str] = {}
        self._first: dict[str, str] = {}
        """The first way each group's name was written, as it first sat down."""
        self._by_key: dict[str, str] = {}
        self.names: list[str] = []
        for game in games:
            for name in game.players:
                self._add(name)
        for merge in merges:
            alias, player = self._find_name(merge.alias), self._find_name(merge.player)
            if alias is not None and player is not None:
                self._union(alias, player)

    def _add(self, name: str) -> None:
        if name in self._parent:
            return
        self._parent[name] = name
        self._first[name] = name
        self.names.append(name)
        for key in same_name_keys(name):
            known = self._by_key.setdefault(key, name)
            if known != name:
                self._union(name, known)

    def _root(self, name: str) -> str:
        while self._parent[name] != name:
            self._parent[name] = self._parent[self._parent[name]]
            name = self._parent[name]
        return name

    def _union(self, alias: str, player: str) -> None:
        """Make ``alias``'s group part of ``player``'s, which keeps its name."""
        one, other = self._root(alias), self._root(player)
        if one != other:
            self._parent[one] = other

    def _find_name(self, name: str) -> str | None:
        """Return the name seen at the table that counts as the same as ``name``, or None."""
        return name if name in self._parent else same_name_as(name, self.names)

    def of(self, name: str) -> str:
        """Return the player a name at the table is: the way the group's first name was written."""
        return self._first[self._root(name)]

    def known(self, name: str) -> str | None:
        """Return the player a typed name is, or None for a name nobody at the table has."""
        found = self._find_name(name)
        return self.of(found) if found is not None else None

    def names_of(self, player: str) -> tuple[str, ...]:
        """Return every way a player's name was written at the table, in the order they first sat down so."""
        return tuple(name for name in self.names if self.of(name) == player)


def name_change_problems(games: Sequence[StoredGame], changes: Sequence[NameChange], change: NameChange) -> list[str]:
    """Return why a table may not make ``change`` to its names (English templates, marked for translation); empty if it may.

    Both names must be names at the table; a merge joins two players that never sat at one game
    together (then they are two people), and an unmerge needs a merge to take back.
    """
    before = People(games, merges_in_force(changes))
    alias, player = before.known(change.alias), before.known(change.player)
    if alias is None or player is None:
        return [N_("Nobody of that name played at this table. Tap one of the names.")]
    if change.kind == "unmerge":
        if not any(same_name_as(change.alias, [merge.alias]) for merge in merges_in_force(changes)):
            return [N_("That name is not merged with another one.")]
        return []
    if alias == player:
        return [N_("These names already count as one player.")]
    for game in games:
        if {alias, player} <= {before.of(name) for name in game.players}:
            return [N_("These two played in the same game, so they are two people.")]
    return []


def checked_change(games: Sequence[StoredGame], changes: Sequence[NameChange], change: NameChange) -> NameChange:
    """Return ``change`` with its names as the table wrote them ("anna" typed is Anna), if the table may make it; else raise Illegal.

    >>> g = StoredGame(game_id=1, name="G", started=datetime(2026, 1, 1), last_change=datetime(2026, 1, 1),
    ...     players=("Anna",), totals={"Anna": 0}, winners=("Anna",), complete=True)
    >>> h = StoredGame(game_id=2, name="G", started=datetime(2026, 1, 1), last_change=datetime(2026, 1, 1),
    ...     players=("Anni",), totals={"Anni": 0}, winners=("Anni",), complete=True)
    >>> checked_change([g, h], [], NameChange("merge", "ANNI", "anna"))
    NameChange(kind='merge', alias='Anni', player='Anna')
    """
    refusals = name_change_problems(games, changes, change)
    if refusals:
        raise Illegal([problem("name", refusal) for refusal in refusals])
    people = People(games, merges_in_force(changes))
    alias = same_name_as(change.alias, people.names) or change.alias
    return NameChange(change.kind, alias, people.known(change.player) or change.player)


# --- The figures ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Opponent:
    """Another player, and how often (beaten, lost to, sat with)."""

    player: str
    times: int


@dataclass(frozen=True)
class PlayerCount:
    """A player's games and wins at one number of players."""

    players: int
    games: int
    wins: int


@dataclass(frozen=True, kw_only=True)
class PlayerGame:
    """One player in one game (by its name): games, wins, places, best and worst total, by number of players, its figures."""

    name: str
    games: int
    wins: int
    average_place: Fraction
    best: HalfPoints
    worst: HalfPoints
    by_players: tuple[PlayerCount, ...]
    """Fewest players first."""
    tally: Mapping[str, int]
    """The game's own figures, summed over the player's games."""


@dataclass(frozen=True, kw_only=True)
class PlayerStatistics:
    """Everything the page says of one player at the table."""

    player: str
    names: tuple[str, ...]
    """Every way the name was written at the table (merged names included)."""
    games: int
    wins: int
    average_place: Fraction
    longest_streak: int
    """The most games won one after another."""
    rival: Opponent | None
    """Whom the player finished ahead of most often."""
    nemesis: Opponent | None
    """Who finished ahead of the player most often."""
    buddies: tuple[Opponent, ...]
    """Those the player sat at most games with (all equally often)."""
    per_game: tuple[PlayerGame, ...]

    @property
    def win_rate(self) -> Fraction:
        """Return the share of the player's games won."""
        return Fraction(self.wins, self.games)


@dataclass(frozen=True, kw_only=True)
class GameTotals:
    """One game (by its name) at the table: how often it was played, at how many players, and the table's own figures of it."""

    name: str
    games: int
    evenings: int
    by_players: tuple[tuple[int, int], ...]
    """(number of players, games), fewest players first."""
    fewest_win: bool
    figures: tuple[Figure, ...]
    table_tally: Mapping[str, int]


@dataclass(frozen=True, kw_only=True)
class TableRecord:
    """A record of the table: the lowest or highest total ever in one game, who had it, and in which game.

    The game that first reached the total holds the record; everyone who had that total in it shares it.
    """

    name: str
    which: Literal["lowest", "highest"]
    players: tuple[str, ...]
    total: HalfPoints
    game_id: int
    started: datetime


@dataclass(frozen=True)
class EveningCount:
    """One evening with finished games: when it began and how many of each game it finished."""

    started: datetime
    games: Mapping[str, int]


@dataclass(frozen=True, kw_only=True)
class TableStatistics:
    """Everything the statistics page shows of a table."""

    evenings: int
    """Evenings with at least one finished game."""
    games: int
    """Finished games."""
    by_game: tuple[GameTotals, ...]
    players: tuple[PlayerStatistics, ...]
    """Most wins first, then most games."""
    records: tuple[TableRecord, ...]
    timeline: tuple[EveningCount, ...]
    names: tuple[str, ...]
    """Every player seen at the table (finished games or not), as their name was first written: what a merge may name."""
    merges: tuple[NameChange, ...]
    """The merges in force, oldest first."""


def fewest_win(game: StoredGame) -> bool | None:
    """Return whether the fewest points won a finished game, read from its result; None when every total is the same.

    >>> game = lambda totals: StoredGame(game_id=1, name="G", started=datetime(2026, 1, 1), last_change=datetime(2026, 1, 1),
    ...     players=tuple(totals), totals=totals, winners=("A",), complete=True)
    >>> fewest_win(game({"A": 2, "B": 8})), fewest_win(game({"A": 8, "B": 2})), fewest_win(game({"A": 2, "B": 2}))
    (True, False, None)
    """
    best = game.totals[game.winners[0]]
    if any(total > best for total in game.totals.values()):
        return True
    if any(total < best for total in game.totals.values()):
        return False
    return None


def places(game: StoredGame) -> dict[str, int]:
    """Return each player's place in a finished game: every winner 1st, anyone else behind every winner and every better total.

    >>> game = StoredGame(game_id=1, name="G", started=datetime(2026, 1, 1), last_change=datetime(2026, 1, 1),
    ...     players=("A", "B", "C", "D"), totals={"A": 4, "B": 4, "C": 9, "D": 9}, winners=("A",), complete=True)
    >>> places(game)
    {'A': 1, 'B': 2, 'C': 3, 'D': 3}
    """
    sign = -1 if fewest_win(game) is False else 1
    winners = set(game.winners)
    found = {}
    for player in game.players:
        ahead = sum(1 for other in game.players if other in winners or sign * game.totals[other] < sign * game.totals[player])
        found[player] = 1 if player in winners else 1 + ahead
    return found


def longest_run(won: Iterable[bool]) -> int:
    """Return the most wins one after another.

    >>> longest_run([True, True, False, True, True, True, False])
    3
    """
    longest = current = 0
    for win in won:
        current = current + 1 if win else 0
        longest = max(longest, current)
    return longest


def _most(counter: Counter[str]) -> Opponent | None:
    """Return who has the highest count (the first met among equals), or None when nobody has any."""
    if not counter or max(counter.values()) == 0:
        return None
    player, times = max(counter.items(), key=lambda item: item[1])
    return Opponent(player, times)


def _summed(tallies: Iterable[Mapping[str, int]]) -> dict[str, int]:
    total: Counter[str] = Counter()
    for tally in tallies:
        total.update(tally)
    return dict(total)


def table_statistics(games: Sequence[StoredGame], *, changes: Sequence[NameChange] = (), idle: timedelta) -> TableStatistics:
    """Add up a table's games (oldest first, finished or not) with its changes to names; an evening ends after ``idle``.

    >>> at = lambda day: datetime(2026, 3, day, 19)
    >>> one = StoredGame(game_id=1, name="G", started=at(6), last_change=at(6), players=("Anna", "Ben"),
    ...     totals={"Anna": 10, "Ben": 4}, winners=("Anna",), complete=True)
    >>> two = StoredGame(game_id=2, name="G", started=at(13), last_change=at(13), players=("anna", "Benny"),
    ...     totals={"anna": 2, "Benny": 8}, winners=("Benny",), complete=True)
    >>> stats = table_statistics([one, two], changes=[NameChange("merge", "Benny", "Ben")], idle=timedelta(hours=6))
    >>> stats.evenings, [(p.player, p.games, p.wins, p.longest_streak) for p in stats.players]
    (2, [('Anna', 2, 1, 1), ('Ben', 2, 1, 1)])
    """
    merges = merges_in_force(changes)
    people = People(games, merges)
    cuts = evenings([Span(game.started, game.last_change) for game in games], idle=idle)
    evening_of = {index: number for number, cut in enumerate(cuts) for index in cut}
    finished = [(index, game) for index, game in enumerate(games) if game.complete and game.winners]

    names = list(dict.fromkeys(game.name for _, game in finished))
    direction: dict[str, bool] = {}
    for _, game in finished:
        said = fewest_win(game)
        if said is not None:
            direction.setdefault(game.name, said)

    by_game = []
    for name in names:
        these = [(index, game) for index, game in finished if game.name == name]
        by_game.append(
            GameTotals(
                name=name,
                games=len(these),
                evenings=len({evening_of[index] for index, _ in these}),
                by_players=tuple(sorted(Counter(len(game.players) for _, game in these).items())),
                fewest_win=direction.get(name, False),
                figures=these[0][1].figures,
                table_tally=_summed(game.tally.table for _, game in these),
            )
        )

    records = []
    for name in names:
        rows = [(game.totals[player], game, people.of(player)) for _, game in finished if game.name == name for player in game.players]
        extremes: tuple[tuple[Literal["lowest", "highest"], HalfPoints], ...] = (
            ("lowest", min(total for total, _, _ in rows)),
            ("highest", max(total for total, _, _ in rows)),
        )
        for which, best in extremes:
            total, game, _ = next(row for row in rows if row[0] == best)
            holders = tuple(dict.fromkeys(player for their, held_in, player in rows if held_in is game and their == best))
            records.append(TableRecord(name=name, which=which, players=holders, total=total, game_id=game.game_id, started=game.started))

    sat: dict[str, list[tuple[StoredGame, dict[str, int]]]] = {}
    for _, game in finished:
        place = {people.of(player): rank for player, rank in places(game).items()}
        for player in game.players:
            sat.setdefault(people.of(player), []).append((game, place))
    players = [_player(player, played, people, direction) for player, played in sat.items()]
    players.sort(key=lambda shown: (-shown.wins, -shown.games))

    timeline = []
    for number, cut in enumerate(cuts):
        counted = Counter(game.name for index, game in finished if evening_of[index] == number)
        if counted:
            timeline.append(EveningCount(games[cut.start].started, dict(counted)))

    return TableStatistics(
        evenings=len(timeline),
        games=len(finished),
        by_game=tuple(by_game),
        players=tuple(players),
        records=tuple(records),
        timeline=tuple(timeline),
        names=tuple(dict.fromkeys(people.of(name) for name in people.names)),
        merges=tuple(merges),
    )


def _player(
    player: str, played: list[tuple[StoredGame, dict[str, int]]], people: People, direction: Mapping[str, bool]
) -> PlayerStatistics:
    """Return one player's figures from the finished games they sat at (with everyone's place in each), oldest first."""
    beaten: Counter[str] = Counter()
    lost_to: Counter[str] = Counter()
    together: Counter[str] = Counter()
    own: dict[int, str] = {}
    for game, place in played:
        for name in game.players:
            other = people.of(name)
            if other == player:
                own[game.game_id] = name
                continue
            together[other] += 1
            beaten[other] += place[player] < place[other]
            lost_to[other] += place[other] < place[player]
    top = max(together.values(), default=0)
    per_game = []
    for name in dict.fromkeys(game.name for game, _ in played):
        these = [(game, place) for game, place in played if game.name == name]
        seat = [own[game.game_id] for game, _ in these]
        totals = [game.totals[seated] for (game, _), seated in zip(these, seat, strict=True)]
        fewest = direction.get(name, False)
        sizes = Counter(len(game.players) for game, _ in these)
        wins = Counter(len(game.players) for (game, _), seated in zip(these, seat, strict=True) if seated in game.winners)
        per_game.append(
            PlayerGame(
                name=name,
                games=len(these),
                wins=sum(wins.values()),
                average_place=Fraction(sum(place[player] for _, place in these), len(these)),
                best=min(totals) if fewest else max(totals),
                worst=max(totals) if fewest else min(totals),
                by_players=tuple(PlayerCount(size, count, wins[size]) for size, count in sorted(sizes.items())),
                tally=_summed(game.tally.players.get(seated, {}) for (game, _), seated in zip(these, seat, strict=True)),
            )
        )
    won = [own[game.game_id] in game.winners for game, _ in played]
    return PlayerStatistics(
        player=player,
        names=people.names_of(player),
        games=len(played),
        wins=sum(won),
        average_place=Fraction(sum(place[player] for _, place in played), len(played)),
        longest_streak=longest_run(won),
        rival=_most(beaten),
        nemesis=_most(lost_to),
        buddies=tuple(Opponent(other, times) for other, times in together.items() if times == top)[:BUDDIES],
        per_game=tuple(per_game),
    )


@dataclass(frozen=True, kw_only=True)
class HistoryRow:
    """One player in one finished game, as the table's history exports it."""

    number: int
    """The game's number among the table's finished games, from 1."""
    game: StoredGame
    evening: int
    """The evening's number, from 1."""
    player: str
    """Who the table counts the player as."""
    seated_as: str
    """The name as written at that game."""
    total: HalfPoints
    place: int
    won: bool


def history_rows(games: Sequence[StoredGame], *, changes: Sequence[NameChange] = (), idle: timedelta) -> list[HistoryRow]:
    """Return one row per player per finished game, oldest game first and in seat order: the table's history for a spreadsheet."""
    people = People(games, merges_in_force(changes))
    cuts = evenings([Span(game.started, game.last_change) for game in games], idle=idle)
    evening_of = {index: number for number, cut in enumerate(cuts) for index in cut}
    counted = [number for number in range(len(cuts)) if any(games[i].complete and games[i].winners for i in cuts[number])]
    rows = []
    finished = [(index, game) for index, game in enumerate(games) if game.complete and game.winners]
    for number, (index, game) in enumerate(finished, start=1):
        place = places(game)
        rows += [
            HistoryRow(
                number=number,
                game=game,
                evening=counted.index(evening_of[index]) + 1,
                player=people.of(name),
                seated_as=name,
                total=game.totals[name],
                place=place[name],
                won=name in game.winners,
            )
            for name in game.players
        ]
    return rows
