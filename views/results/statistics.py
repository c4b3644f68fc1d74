"""The table's statistics: every finished game at one table address, added up per game and per player, with its records.

A group that meets every Friday keeps its table card; the statistics page shows who is on a
streak. It is opened through a game's address (edit or read-only) and links on with the same
rights, like the evening's page; the table address leads to it too. The figures are added up
by ``rules.statistics`` from the stored games, read through the rules: each game's part is
kept once it can no longer change (a game followed by another), keyed by the game's id and
start, and the table's figures are kept keyed by what they were computed from (the table's
games, the running game's version once it is over, the table's changes to names), so a table
of a thousand games answers as fast as one of ten. A table may merge two names ("Anni" is
Anna) and undo it, from this page, with the edit address.
"""

from __future__ import annotations

import csv
import io
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from fractions import Fraction

from flask import Blueprint, Response, abort, current_app, request, url_for
from flask_babel import format_date, format_decimal, format_percent, gettext, ngettext, to_user_timezone
from sqlalchemy import func, select
from sqlalchemy.orm import selectinload
from werkzeug.wrappers import Response as BaseResponse

from models import Event, Game, Recent, add_name_change, db, folded, folded_together, last_name_change, name_changes_at
from rules.games import Figure, find_game
from rules.points import HalfPoints
from rules.problems import Illegal
from rules.statistics import (
    NameChange,
    PlayerStatistics,
    StoredGame,
    TableStatistics,
    checked_change,
    history_rows,
    stored_game,
    table_statistics,
)
from views.pages.render import game_page, go_to
from views.pages.viewers import Viewer
from views.results.evening import idle
from views.table.addresses import current_game_at, leads_on, open_to_lead, open_to_read
from views.table.chart import DASHES, SHAPES, Chart, Series, Tick, marker_path, nice_step
from views.table.scoreboard import csv_number, csv_text, decimal_separator, shown
from views.table.taps import say

bp = Blueprint("statistics", __name__)

GAMES_KEPT = 100_000
"""Stored games a process keeps as the statistics read them: a finished game followed by another never changes."""
TABLES_KEPT = 256
"""Tables whose figures a process keeps, keyed by what they were computed from."""
CHUNK = 500
"""Games read in one statement when the statistics meet them for the first time."""
CHART_POINTS = 60
"""The most evenings the chart draws a point for; a longer history is drawn at every few evenings (and its last)."""


# --- The stored games and the table's figures, kept ----------------------------------------------


def _kept(name: str, size: int) -> Recent[object, object]:
    extensions = current_app.extensions
    if name not in extensions:
        extensions.setdefault(name, Recent(size))
    kept: Recent[object, object] = extensions[name]
    return kept


def _read(games: Sequence[Game]) -> list[StoredGame]:
    """Read games the statistics have not met: their histories folded through the rules (a few statements per chunk)."""
    found = []
    for start in range(0, len(games), CHUNK):
        chunk = games[start : start + CHUNK]
        newest = dict(
            db.session.execute(
                select(Event.game_id, func.max(Event.created_at))
                .where(Event.game_id.in_([game.id for game in chunk]))
                .group_by(Event.game_id)
            ).all()
        )
        for game, state in zip(chunk, folded_together(chunk), strict=True):
            rules = find_game(game.kind)
            found.append(
                stored_game(
                    rules,
                    state.table.game,
                    game_id=game.id,
                    started=game.created_at,
                    last_change=newest.get(game.id) or game.created_at,
                )
            )
    return found


def stored_games_at(card_table_id: int) -> list[StoredGame]:
    """Return a table's games, oldest first, as the statistics read them; a game followed by another is read once per process."""
    rows = db.session.execute(
        select(Game.id, Game.created_at, Game.previous_id).where(Game.card_table_id == card_table_id).order_by(Game.id)
    ).all()
    followed = {previous for _, _, previous in rows if previous is not None}
    kept = _kept(GAMES, GAMES_KEPT)
    found: dict[int, StoredGame] = {}
    missing: list[int] = []
    for game_id, created_at, _ in rows:
        known = kept.get((game_id, created_at)) if game_id in followed else None
        if isinstance(known, StoredGame):
            found[game_id] = known
        else:
            missing.append(game_id)
    if missing:
        games = db.session.scalars(select(Game).options(selectinload(Game.players)).where(Game.id.in_(missing)).order_by(Game.id)).all()
        for game, read in zip(games, _read(games), strict=True):
            found[game.id] = read
            if game.id in followed:
                kept.put((game.id, game.created_at), read)
    return [found[game_id] for game_id, _, _ in rows]


