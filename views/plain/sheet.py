"""What the plain sheet shows: the closed rounds, the round being entered, the totals and who wins, and its changes in words."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from flask_babel import gettext, ngettext

from models import Game
from rules import points
from rules.json_value import JSON
from rules.plain import score
from rules.plain.history import PlainTable, current_round
from views.table import Row, Scoreboard, counted_from_one, shown


def number_shown(value: int) -> str:
    """Return a round's number as the reader writes it, with a real minus sign."""
    return shown(points.whole(value))


@dataclass(frozen=True)
class Cell:
    """One player's place in the round being entered: their number, or still to enter."""

    player: str
    seat: int
    entered: str | None
    """The number shown, or None while it is still to enter."""


@dataclass(frozen=True, kw_only=True)
class Sheet:
    """What the plain sheet shows, ready to render."""

    name: str
    rule: str
    """Who wins and when the game ends, in words."""
    rows: tuple[tuple[int, tuple[str, ...]], ...]
    """Every closed round: its number and each player's number as shown."""
    totals: Mapping[str, str]
    leaders: tuple[str, ...]
    """Who has the best total so far (nobody before the first round)."""
    winners: tuple[str, ...]
    """Set once the game is over."""
    open_index: int | None
    """The round being entered (from 0), or None once the game is over."""
    cells: tuple[Cell, ...]
    """Each player's number in the round being entered."""
    missing: tuple[str, ...]
    """Who still has to enter a number in it."""
    can_finish: bool
    """Whether a phone may say the game is over now: open-ended, at least one round, nothing half entered."""
    board: Scoreboard

    @property
    def open_number(self) -> int | None:
        """Return the round being entered as the table counts it, from 1."""
        return None if self.open_index is None else self.open_index + 1


def rule_in_words(game: score.Game) -> str:
    """Return who wins and when the game ends: "Most points win · 10 rounds"."""
    wins = gettext("Fewest points win") if game.wins == score.LOWEST else gettext("Most points win")
    if game.end is None:
        ends = gettext("over when you say so")
    elif game.end.rounds is not None:
        ends = ngettext("%(num)s round", "%(num)s rounds", game.end.rounds)
    else:
        ends = gettext("until someone reaches %(target)s", target=game.end.target)
    return f"{wins} · {ends}"


def lay_out(game: Game, table: PlainTable) -> Sheet:
    """Return the sheet of a plain game as its history adds up."""
    played = table.game
    totals = score.totals(played.rounds, played.players)
    over = score.is_over(played)
    index = current_round(played)
    best = tuple(score.winners(played))
    board = Scoreboard(
        kind=game.kind,
        stage=gettext("Round"),
        caption=gettext("Totals after each round"),
        players=played.players,
        rows=tuple(
            Row(str(number), {player: points.whole(round_[player]) for player in played.players})
            for number, round_ in enumerate(played.rounds, start=1)
        ),
        totals={player: points.whole(total) for player, total in totals.items()},
        winners=best if over else (),
        fewest_win=played.wins == score.LOWEST,
    )
    entered = played.open_round
    return Sheet(
        name=played.name,
        rule=rule_in_words(played),
        rows=tuple(
            (number, tuple(number_shown(round_[player]) for player in played.players))
            for number, round_ in enumerate(played.rounds, start=1)
        ),
        totals={player: number_shown(total) for player, total in totals.items()},
        leaders=best if not over else (),
        winners=best if over else (),
        open_index=index,
        cells=tuple(
            Cell(player, seat, number_shown(entered[player]) if player in entered else None) for seat, player in enumerate(played.players)
        )
        if index is not None
        else (),
        missing=tuple(player for player in played.players if player not in entered) if index is not None else (),
        can_finish=played.end is None and not over and bool(played.rounds) and not entered,
        board=board,
    )


def describe_event(game: Game, kind: str, payload: Mapping[str, JSON]) -> str:
    """Return a change of a plain game in words."""
    number = counted_from_one(payload, "round")
    if kind == "hand":
        value = payload.get("points")
        said = number_shown(value) if isinstance(value, int) and not isinstance(value, bool) else str(value)
        return str(gettext("Round %(n)s: %(points)s for %(name)s", n=number, points=said, name=payload.get("player")))
    if kind == "finish":
        return str(gettext("Game finished after round %(n)s", n=number - 1))
    if kind == "correct_round":
        return str(gettext("Round %(n)s corrected", n=number))
    return kind
