"""The statistics page against a recount: random tables of finished games, every figure worked out again here, simply.

Hypothesis builds a table's history from legal records of both games (every 12 Days variant),
over several evenings, with names written differently from game to game ("anna", "Ｃleo",
"Dora  Lena"), a player who sat down under a new name ("Benny" for Ben) and a nickname
("Anni"), each merged into the player or not, and sometimes merged and the merge undone. The
games are stored as an imported record each, with their times; the page is asked for its
figures, and this module counts them again from the records and their scores, in its own
plain loops, without the statistics code.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from fractions import Fraction
from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from models import CardTable, Event, Game, Player, db
from rules import record
from rules.auruxxx import score as auruxxx
from rules.games import rules_of
from rules.history import IMPORT
from rules.twelve_days import score as twelve_days
from tests.helpers import EN, PhoneClient
from tests.rules.auruxxx_strategies import auruxxx_records
from tests.rules.twelve_days_strategies import complete_twelve_days_records, twelve_days_records
from tests.web.evenings import contexts

SLOTS: tuple[tuple[str, ...], ...] = (
    ("Anna", "anna", "Anni"),
    ("Ben", "BEN", "Benny"),
    ("Cleo", "\uff23leo"),
    ("Dora Lena", "Dora  Lena"),
    ("Emil", "Em\u200bil"),
    ("Fritz",),
    ("Gabi",),
    ("Hans",),
    ("Ida",),
)
"""The people at the table, each with the ways their name is written; the first is how they sat down first."""
OTHER_NAMES = {"Anni": "Anna", "Benny": "Ben"}
"""Names the rules do not count as the same (a nickname, a new name), and the player the table may merge them into."""
IDLE = timedelta(hours=6)
"""How long a table may pause within one evening: the test app's setting."""


@dataclass(frozen=True)
class Stored:
    """One game of the drawn table: its record (names as written at it) and when it began."""

    raw: dict[str, Any]
    started: datetime


def renamed(raw: dict[str, Any], names: dict[str, str]) -> dict[str, Any]:
    """Return a record with every player renamed wherever the record names one."""
    out = {**raw, "players": [names[player] for player in raw["players"]]}
    if raw["game"] == "auruxxx":
        out["rounds"] = [
            {
                **round_,
                "finisher": names[round_["finisher"]],
                "happy_man": names[round_["happy_man"]] if round_["happy_man"] is not None else None,
                **({"passes": {names[p]: n for p, n in round_["passes"].items()}} if "passes" in round_ else {}),
                **({"hands": {names[p]: hand for p, hand in round_["hands"].items()}} if "hands" in round_ else {}),
            }
            for round_ in raw.get("rounds", [])
        ]
    else:
        days = []
        for day in raw.get("days", []):
            if "taken_by" in day:
                days.append({"taken_by": names[day["taken_by"]] if day["taken_by"] is not None else None})
            else:
                played: dict[str, Any] = {"played": {names[p]: card for p, card in day["played"].items()}}
                if day.get("gift_to") is not None:
                    played["gift_to"] = names[day["gift_to"]]
                days.append(played)
        out["days"] = days
        if "hands" in raw:
            out["hands"] = {names[p]: cards for p, cards in raw["hands"].items()}
    return out


@st.composite
def one_game(draw: st.DrawFn) -> dict[str, Any]:
    """Return a legal record, mostly finished, of either game, its players renamed to people of the table."""
    finished = draw(st.integers(0, 5)) > 0
    if draw(st.booleans()):
        raw = draw(auruxxx_records(min_rounds=auruxxx.ROUNDS if finished else 0))
    else:
        raw = draw(complete_twelve_days_records() if finished else twelve_days_records())
    people = draw(st.permutations(range(len(SLOTS))))[: len(raw["players"])]
    written = [draw(st.sampled_from(SLOTS[person])) for person in people]
    return renamed(raw, dict(zip(raw["players"], written, strict=True)))