GAMES = "tischblock.statistics_games"
TABLES = "tischblock.statistics_tables"


def statistics_of(game: Game) -> TableStatistics:
    """Return the figures of ``game``'s table, kept for as long as nothing they were computed from changed.

    They depend on the table's games, on its running game only once that game is over (a game
    still being played counts for nothing and, being the newest, cuts no evening), and on the
    table's changes to names: that is the key.
    """
    table_id = game.card_table_id
    count, newest_id = db.session.execute(select(func.count(Game.id), func.max(Game.id)).where(Game.card_table_id == table_id)).one()
    newest = game if game.id == newest_id else db.session.get(Game, newest_id)
    assert newest is not None
    state = folded(newest)
    newest_game = state.table.game
    rules = find_game(newest.kind)
    finished = rules.result(newest_game).get("complete") is True
    key = (table_id, count, newest_id, newest.created_at, state.version if finished else None, last_name_change(table_id))
    kept = _kept(TABLES, TABLES_KEPT)
    found = kept.get(key)
    if isinstance(found, TableStatistics):
        return found
    figures = table_statistics(stored_games_at(table_id), changes=name_changes_at(table_id), idle=idle())
    kept.put(key, figures)
    return figures


# --- What the page shows ------------------------------------------------------------------------


@dataclass(frozen=True)
class Line:
    """One figure in words and numbers, as a player's card lists it."""

    label: str
    value: str


@dataclass(frozen=True, kw_only=True)
class PlayerGameCard:
    """A player's figures in one game, as the page shows them."""

    name: str
    games: int
    wins: int
    average_place: str
    best: str
    worst: str
    by_players: tuple[Line, ...]
    figures: tuple[Line, ...]


@dataclass(frozen=True, kw_only=True)
class PlayerCard:
    """One player as the page shows them."""

    figures: PlayerStatistics
    also: tuple[str, ...]
    """The other ways the name was written at the table."""
    win_rate: str
    average_place: str
    per_game: tuple[PlayerGameCard, ...]


@dataclass(frozen=True, kw_only=True)
class RecordLine:
    """A record of the table, in words, with the game it was set in."""

    text: str
    players: str
    """Who holds it: one name, or everyone who had that total in the same game."""
    total: str
    day: str
    url: str


@dataclass(frozen=True, kw_only=True)
class GameLine:
    """One game at the table: how often, on how many evenings, at how many players, and the table's own figures of it."""

    name: str
    games: int
    evenings: int
    by_players: tuple[Line, ...]
    figures: tuple[Line, ...]


def average(value: Fraction) -> str:
    """Return an average place as the reader writes it, with one decimal (1.5, 2,3)."""
    return str(format_decimal(round(float(value), 1), format="0.0"))


def counted(figure: Figure, own: Mapping[str, int]) -> str:
    """Return a figure's value as the page shows it: a count, points, or a count per another figure (crosses per round)."""
    value = own.get(figure.key, 0)
    if figure.per is not None:
        per = own.get(figure.per, 0)
        return average(Fraction(value, per)) if per else "–"
    return shown(HalfPoints(value)) if figure.points else str(value)


def _by_players(by_players: Sequence[tuple[int, int, int | None]]) -> tuple[Line, ...]:
    """Return games (and wins, where given) by the number of players, as the page words them: "With 4 players: 2 of 5 won"."""
    lines = []
    for players, games, wins in by_players:
        label = str(ngettext("With %(num)s player", "With %(num)s players", players))
        if wins is None:
            value = str(ngettext("%(num)s game", "%(num)s games", games))
        else:
            value = str(gettext("%(wins)s of %(games)s won", wins=wins, games=games))
        lines.append(Line(label, value))
    return tuple(lines)


def counted_figures(figures: TableStatistics) -> dict[str, tuple[Figure, ...]]:
    """Return each game's own figures that anyone at the table has, by game: a figure nobody ever scored (a Claus win in a
    game without Clauses) says nothing to the table."""
    found: dict[str, tuple[Figure, ...]] = {}
    for entry in figures.by_game:
        tallies = [game.tally for player in figures.players for game in player.per_game if game.name == entry.name]
        found[entry.name] = tuple(
            figure
            for figure in entry.figures
            if figure.of_table or figure.per is not None or any(tally.get(figure.key) for tally in tallies)
        )
    return found


