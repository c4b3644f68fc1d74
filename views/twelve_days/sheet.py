"""The 12 Days sheet's view model: revealed cards day by day, the pot, the final hands and the totals.

Who wins a day, where the pot goes and who scores a majority is decided by
``rules.twelve_days``; this module only lays it out, in the reader's language, with the
game's words for cards and days (``words``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache

from flask_babel import gettext, ngettext

from models import Game
from rules import points
from rules.twelve_days.history import TwelveDaysTable, gift_due
from rules.twelve_days.score import (
    Card,
    DayResult,
    Majority,
    PlayedDay,
    Result,
    Variant,
    card_value,
    copies_left,
    passes_to,
    score_game,
)
from views.table import Row as BoardRow
from views.table import Scoreboard, current_language
from views.twelve_days.words import Calendar, CardOption, calendar_of, card_label, card_token, listed


@dataclass(frozen=True)
class DayCell:
    """One player's card and points on one finished day."""

    card: str
    cancelled: bool
    winner: bool
    received: int


@dataclass(frozen=True, kw_only=True)
class DayRow:
    """One finished day on the pad: everyone's card, and how the day was decided."""

    number: int
    cells: tuple[DayCell, ...]
    explanation: str
    quick: bool
    """Whether only the taker was entered, not the cards."""


@dataclass(frozen=True, kw_only=True)
class CardChoice(CardOption):
    """A card a player can reveal today, and how many copies are still unseen today."""

    left: int


@dataclass(frozen=True, kw_only=True)
class OpenDayView:
    """The day being played: the cards revealed so far and what can still be revealed."""

    index: int
    number: int
    played: Mapping[str, Card]
    labels: Mapping[str, str]
    claus_winner: str | None
    """The player who won with a Claus card and must give the day away, once every card is in."""
    choices: tuple[CardChoice, ...]


@dataclass(frozen=True, kw_only=True)
class Sheet:
    """Everything the 12 Days sheet shows, worked out once per change."""

    variant: Variant
    result: Result
    days: tuple[DayRow, ...]
    latest: str
    """How the last finished day was decided."""
    open_day: OpenDayView | None
    pot_text: str
    gift_question: str
    """What a Claus winner is asked: to whom the day goes, with the pot if one waits."""
    hands_needed: bool
    hands_entered: Mapping[str, tuple[Card, ...]]
    bonus_explanations: Mapping[str, str]
    passes_to: tuple[tuple[str, str], ...]
    """Who passes a card to whom: everyone to the next player, the last to the first."""
    winners: tuple[str, ...]
    board: Scoreboard
    calendar: Calendar


def explain_day(day: DayResult, calendar: Calendar, *, last: bool) -> str:
    """Return how a day was decided, in words; an unwon last day is lost with its pot, never said to wait.

    A finished day's words never change: each is worked out once per language (a sheet shows every finished day at every tap).
    """
    return _explained_day(day, calendar, last, current_language())


@lru_cache(maxsize=8192)
def _explained_day(day: DayResult, calendar: Calendar, last: bool, language: str) -> str:
    """Return ``explain_day`` in ``language``, the reader's."""
    parts: list[str] = []
    decision = day.reveal
    if decision is not None:
        if decision.cancelled:
            cancelled = listed(["Claus" if value == 0 else str(value) for value in sorted(decision.cancelled)])
            parts.append(str(gettext("cancelled: %(values)s", values=cancelled)))
        if decision.winner is not None:
            parts.append(str(gettext("%(name)s wins with %(card)s", name=decision.winner, card=card_label(decision.winning_card))))
            if decision.claus_win and day.receiver is not None and len(day.days_taken) > 1:
                pot = calendar.days(day.days_taken[:-1])
                parts.append(str(gettext("the Claus gives it and the pot (%(pot)s) to %(name)s", pot=pot, name=day.receiver)))
            elif decision.claus_win and day.receiver is not None:
                parts.append(str(gettext("the Claus gives it to %(name)s", name=day.receiver)))
    if day.receiver is None and last:
        parts.append(
            str(
                gettext(
                    "nobody wins: %(days)s go to nobody, %(points)s points are lost",
                    days=calendar.days(day.pot_after),
                    points=sum(day.pot_after),
                )
            )
        )
    elif day.receiver is None:
        parts.append(str(gettext("nobody wins: %(days)s waits in the pot", days=calendar.days((day.day,)))))
    else:
        parts.append(
            str(gettext("%(name)s takes %(days)s: +%(points)s", name=day.receiver, days=calendar.days(day.days_taken), points=day.points))
        )
    return calendar.days((day.day,), capital=True) + ": " + "; ".join(parts)


