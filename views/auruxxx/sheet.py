"""The AURUXXX sheet's view model: the paper pad's rows and columns, every score with the words that explain it.

The arithmetic, who deals and who starts come from ``rules.auruxxx``; this module only lays
them out, in the reader's language.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from flask_babel import gettext, ngettext
from flask_babel import lazy_gettext as _l

from models import Game
from rules import points
from rules.auruxxx.history import AuruxxxTable, OpenRound
from rules.auruxxx.score import (
    GOLDEN12_BONUS,
    MAX_PASSES,
    PASS_COST,
    ROUNDS,
    Halving,
    HouseRules,
    Result,
    Rounding,
    RoundScore,
    dealer,
    score_game,
    starter,
)
from rules.json_value import JSON
from views.table import Row as BoardRow
from views.table import Scoreboard, counted_from_one, current_language, shown


def half(value: points.HalfPoints) -> str:
    """Return points as this reader writes them: 6,5 in German, 6.5 in English, −5 with a real minus."""
    return shown(value)


def whole(value: int) -> str:
    """Return whole points as this reader writes them."""
    return half(points.whole(value))


def describe_event(game: Game, kind: str, payload: Mapping[str, JSON]) -> str:
    """Return one AURUXXX change in words."""
    player = payload.get("player")
    number = counted_from_one(payload, "round")
    texts: dict[str, Any] = {
        "pass": _l("Round %(n)s: pass cross for %(player)s", n=number, player=player),
        "happy_man": _l("Round %(n)s: %(player)s takes the Happy-Man figure", n=number, player=player),
        "finish": _l("Round %(n)s: %(player)s ends it with %(g)s Golden 12", n=number, player=player, g=payload.get("golden12")),
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
    """Return how a round score came about as one sum a player reads: "Hand 12 + 2 crosses × 5 = 22; Happy-Man: ½ × 22 = 11".

    A finished round's words never change: each is worked out once per language (a sheet shows every finished round at every tap).
    """
    return _explained(score, rules, current_language())


@lru_cache(maxsize=8192)
def _explained(score: RoundScore, rules: HouseRules, language: str) -> str:
    """Return ``explain`` in ``language``, the reader's."""
    crosses = str(ngettext("%(num)s cross × %(cost)s", "%(num)s crosses × %(cost)s", score.passes, cost=whole(PASS_COST)))
    if score.hand is None:
        golden = str(ngettext("%(num)s Golden 12 × %(each)s", "%(num)s Golden 12 × %(each)s", score.golden12, each=whole(GOLDEN12_BONUS)))
        terms = [crosses, golden] if score.passes else [golden]
    else:
        hand = str(gettext("Hand %(hand)s", hand=whole(score.hand)))
        terms = [hand, crosses] if score.passes else [hand]
    parts = f"{' + '.join(terms)} = {whole(score.sub)}"
    if not score.happy_man:
        return parts
    if not score.halved:
        nothing = str(gettext("Happy-Man: nothing to halve"))
        return f"{parts}; {nothing}"
    halving = f"½ × {whole(score.penalty)}"
    if rules.halving is Halving.PENALTY and score.bonus:
        halving += f" − {whole(-score.bonus)}"
    else:
        halving = f"½ × {whole(score.sub)}"
    if rules.rounding is Rounding.FLOOR:
        halving += ", " + str(gettext("rounded down"))
    elif rules.rounding is Rounding.CEIL:
        halving += ", " + str(gettext("rounded up"))
    figure = str(gettext("Happy-Man"))
    return f"{parts}; {figure}: {halving} = {half(score.points)}"


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