@st.composite
def tables(draw: st.DrawFn) -> tuple[list[Stored], list[tuple[str, str, str]]]:
    """Return a table's games over one to three evenings a week apart, and what the table did about names (merge, unmerge)."""
    games: list[Stored] = []
    first = datetime(2026, 3, 6, 19, 0, tzinfo=UTC)
    for evening in range(draw(st.integers(1, 3))):
        for number in range(draw(st.integers(1, 3))):
            games.append(Stored(draw(one_game()), first + timedelta(days=7 * evening, minutes=40 * number)))
    changes: list[tuple[str, str, str]] = []
    for alias, player in OTHER_NAMES.items():
        steps = draw(st.sampled_from([(), ("merge",), ("merge", "unmerge"), ("merge", "unmerge", "merge")]))
        changes += [(step, alias, player) for step in steps]
    return games, changes


def store(games: list[Stored]) -> tuple[str, str]:
    """Store the games at one new table, each following the one before, as imports made at their times; return the last's tokens."""
    table = CardTable()
    previous: Game | None = None
    for stored in games:
        parsed = record.parse(stored.raw)
        game = Game.from_setup(record.setup(parsed), previous_id=previous.id if previous else None, created_at=stored.started)
        game.card_table = table
        game.players = [Player(seat=seat, name=name) for seat, name in enumerate(stored.raw["players"])]
        db.session.add(game)
        db.session.flush()
        finished, _ = rules_of(parsed).split_open(parsed)
        db.session.add(
            Event(
                game_id=game.id,
                seq=1,
                kind=IMPORT,
                payload={"record": record.serialise(finished)},
                created_at=stored.started + timedelta(minutes=30),
                idempotency_key=f"import-{game.id}",
            )
        )
        previous = game
    db.session.commit()
    assert previous is not None and previous.read_token is not None
    return previous.token, previous.read_token


# --- The recount ---------------------------------------------------------------------------------


def person(name: str, merged: set[str]) -> str:
    """Return who sat down under ``name``: the first way their name is written (a merged name is its player's)."""
    for alias, player in OTHER_NAMES.items():
        if name == alias:
            return player if alias in merged else alias
    for slot in SLOTS:
        if name in slot:
            return slot[0]
    raise AssertionError(name)


def half(value: float | int) -> int:
    """Return a result's number as half-points."""
    return round(value * 2)


@dataclass
class Game_:
    """One stored game as the recount reads it: people, totals in half-points, winners, and the game's own counts."""

    name: str
    kind: str
    players: list[str]
    totals: dict[str, int]
    winners: list[str]
    complete: bool
    started: datetime
    counts: dict[str, Counter[str]]
    table_counts: Counter[str]