def player_card(figures: PlayerStatistics, by_game: dict[str, tuple[Figure, ...]]) -> PlayerCard:
    """Return one player's figures as the page writes them."""
    per_game = tuple(
        PlayerGameCard(
            name=entry.name,
            games=entry.games,
            wins=entry.wins,
            average_place=average(entry.average_place),
            best=shown(entry.best),
            worst=shown(entry.worst),
            by_players=_by_players([(count.players, count.games, count.wins) for count in entry.by_players])
            if len(entry.by_players) > 1
            else (),
            figures=tuple(
                Line(gettext(figure.label), counted(figure, entry.tally)) for figure in by_game.get(entry.name, ()) if not figure.of_table
            ),
        )
        for entry in figures.per_game
    )
    return PlayerCard(
        figures=figures,
        also=tuple(name for name in figures.names if name != figures.player),
        win_rate=str(format_percent(float(figures.win_rate), format="#,##0 %")),
        average_place=average(figures.average_place),
        per_game=per_game,
    )


def timeline_chart(figures: TableStatistics) -> Chart | None:
    """Lay out the games played so far per game, after each evening, or None before two evenings."""
    timeline = figures.timeline
    if len(timeline) < 2:
        return None
    step = max(1, math.ceil(len(timeline) / CHART_POINTS))
    picked = sorted({*range(0, len(timeline), step), len(timeline) - 1})
    names = [entry.name for entry in figures.by_game]
    running = dict.fromkeys(names, 0)
    after: list[dict[str, int]] = []
    for entry in timeline:
        running = {name: running[name] + entry.games.get(name, 0) for name in names}
        after.append(dict(running))
    width, height, left, right, top, bottom = 320, 190, 34, 292, 10, 168
    high = max(max(values.values()) for values in after)
    tick = nice_step(high)
    top_value = max(tick, math.ceil(high / tick) * tick)

    def x_of(position: int) -> float:
        return left + (right - left) * position / max(1, len(picked) - 1)

    def y_of(value: float) -> float:
        return bottom - (bottom - top) * value / top_value

    series = []
    for seat, name in enumerate(names):
        shape = SHAPES[seat % len(SHAPES)]
        spots = [(x_of(position), y_of(after[index][name])) for position, index in enumerate(picked)]
        series.append(
            Series(
                player=name,
                seat=seat,
                shape=shape,
                dash=DASHES[seat % len(DASHES)],
                line=" ".join(f"{x:.1f},{y:.1f}" for x, y in spots),
                markers=tuple(marker_path(shape, x, y) for x, y in spots),
                legend_marker=marker_path(shape, 8, 8, 5),
                total=str(after[-1][name]),
            )
        )
    label_every = max(1, math.ceil(len(picked) / 4))
    x_ticks = tuple(
        Tick(x_of(position), str(format_date(to_user_timezone(timeline[index].started), "d.M.yy")))
        for position, index in enumerate(picked)
        if position % label_every == 0 or position == len(picked) - 1
    )
    y_ticks = tuple(Tick(y_of(value), str(value)) for value in range(0, top_value + 1, tick))
    description = str(gettext("Games played so far, evening by evening")) + ". " + "; ".join(f"{s.player}: {s.total}" for s in series)
    return Chart(
        width=width,
        height=height,
        left=left,
        right=right,
        top=top,
        bottom=bottom,
        series=tuple(series),
        x_ticks=x_ticks,
        y_ticks=y_ticks,
        zero=y_of(0),
        description=description,
    )


def game_links(game: Game, viewer: Viewer, game_ids: set[int]) -> dict[int, str]:
    """Return the sheets of some of the table's games with this page's rights: read-only, but the edit address of the
    game opened and later ones where this address leads on (as the evening's page links them)."""
    if not game_ids:
        return {}
    edit = leads_on(game, viewer.address)
    rows = db.session.execute(select(Game.id, Game.token, Game.read_token).where(Game.id.in_(game_ids))).all()
    return {
        game_id: url_for("games.sheet", token=token if edit and game_id >= game.id else read_token) for game_id, token, read_token in rows
    }


def record_lines(figures: TableStatistics, links: dict[int, str], by_game: dict[str, bool]) -> tuple[RecordLine, ...]:
    """Return the table's records in words, each with the game it was set in: the best total first, then the worst."""
    lines = []
    for found in figures.records:
        best = (found.which == "lowest") == by_game[found.name]
        text = gettext("Best %(game)s total", game=found.name) if best else gettext("Worst %(game)s total", game=found.name)
        lines.append(
            (
                not best,
                RecordLine(
                    text=str(text),
                    players=", ".join(found.players),
                    total=shown(found.total),
                    day=str(format_date(to_user_timezone(found.started), "long")),
                    url=links[found.game_id],
                ),
            )
        )
    return tuple(line for _, line in sorted(lines, key=lambda pair: pair[0]))


