"""The evening at a table: its games, the standings across them, and its exports.

An evening is every game at one table address, one after another (rematches, and other
games started at the table), until the table is idle for ``EVENING_IDLE_HOURS`` (six by
default): the next game after a longer pause begins a new evening (``rules.evening``).
The evening's page is reached from every sheet, the table card and the TV (``views.results.tv``); it is opened
through a game's address and links on with the same rights. A game at the table is
followed by another through the new-game form here, as a rematch is.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from datetime import datetime, timedelta

from flask import Blueprint, Response, abort, current_app, request, url_for
from flask_babel import gettext, to_user_timezone
from werkzeug.wrappers import Response as BaseResponse

from models import CardTable, Game, folded, games_at
from rules import evening_record, record
from rules.evening import Played, Standing, evening_of, placings, players_of, standings
from views.pages.limits import creating
from views.pages.render import game_page, go_to
from views.table.addresses import leads_on, open_to_lead, open_to_read, running_at
from views.table.result_links import ResultLinks, played_of, result_links_for
from views.table.scoreboard import csv_number, csv_text, decimal_separator, shown
from views.table.sheets import SHEETS, scoreboard, sheet_of
from views.table.starting import NewGameForm, answer_new_game_form, new_game_page, start_after

bp = Blueprint("evening", __name__)


@dataclass(frozen=True, kw_only=True)
class Line:
    """One player in one game of the evening: their total and place."""

    player: str
    total: str
    place: int | None
    """None while the game is running."""
    winner: bool


@dataclass(frozen=True, kw_only=True)
class EveningGame:
    """One game of the evening as its page lists it."""

    game: Game
    number: int
    title: str
    started: datetime
    """In the reader's time zone."""
    played: Played
    lines: tuple[Line, ...]
    """Best first once the game is over, else in seat order."""
    url: str
    """The game's sheet, with the rights the evening's page was opened with (earlier games read-only)."""
    results: ResultLinks | None


@dataclass(frozen=True)
class StandingRow:
    """One line of the standings as the page shows it: the player's record and their place in each game."""

    standing: Standing
    places: tuple[int | None, ...]
    """The player's place in each finished game, in the order played; None where they did not sit."""


@dataclass(frozen=True, kw_only=True)
class Evening:
    """The games of one evening at a table and the standings across them."""

    table: CardTable
    games: tuple[EveningGame, ...]
    standings: tuple[Standing, ...]
    newest: Game
    """The table's newest game: the one another game at the table follows."""

    @property
    def rows(self) -> tuple[StandingRow, ...]:
        """Return the standings with every player's place in each finished game."""
        places = [{record.same_name_key(player): place for player, place in placings(entry.played).items()} for entry in self.finished]
        return tuple(
            StandingRow(standing, tuple(game.get(record.same_name_key(standing.player)) for game in places)) for standing in self.standings
        )

    @property
    def finished(self) -> tuple[EveningGame, ...]:
        """Return the games that are over: those the standings count."""
        return tuple(entry for entry in self.games if entry.played.finished)


def idle() -> timedelta:
    """Return how long a table may be idle within one evening (the ``EVENING_IDLE_HOURS`` setting)."""
    return timedelta(hours=float(current_app.config["EVENING_IDLE_HOURS"]))


def result_lines(played: Played) -> tuple[Line, ...]:
    """Return a game's players with their totals: best first once it is over."""
    places = placings(played) if played.finished else {}
    lines = [
        Line(player=player, total=shown(played.totals[player]), place=places.get(player), winner=player in played.winners)
        for player in played.players
    ]
    return tuple(sorted(lines, key=lambda line: line.place or 0))


def evening_around(game: Game, *, editable: bool) -> Evening:
    """Return the evening ``game`` was played in; its links open ``game`` and later games with this page's rights (``editable``)."""
    games, spans = games_at(game.card_table_id)
    position = next(index for index, candidate in enumerate(games) if candidate.id == game.id)
    entries = []
    for number, index in enumerate(evening_of(spans, position, idle=idle()), start=1):
        candidate = games[index]
        board = scoreboard(candidate)
        played = played_of(board)
        own_rights = editable and candidate.id >= game.id
        entries.append(
            EveningGame(
                game=candidate,
                number=number,
                title=candidate.title,
                started=to_user_timezone(candidate.created_at),
                played=played,
                lines=result_lines(played),
                url=url_for("games.sheet", token=candidate.token if own_rights else candidate.read_token),
                results=result_links_for(candidate, board),
            )
        )
    return Evening(
        table=game.card_table,
        games=tuple(entries),
        standings=standings([entry.played for entry in entries]),
        newest=games[-1],
    )