def recount_game(stored: Stored, merged: set[str]) -> Game_:
    """Read one record again: its score through the rules' ``score``, its game's own counts in plain loops."""
    parsed = record.parse(stored.raw)
    result: Any = record.scored(parsed)["result"]
    who = {name: person(name, merged) for name in stored.raw["players"]}
    counts: dict[str, Counter[str]] = {who[name]: Counter() for name in stored.raw["players"]}
    table_counts: Counter[str] = Counter()
    if isinstance(parsed, auruxxx.Game):
        scored = auruxxx.score_game(parsed)
        for round_, scores in zip(parsed.rounds, scored.rounds, strict=True):
            counts[who[round_.finisher]]["rounds_ended"] += 1
            counts[who[round_.finisher]]["golden12"] += round_.golden12
            for name in parsed.players:
                counts[who[name]]["rounds_played"] += 1
                counts[who[name]]["passes"] += round_.passes_of(name)
                if round_.happy_man == name:
                    counts[who[name]]["happy_man_rounds"] += 1
                    counts[who[name]]["happy_man_saved"] += 2 * scores[name].sub - scores[name].points
        name = "AURUXXX – Die Goldene Zwölf"
    else:
        assert isinstance(parsed, twelve_days.Game)
        scored_days = twelve_days.score_game(parsed)
        for day, raw_day in zip(scored_days.days, stored.raw.get("days", []), strict=True):
            winner = raw_day.get("taken_by") if day.reveal is None else day.reveal.winner
            if winner is not None:
                counts[who[winner]]["days_won"] += 1
            if day.reveal is not None and day.reveal.claus_win:
                counts[who[winner]]["claus_wins"] += 1
                counts[who[winner]]["gifts_given"] += 1
                counts[who[raw_day["gift_to"]]]["gifts_received"] += 1
            if day.receiver is not None and len(day.days_taken) > 1:
                counts[who[day.receiver]]["pots_taken"] += 1
        for name in parsed.players:
            counts[who[name]]["bonus"] += 2 * scored_days.bonus[name]
        table_counts["lost"] += 2 * scored_days.lost
        label = parsed.variant.label
        name = "12 Days" if parsed.variant is twelve_days.STANDARD else f"12 Days – {label}"
    return Game_(
        name=name,
        kind=stored.raw["game"],
        players=[who[player] for player in stored.raw["players"]],
        totals={who[player]: half(total) for player, total in result["totals"].items()},
        winners=[who[player] for player in result["winners"]],
        complete=result["complete"],
        started=stored.started,
        counts=counts,
        table_counts=table_counts,
    )


def places(game: Game_) -> dict[str, int]:
    """Return each player's place: winners first; anyone else after every winner and every better total."""
    sign = 1 if game.kind == "auruxxx" else -1
    found = {}
    for player in game.players:
        ahead = [other for other in game.players if other in game.winners or sign * game.totals[other] < sign * game.totals[player]]
        found[player] = 1 if player in game.winners else 1 + len(ahead)
    return found


def merged_names(changes: list[tuple[str, str, str]]) -> set[str]:
    """Return the names merged at the end of the table's changes: the last word on each counts."""
    merged: set[str] = set()
    for step, alias, _ in changes:
        (merged.add if step == "merge" else merged.discard)(alias)
    return merged


def most(counter: Counter[str]) -> tuple[int, set[str]]:
    """Return the highest count and everyone who has it (0 and nobody when empty)."""
    top = max(counter.values(), default=0)
    return top, {name for name, count in counter.items() if count == top and top > 0}


def nonzero(figures: Any) -> dict[str, int]:
    """Return the figures that are not 0, as the recount's counters hold them."""
    return {key: value for key, value in figures.items() if value}


def apply(client: FlaskClient, token: str, changes: list[tuple[str, str, str]]) -> None:
    """Merge and unmerge names on the statistics page, as a table does: each must count."""
    for step, alias, player in changes:
        response = client.post(f"/g/{token}/statistics/{step}", data={"alias": alias, "player": player}, headers=EN)
        assert response.status_code == 303, response.get_data(as_text=True)


def page_statistics(app: Flask, client: FlaskClient, token: str) -> Any:
    """Return the figures the statistics page was rendered from."""
    with contexts(app) as seen:
        response = client.get(f"/g/{token}/statistics", headers=EN)
    assert response.status_code == 200, response.get_data(as_text=True)
    [found] = [context["statistics"] for name, context in seen if name == "statistics/show.html"]
    return found


def players_by_name(statistics: Any) -> Iterator[tuple[str, Any]]:
    """Yield each player of the page with the person the recount knows them as."""
    for shown in statistics.players:
        yield person(shown.player, set()) if shown.player not in OTHER_NAMES else shown.player, shown