def explain_bonus(player: str, majorities: tuple[Majority, ...]) -> str:
    """Return which majorities a player scored."""
    won = [m for m in majorities if player in m.holders]
    if not won:
        return str(gettext("%(name)s holds no majority.", name=player))
    tie = str(gettext("tie"))
    parts = [f"{m.value} ({tie})" if m.tied else f"{m.value}" for m in won]
    return str(
        gettext(
            "%(name)s has the most cards of: %(values)s = %(points)s", name=player, values=listed(parts), points=sum(m.value for m in won)
        )
    )


def scoreboard_of(game: Game, result: Result, calendar: Calendar) -> Scoreboard:
    """Return a 12 Days game's points in the shape the chart, CSV and share text read: a row per day, then the bonus."""
    players = game.player_names
    rows = [BoardRow(str(day.day), {p: points.whole(received[p]) for p in players}) for day, received in zip(result.days, result.rounds)]
    if result.majorities:
        rows.append(BoardRow(gettext("Bonus"), {p: points.whole(result.bonus[p]) for p in players}))
    return Scoreboard(
        kind=game.kind,
        stage=calendar.one,
        caption=gettext("Totals after each night") if calendar.nights else gettext("Totals after each day"),
        players=players,
        rows=tuple(rows),
        totals={p: points.whole(result.totals[p]) for p in players},
        winners=result.winners if result.complete else (),
        fewest_win=False,
    )


def _open_day(table: TwelveDaysTable) -> OpenDayView | None:
    """Return the day being played as the reveal buttons show it, or None after the last day."""
    current = table.current
    if current is None:
        return None
    left = copies_left(table.game.variant, current.played)
    return OpenDayView(
        index=current.index,
        number=current.index + 1,
        played=current.played,
        labels={player: card_label(card) for player, card in current.played.items()},
        claus_winner=gift_due(table),
        choices=tuple(CardChoice(token=card_token(card), label=card_label(card), left=count) for card, count in left.items()),
    )


def lay_out(game: Game, table: TwelveDaysTable) -> Sheet:
    """Lay out everything the 12 Days sheet shows of what the history adds up to."""
    players = table.game.players
    result = score_game(table.game)
    calendar = calendar_of(table.game.variant)
    last = table.game.variant.days
    days = []
    for day in result.days:
        decision = day.reveal
        played = table.game.days[day.day - 1]
        cells = []
        for player in players:
            card = played.played.get(player) if isinstance(played, PlayedDay) else None
            cells.append(
                DayCell(
                    card=card_label(card) if card is not None else "",
                    cancelled=decision is not None and card is not None and card_value(card) in decision.cancelled,
                    winner=decision is not None and decision.winner == player,
                    received=day.points if day.receiver == player else 0,
                )
            )
        days.append(
            DayRow(number=day.day, cells=tuple(cells), explanation=explain_day(day, calendar, last=day.day == last), quick=decision is None)
        )
    pot = result.pot
    return Sheet(
        variant=table.game.variant,
        result=result,
        days=tuple(days),
        latest=days[-1].explanation if days else "",
        open_day=_open_day(table),
        gift_question=str(gettext("Who do you give the day and the pot (%(pot)s) to?", pot=calendar.days(pot)))
        if pot
        else str(gettext("Who do you give the day to?")),
        pot_text=ngettext(
            "%(days)s goes to the next winner.", "%(days)s go to the next winner.", len(pot), days=calendar.days(pot, capital=True)
        )
        if pot
        else "",
        hands_needed=table.current is None and table.game.hands is None,
        hands_entered=table.hands,
        bonus_explanations={p: explain_bonus(p, result.majorities) for p in players},
        passes_to=passes_to(players),
        winners=result.winners if result.complete else (),
        board=scoreboard_of(game, result, calendar),
        calendar=calendar,
    )
