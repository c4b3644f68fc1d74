"""The AURUXXX sheet's view model: the paper pad's rows and columns, every score with the words that explain it.

The arithmetic, who deals and who starts come from ``rules.auruxxx``; this module only lays
them out, in the reader's language.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from flask_babel import format_decimal, gettext, ngettext
from flask_babel import lazy_gettext as _l

from models import Game
from rules import points
from rules.auruxxx.history import AuruxxxTable, OpenRound
from rules.auruxxx.score import MAX_PASSES, PASS_COST, ROUNDS, Halving, HouseRules, Result, RoundScore, Rounding, dealer, score_game, starter
from rules.json_value import JSON
from views.scoreboard import Row as BoardRow
from views.scoreboard import Scoreboard
from views.sheets import counted_from_one

POINTS_FORMAT = "0.#;−0.#"
"""Points without grouping, a half as one decimal, and a real minus sign."""


def half(value: points.HalfPoints) -> str:
    """Return points as this reader writes them: 6,5 in German, 6.5 in English, −5 with a real minus."""
    return str(format_decimal(points.to_decimal(value), format=POINTS_FORMAT))


def whole(value: int) -> str:
    """Return whole points as this reader writes them."""
    return half(points.whole(value))


def describe_event(kind: str, payload: Mapping[str, JSON]) -> str:
    """Return one AURUXXX change in words."""
    player = payload.get("player")
    number = counted_from_one(payload, "round")
    texts: dict[str, Any] = {
        "pass": _l("Round %(n)s: pass cross for %(player)s", n=number, player=player),
        "happy_man": _l("Round %(n)s: %(player)s takes the Happy-Man figure", n=number, player=player),
        "finish": _l(
            "Round %(n)s: %(player)s ends it with %(g)s Golden 12", n=number, player=player, g=payload.get("golden12")
        ),
        "hand": _l("Round %(n)s: hand of %(player)s entered", n=number, player=player),
        "correct_round": _l("Round %(n)s corrected", n=number),
    }
    return str(texts.get(kind, kind))


@dataclass(frozen=True)
class ScoreCell:
    """One player's finished round on the sheet, with the words that explain it."""

    text: str
    explanation: str
    passes: int
    golden12: int
    holder: bool


def explain(score: RoundScore, rules: HouseRules) -> str:
    """Return how a round score came about, in words and numbers."""
    crosses = str(ngettext("%(num)s cross", "%(num)s crosses", score.passes))
    if score.hand is None:
        golden = str(gettext("%(g)s Golden 12", g=score.golden12))
        parts = f"{crosses} {whole(PASS_COST * score.passes)} − {golden} {whole(-score.bonus)} = {whole(score.sub)}"
    else:
        cost = f" {whole(PASS_COST * score.passes)}" if score.passes else ""
        hand = str(gettext("Hand %(hand)s", hand=whole(score.hand)))
        parts = f"{hand} + {crosses}{cost} = {whole(score.sub)}"
    if not score.happy_man:
        return parts
    if not score.halved:
        nothing = str(gettext("Happy-Man: nothing to halve"))
        return f"{parts}, {nothing}"
    if rules.halving is Halving.PENALTY and score.bonus:
        halved = str(gettext("Happy-Man halves crosses and hand before the bonus: %(points)s", points=half(score.points)))
    else:
        halved = str(gettext("Happy-Man halves: %(points)s", points=half(score.points)))
    if rules.rounding is Rounding.FLOOR:
        halved += " " + str(gettext("(rounded down)"))
    elif rules.rounding is Rounding.CEIL:
        halved += " " + str(gettext("(rounded up)"))
    return f"{parts}, {halved}"


@dataclass(frozen=True, kw_only=True)
class Row:
    """One round of the pad: who deals and starts it, and once it is finished, everyone's score."""

    index: int
    number: int
    dealer: int
    starter: int
    state: str
    """"done", "current" (being played) or "future"."""
    cells: tuple[ScoreCell, ...] = ()
    """One per player, in seating order, once the round is done."""
    finisher: str | None = None


@dataclass(frozen=True, kw_only=True)
class Sheet:
    """Everything the sheet template shows, worked out once per change."""

    rows: tuple[Row, ...]
    totals: tuple[str, ...]
    winners: tuple[str, ...]
    current: OpenRound | None
    dealer: int | None
    """The seat dealing the round being played."""
    starter: int | None
    rounds: int
    """How many rounds a game has."""
    passes: int
    """How many pass crosses a player may have in a round: the boxes in their column."""
    board: Scoreboard


def scoreboard_of(game: Game, result: Result) -> Scoreboard:
    """Return an AURUXXX game's points in the shape the chart, CSV and share text read."""
    players = game.player_names
    return Scoreboard(
        kind=game.kind,
        stage=gettext("Round"),
        caption=gettext("Totals after each round"),
        players=players,
        rows=tuple(BoardRow(str(number), {p: scores[p].points for p in players}) for number, scores in enumerate(result.rounds, start=1)),
        totals=dict(result.totals),
        winners=result.winners if result.complete else (),
        fewest_win=True,
    )


def lay_out(game: Game, table: AuruxxxTable) -> Sheet:
    """Lay out what the game's history adds up to as the paper pad's rows and columns."""
    result = score_game(table.game)
    players = table.game.players
    rows: list[Row] = []
    for index in range(ROUNDS):
        deals = dealer(game.first_dealer, index, len(players))
        starts = starter(game.first_dealer, index, len(players))
        if index < len(table.game.rounds):
            cells = tuple(
                ScoreCell(
                    text=half(score.points),
                    explanation=explain(score, table.game.house_rules),
                    passes=score.passes,
                    golden12=score.golden12,
                    holder=score.happy_man,
                )
                for score in (result.rounds[index][p] for p in players)
            )
            finisher: str | None = table.game.rounds[index].finisher
            state = "done"
        else:
            cells, finisher = (), None
            state = "current" if table.current is not None and table.current.index == index else "future"
        rows.append(Row(index=index, number=index + 1, dealer=deals, starter=starts, state=state, cells=cells, finisher=finisher))
    current = table.current
    return Sheet(
        rows=tuple(rows),
        totals=tuple(half(result.totals[p]) for p in players),
        winners=result.winners if result.complete else (),
        current=current,
        dealer=rows[current.index].dealer if current is not None else None,
        starter=rows[current.index].starter if current is not None else None,
        rounds=ROUNDS,
        passes=MAX_PASSES,
        board=scoreboard_of(game, result),
    )