# --- The evening's page and exports ----------------------------------------------------------


@bp.get("/g/<token>/evening")
def show(token: str) -> BaseResponse:
    """Show the evening this game belongs to: the standings, then every game with its winner and totals."""
    game, viewer = open_to_read(token)
    return game_page(
        "evening/show.html",
        "evening",
        game,
        viewer,
        evening=evening_around(game, editable=leads_on(game, viewer.address)),
        kinds=[(kind, gettext(sheet.rules.title)) for kind, sheet in SHEETS.items()],
    )


@bp.get("/g/<token>/evening.csv")
def csv_export(token: str) -> BaseResponse:
    """Return the evening for a spreadsheet: a row per game with its totals, then wins and places per player."""
    game, viewer = open_to_read(token)
    evening = evening_around(game, editable=leads_on(game, viewer.address))
    separator = decimal_separator()
    buffer = io.StringIO()
    writer = csv.writer(buffer, delimiter=";" if separator == "," else ",", lineterminator="\r\n")
    players = players_of([entry.played for entry in evening.games])
    by_player = {record.same_name_key(standing.player): standing for standing in evening.standings}
    writer.writerow([gettext("Game"), gettext("Started"), gettext("Won by"), *(csv_text(player) for player in players)])
    for entry in evening.games:
        by_name = {record.same_name_key(player): player for player in entry.played.players}
        cells = []
        for player in players:
            seated = by_name.get(record.same_name_key(player))
            cells.append(csv_number(entry.played.totals[seated], separator) if seated is not None else "")
        winners = " · ".join(entry.played.winners) if entry.played.finished else gettext("running")
        writer.writerow([csv_text(f"{entry.number}. {entry.title}"), f"{entry.started:%Y-%m-%d %H:%M}", csv_text(winners), *cells])
    standing = [by_player[record.same_name_key(player)] for player in players]
    writer.writerow([gettext("Wins"), "", "", *(str(s.wins) for s in standing)])
    writer.writerow([gettext("Place"), "", "", *(str(s.rank) for s in standing)])
    response = Response(buffer.getvalue().encode("utf-8-sig"), mimetype="text/csv")
    response.headers["Content-Disposition"] = f'attachment; filename="tischblock-evening-{evening.games[0].started:%Y-%m-%d}.csv"'
    response.vary.add("Accept-Language")
    response.vary.add("Cookie")
    return response


@bp.get("/g/<token>/evening.json")
def export(token: str) -> BaseResponse:
    """Return the evening's record: every game's record and the standings, which imports again as a whole evening."""
    game, viewer = open_to_read(token)
    evening = evening_around(game, editable=leads_on(game, viewer.address))
    body = evening_record.document(
        table=evening.table.name,
        day=evening.games[0].started.date(),
        games=[record.scored(folded(entry.game).table.game) for entry in evening.games],
        standings=evening.standings,
    )
    response = Response(record.dumps(body), mimetype="application/json")
    response.headers["Content-Disposition"] = f'attachment; filename="tischblock-evening-{evening.games[0].started:%Y-%m-%d}.json"'
    return response


# --- Another game at this table ----------------------------------------------------------------


@bp.route("/g/<token>/next/<kind>", methods=["GET", "POST"])
@creating
def next_game(token: str, kind: str) -> BaseResponse | tuple[str, int]:
    """Start another game at this table, the same players filled in: the table address and the TV follow it.

    If something already follows this game (another phone was quicker), the phone joins that instead.
    """
    game, viewer = open_to_lead(token)
    if kind not in SHEETS:
        abort(404)
    if game.rematch is not None:
        return go_to(url_for("games.sheet", token=running_at(game).token), viewer.fragment)
    action = url_for("evening.next_game", token=game.token, kind=kind)
    played_here = [candidate.setup for candidate in reversed(games_at(game.card_table_id)[0])]
    if request.method == "GET":
        form = NewGameForm.empty(kind, action=action)
        seats = len(form.names)
        form.names = [*game.player_names[:seats], *[""] * (seats - len(game.player_names))]
        return new_game_page(form, played_here=played_here)
    return answer_new_game_form(
        NewGameForm.submitted(kind, action=action),
        lambda setup, dealer: start_after(game, setup, kept=sheet_of(kind).seating(dealer)),
        fragment=viewer.fragment,
        played_here=played_here,
    )