@settings(max_examples=50, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow], deadline=None)
@given(table=tables())
def test_every_figure_of_the_statistics_page_agrees_with_a_recount(
    plain_app: Flask, phone: PhoneClient, table: tuple[list[Stored], list[tuple[str, str, str]]]
) -> None:
    """Games, wins, places, best and worst totals, streaks, rivals, buddies, player counts, each game's own figures and records."""
    games, changes = table
    with plain_app.app_context():
        token, read_token = store(games)
    seated = {person(name, set()) for stored in games for name in stored.raw["players"]}
    changes = [change for change in changes if change[1] in seated and change[2] in seated]
    apply(phone, token, changes)
    merged = merged_names(changes)
    recounted = [recount_game(stored, merged) for stored in games]
    finished = [game for game in recounted if game.complete]
    statistics = page_statistics(plain_app, phone, read_token)

    evenings = {game.started.date() for game in finished}
    assert statistics.evenings == len(evenings)
    assert statistics.games == len(finished)
    by_name = {entry.name: entry for entry in statistics.by_game}
    assert set(by_name) == {game.name for game in finished}
    for name, entry in by_name.items():
        these = [game for game in finished if game.name == name]
        assert entry.games == len(these)
        assert entry.evenings == len({game.started.date() for game in these})
        assert dict(entry.by_players) == dict(Counter(len(game.players) for game in these))
        assert nonzero(entry.table_tally) == dict(sum((game.table_counts for game in these), Counter()))
        totals = [(game.totals[player], game, player) for game in these for player in game.players]
        lowest = min(total for total, _, _ in totals)
        highest = max(total for total, _, _ in totals)
        records = {found.which: found for found in statistics.records if found.name == name}
        for which, extreme in (("lowest", lowest), ("highest", highest)):
            found = records[which]
            first = next(game for total, game, _ in totals if total == extreme)
            holders = {person(player, merged) for total, game, player in totals if game is first and total == extreme}
            assert found.total == extreme and {person(player, merged) for player in found.players} == holders

    shown = dict(players_by_name(statistics))
    people = {player for game in finished for player in game.players}
    assert set(shown) == people
    for player in people:
        mine = [game for game in finished if player in game.players]
        figures = shown[player]
        won_each = [player in game.winners for game in mine]
        assert (figures.games, figures.wins) == (len(mine), sum(won_each))
        assert figures.average_place == Fraction(sum(places(game)[player] for game in mine), len(mine))
        streak = longest = 0
        for won in won_each:
            streak = streak + 1 if won else 0
            longest = max(longest, streak)
        assert figures.longest_streak == longest

        beaten: Counter[str] = Counter()
        lost_to: Counter[str] = Counter()
        together: Counter[str] = Counter()
        for game in mine:
            place = places(game)
            for other in game.players:
                if other != player:
                    together[other] += 1
                    beaten[other] += place[player] < place[other]
                    lost_to[other] += place[other] < place[player]
        for found, counter in ((figures.rival, beaten), (figures.nemesis, lost_to)):
            top, who = most(counter)
            assert (found is None) == (top == 0)
            if found is not None:
                assert found.times == top and person(found.player, merged) in who
        top, who = most(together)
        assert figures.buddies and all(buddy.times == top for buddy in figures.buddies)
        assert {person(buddy.player, merged) for buddy in figures.buddies} <= who

        per_game = {entry.name: entry for entry in figures.per_game}
        assert set(per_game) == {game.name for game in mine}
        for name, entry in per_game.items():
            these = [game for game in mine if game.name == name]
            assert (entry.games, entry.wins) == (len(these), sum(player in game.winners for game in these))
            mine_totals = [game.totals[player] for game in these]
            fewest = these[0].kind == "auruxxx"
            assert (entry.best, entry.worst) == ((min(mine_totals), max(mine_totals)) if fewest else (max(mine_totals), min(mine_totals)))
            counted = {(count.players, count.games, count.wins) for count in entry.by_players}
            sizes = Counter(len(game.players) for game in these)
            wins_by_size = Counter(len(game.players) for game in these if player in game.winners)
            assert counted == {(size, number, wins_by_size[size]) for size, number in sizes.items()}
            assert nonzero(entry.tally) == dict(sum((game.counts[player] for game in these), Counter()))
