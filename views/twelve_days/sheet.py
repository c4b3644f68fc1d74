"""The 12 Days sheet's view model: revealed cards day by day, the pot, the final hands and the totals.

Who wins a day, where the pot goes and who scores a majority is decided by
``rules.twelve_days``; this module only lays it out, in the reader's language. Its card
words (``card_label``, ``card_token``, ``parse_card``) serve the game's forms too.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from babel.lists import format_list
from flask_babel import gettext, ngettext
from flask_babel import lazy_gettext as _l

from models import Game
from rules import points
from rules.json_value import JSON
from rules.twelve_days.history import TwelveDaysTable, gift_due
from rules.twelve_days.score import (
    CLAUS_CARDS,
    MRS_CLAUS,
    SANTA,
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
from views.forms import is_whole
from views.language import current_language
from views.scoreboard import Row as BoardRow
from views.scoreboard import Scoreboard
from views.sheets import counted_from_one


def card_label(card: Card | None) -> str:
    """Return a card as the sheet shows it."""
    if card is None:
        return "–"
    if card == SANTA:
        return "Santa"
    if card == MRS_CLAUS:
        return "Mrs. Claus"
    return str(card)


def card_token(card: Card) -> str:
    """Return a card as a form sends it."""
    return str(card)


def parse_card(value: str) -> Card | str:
    """Return the card a form names (a number or a Claus); anything else is passed on for the rules to refuse."""
    if is_whole(value):
        return int(value)
    if value in CLAUS_CARDS:
        return SANTA if value == SANTA else MRS_CLAUS
    return value


def listed(items: Sequence[str]) -> str:
    """Return items as the reader lists them: "4 and 5" in English, "4 und 5" in German."""
    return format_list(list(items), locale=current_language())


def days_text(days: tuple[int, ...], *, capital: bool = False) -> str:
    """Return day numbers in words: "day 4" or "days 4 and 5" ("Day 4" to begin a sentence)."""
    if len(days) == 1:
        text = str(gettext("day %(n)s", n=days[0]))
    else:
        text = str(gettext("days %(days)s", days=listed([str(day) for day in days])))
    return text[:1].upper() + text[1:] if capital else text


def describe_event(kind: str, payload: Mapping[str, JSON]) -> str:
    """Return one 12 Days change in words."""
    player = payload.get("player")
    number = counted_from_one(payload, "day")
    texts: dict[str, Any] = {
        "card": _l("Day %(n)s: %(player)s revealed a card", n=number, player=player),
        "gift": _l("Day %(n)s: the Claus winner gives the day to %(player)s", n=number, player=player),
        "taken": _l("Day %(n)s: day card taken by %(player)s", n=number, player=player or _l("nobody")),
        "hand": _l("Final hand of %(player)s entered", player=player),
        "correct_day": _l("Day %(n)s corrected", n=number),
    }
    return str(texts.get(kind, kind))


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
class CardOption:
    """A card as a form offers it."""

    token: str
    label: str


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
    lost_text: str
    hands_needed: bool
    hands_entered: Mapping[str, tuple[Card, ...]]
    bonus_explanations: Mapping[str, str]
    passes_to: tuple[tuple[str, str], ...]
    """Who passes a card to whom: everyone to the next player, the last to the first."""
    winners: tuple[str, ...]
    board: Scoreboard


def explain_day(day: DayResult) -> str:
    """Return how a day was decided, in words."""
    parts: list[str] = []
    decision = day.reveal
    if decision is not None:
        if decision.cancelled:
            cancelled = listed(["Claus" if value == 0 else str(value) for value in sorted(decision.cancelled)])
            parts.append(str(gettext("cancelled: %(values)s", values=cancelled)))
        if decision.winner is not None:
            parts.append(
                str(gettext("%(name)s wins with %(card)s", name=decision.winner, card=card_label(decision.winning_card)))
            )
            if decision.claus_win and day.receiver is not None:
                parts.append(str(gettext("the Claus gives it to %(name)s", name=day.receiver)))
    if day.receiver is None:
        parts.append(str(gettext("nobody wins: %(days)s waits in the pot", days=days_text((day.day,)))))
    else:
        parts.append(
            str(gettext("%(name)s takes %(days)s: +%(points)s", name=day.receiver, days=days_text(day.days_taken), points=day.points))
        )
    return str(gettext("Day %(n)s", n=day.day)) + ": " + "; ".join(parts)


def explain_bonus(player: str, majorities: tuple[Majority, ...]) -> str:
    """Return which majorities a player scored."""
    won = [m for m in majorities if player in m.holders]
    if not won:
        return str(gettext("%(name)s holds no majority.", name=player))
    tie = str(gettext("tie"))
    parts = [f"{m.value} ({tie})" if m.tied else f"{m.value}" for m in won]
    return str(gettext("%(name)s has the most cards of: %(values)s = %(points)s", name=player, values=listed(parts), points=sum(m.value for m in won)))


def scoreboard_of(game: Game, result: Result) -> Scoreboard:
    """Return a 12 Days game's points in the shape the chart, CSV and share text read: a row per day, then the bonus."""
    players = game.player_names
    rows = [
        BoardRow(str(day.day), {p: points.whole(received[p]) for p in players}) for day, received in zip(result.days, result.rounds)
    ]
    if result.majorities:
        rows.append(BoardRow(gettext("Bonus"), {p: points.whole(result.bonus[p]) for p in players}))
    return Scoreboard(
        kind=game.kind,
        stage=gettext("Day"),
        caption=gettext("Totals after each day"),
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
        days.append(DayRow(number=day.day, cells=tuple(cells), explanation=explain_day(day), quick=decision is None))
    pot = result.pot
    return Sheet(
        variant=table.game.variant,
        result=result,
        days=tuple(days),
        latest=days[-1].explanation if days else "",
        open_day=_open_day(table),
        pot_text=ngettext("%(days)s goes to the next winner.", "%(days)s go to the next winner.", len(pot), days=days_text(pot, capital=True)) if pot else "",
        lost_text=ngettext(
            "%(days)s went to nobody: %(points)s points are lost.",
            "%(days)s went to nobody: %(points)s points are lost.",
            len(result.days[-1].pot_after),
            days=days_text(result.days[-1].pot_after, capital=True),
            points=result.lost,
        ) if result.lost else "",
        hands_needed=table.current is None and table.game.hands is None,
        hands_entered=table.hands,
        bonus_explanations={p: explain_bonus(p, result.majorities) for p in players},
        passes_to=passes_to(players),
        winners=result.winners if result.complete else (),
        board=scoreboard_of(game, result),
    )
