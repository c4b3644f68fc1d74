"""A finished game's result, sent on: to BG Stats by one tap, and as a picture for the family's group chat.

The picture is the sheet's final table and its chart, drawn as one SVG (the chart is the
sheet's own, ``views.chart``) and turned into a PNG on the server by librsvg's
``rsvg-convert``, within a time and a size limit. A phone shares the PNG through its share
sheet where it can share files, and downloads it otherwise (static/js/picture.js).

BG Stats' ids for the game and its players are keyed hashes of the game's row and the
players' names: stable, so BG Stats remembers how they were matched, and telling nothing
about any address of the game.
"""

from __future__ import annotations

import hashlib
import hmac
import subprocess
from dataclasses import dataclass

from flask import current_app, render_template, url_for
from flask_babel import format_date, gettext, to_user_timezone
from werkzeug.exceptions import ServiceUnavailable

from models import Game, last_change
from rules import bgstats
from rules.evening import Played, placings
from rules.games import find_game
from rules.json_value import JSON
from rules.record import same_name_key
from views.chart import SHAPES, build_chart, marker_path
from views.scoreboard import Scoreboard, headline, shown

CARD_WIDTH = 540
"""The card's width in SVG units; the PNG has twice as many pixels, sharp on a phone."""
PNG_SCALE = 2
RENDER_SECONDS = 10
"""The longest ``rsvg-convert`` may take for one card (it takes well under a second)."""
MAX_PNG_BYTES = 4 * 1024 * 1024
"""A card is some 100 KB; anything far larger is a fault, not a picture."""
ID_LENGTH = 24
"""Hex digits of a BG Stats id: 96 bits of a keyed hash."""


def played_of(board: Scoreboard) -> Played:
    """Return a game's scoreboard as the standings and BG Stats read it."""
    return Played(players=board.players, totals=board.totals, winners=board.winners, fewest_win=board.fewest_win)


def _keyed(purpose: str, value: str) -> str:
    """Return a stable id for ``value`` that only this server can make: an HMAC with the app's secret key."""
    key = str(current_app.secret_key).encode()
    return hmac.new(key, f"bgstats:{purpose}:{value}".encode(), hashlib.sha256).hexdigest()[:ID_LENGTH]


def bgstats_play(game: Game, board: Scoreboard) -> dict[str, JSON]:
    """Return a finished game as BG Stats' play JSON: name, who won, when, how long, and stable ids."""
    rules = find_game(game.kind)
    started = game.created_at
    minutes = round((last_change(game) - started).total_seconds() / 60)
    return bgstats.play(
        name=game.title,
        played=played_of(board),
        started=to_user_timezone(started).replace(tzinfo=None),
        minutes=minutes,
        start_player=rules.first_player(game.first_dealer, len(board.players)),
        game_id=_keyed("game", str(game.id)),
        player_ids={player: _keyed("player", same_name_key(player)) for player in board.players},
    )


@dataclass(frozen=True)
class ResultLinks:
    """Where a finished game's result goes from a phone: into BG Stats, and as a picture."""

    bgstats: str
    picture: str
    picture_name: str


def result_links_for(game: Game, board: Scoreboard) -> ResultLinks | None:
    """Return the ways to send on a finished game's result, or None while it is running."""
    if not board.winners:
        return None
    return ResultLinks(
        bgstats=bgstats.link(bgstats_play(game, board)),
        picture=url_for("result.picture", token=game.read_token),
        picture_name=f"tischblock-{game.kind}-{game.created_at:%Y-%m-%d}.png",
    )


# --- The picture -------------------------------------------------------------------------------


@dataclass(frozen=True)
class CardLine:
    """One player on the result card: place, marker, name and total."""

    place: int
    seat: int
    marker: str
    name: str
    total: str
    winner: bool


def card_svg(game: Game, board: Scoreboard) -> str:
    """Return the result card as SVG: the game, the headline, every player's place and total, and the chart."""
    places = placings(played_of(board))
    lines = sorted(
        (
            CardLine(
                place=places[player],
                seat=seat,
                marker=marker_path(SHAPES[seat % len(SHAPES)], 0, 0, 6),
                name=player,
                total=shown(board.totals[player]),
                winner=player in board.winners,
            )
            for seat, player in enumerate(board.players)
        ),
        key=lambda line: (line.place, line.seat),
    )
    chart = build_chart(board, title=board.caption)
    return render_template(
        "result/card.svg",
        width=CARD_WIDTH,
        title=game.title,
        headline=headline(board) if board.winners else gettext("The game is still running"),
        day=format_date(to_user_timezone(game.created_at), "long"),
        table=game.card_table.name,
        lines=lines,
        chart=chart,
        caption=board.caption,
    )


def rasterise(svg: str) -> bytes:
    """Return the SVG as a PNG of twice its size, drawn by ``rsvg-convert`` within the time and size limits."""
    refusal = ServiceUnavailable(
        description=gettext("The picture cannot be drawn right now. The result is on the sheet; try again in a moment.")
    )
    try:
        drawn = subprocess.run(
            ["rsvg-convert", "--format", "png", "--zoom", str(PNG_SCALE)],
            input=svg.encode(),
            capture_output=True,
            timeout=RENDER_SECONDS,
            check=True,
        )
    except (OSError, subprocess.SubprocessError):
        current_app.logger.exception("result card: rsvg-convert failed")
        raise refusal from None
    if not drawn.stdout.startswith(b"\x89PNG") or len(drawn.stdout) > MAX_PNG_BYTES:
        current_app.logger.error("result card: rsvg-convert gave %d bytes that are no card", len(drawn.stdout))
        raise refusal
    return drawn.stdout