def game_lines(figures: TableStatistics) -> tuple[GameLine, ...]:
    """Return each game at the table with the table's own figures of it."""
    return tuple(
        GameLine(
            name=entry.name,
            games=entry.games,
            evenings=entry.evenings,
            by_players=_by_players([(players, games, None) for players, games in entry.by_players]),
            figures=tuple(Line(gettext(figure.label), counted(figure, entry.table_tally)) for figure in entry.figures if figure.of_table),
        )
        for entry in figures.by_game
    )


def statistics_page(game: Game, viewer: Viewer, *, problems: Sequence[str] = (), status: int = 200) -> BaseResponse:
    """Answer with the table's statistics page as ``viewer`` sees it (with refusals of a change to names, if any)."""
    figures = statistics_of(game)
    by_game = counted_figures(figures)
    links = game_links(game, viewer, {found.game_id for found in figures.records})
    return game_page(
        "statistics/show.html",
        "statistics",
        game,
        viewer,
        status=status,
        statistics=figures,
        games=game_lines(figures),
        players=tuple(player_card(player, by_game) for player in figures.players),
        records=record_lines(figures, links, {entry.name: entry.fewest_win for entry in figures.by_game}),
        chart=timeline_chart(figures),
        may_change_names=leads_on(game, viewer.address),
        problems=list(problems),
        table=game.card_table,
    )


# --- The routes ---------------------------------------------------------------------------------


@bp.get("/g/<token>/statistics")
def show(token: str) -> BaseResponse:
    """Show the table's statistics: its games, every player's figures and its records."""
    game, viewer = open_to_read(token)
    return statistics_page(game, viewer)


@bp.get("/t/<token>/statistics")
def of_table(token: str) -> BaseResponse:
    """Open the statistics of the table a table address names, through its running game's edit address."""
    game = current_game_at(token)
    if game is None:
        abort(404)
    return go_to(url_for("statistics.show", token=game.token), False)


@bp.post("/g/<token>/statistics/<kind>")
def change_names(token: str, kind: str) -> BaseResponse:
    """Merge two names into one player ("Anni" is Anna), or take a merge back; a refusal says why and changes nothing."""
    if kind not in ("merge", "unmerge"):
        abort(404)
    game, viewer = open_to_lead(token)
    alias = request.form.get("alias", "")
    player = request.form.get("player", "")
    change = NameChange("merge" if kind == "merge" else "unmerge", alias, player)
    try:
        if not alias or not player or len(alias) > 40 or len(player) > 40:
            raise Illegal([])
        change = checked_change(stored_games_at(game.card_table_id), name_changes_at(game.card_table_id), change)
    except Illegal as illegal:
        said = [say(found) for found in illegal.problems] or [gettext("Choose two names of this table.")]
        return statistics_page(game, viewer, problems=said, status=422)
    add_name_change(game.card_table_id, change)
    return go_to(url_for("statistics.show", token=game.token) + "#names", viewer.fragment)


@bp.get("/g/<token>/statistics.csv")
def csv_export(token: str) -> BaseResponse:
    """Return the table's history for a spreadsheet: one row per player per finished game."""
    game, _ = open_to_read(token)
    table_id = game.card_table_id
    rows = history_rows(stored_games_at(table_id), changes=name_changes_at(table_id), idle=idle())
    separator = decimal_separator()
    buffer = io.StringIO()
    writer = csv.writer(buffer, delimiter=";" if separator == "," else ",", lineterminator="\r\n")
    writer.writerow(
        [
            gettext("Game no."),
            gettext("Game"),
            gettext("Started"),
            gettext("Evening no."),
            gettext("Player"),
            gettext("Name in this game"),
            gettext("Players"),
            gettext("Total"),
            gettext("Place"),
            gettext("Won"),
        ]
    )
    for row in rows:
        started: datetime = to_user_timezone(row.game.started)
        writer.writerow(
            [
                str(row.number),
                csv_text(row.game.name),
                f"{started:%Y-%m-%d %H:%M}",
                str(row.evening),
                csv_text(row.player),
                csv_text(row.seated_as),
                str(len(row.game.players)),
                csv_number(row.total, separator),
                str(row.place),
                gettext("yes") if row.won else gettext("no"),
            ]
        )
    response = Response(buffer.getvalue().encode("utf-8-sig"), mimetype="text/csv")
    response.headers["Content-Disposition"] = 'attachment; filename="tischblock-table-history.csv"'
    response.vary.add("Accept-Language")
    response.vary.add("Cookie")
    return response
