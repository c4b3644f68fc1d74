"""The 12 Days score sheet: revealed cards day by day, the pot, the final hands and the totals.

As for AURUXXX, views only turn taps into events; who wins a day, where the pot goes and
who scores a majority is decided by ``rules.twelve_days``. The module's names below the
imports are its side of ``views.sheets.SheetView``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from babel.lists import format_list
from flask import Blueprint, abort, request
from flask_babel import get_locale, gettext, ngettext
from flask_babel import lazy_gettext as _l
from werkzeug.wrappers import Response

from models import Game, folded
from rules import points, twelve_days
from rules.games import JSON, Table
from rules.twelve_days import Card, Variant
from rules.twelve_days.history import TwelveDaysTable, clearing, gift_due
from rules.twelve_days.history import final_hand as final_hand_of
from rules.twelve_days.record import serialise_day
from views import corrections
from views.addresses import open_to_edit
from views.corrections import Correction
from views.forms import is_whole
from views.keypads import Keypad, enter_hand
from views.scoreboard import Row as BoardRow
from views.scoreboard import Scoreboard
from views.sheets import Choice, Option
from views.taps import Tapped, after_tap, record_tap, record_taps

KIND = twelve_days.KIND
FOLDER = "twelve_days"
SEATS = max(variant.max_players for variant in twelve_days.VARIANTS.values())
OPTIONS = (
    Option(
        "variant",
        _l("Which way do you play?"),
        "",
        (
            Choice(twelve_days.STANDARD.name, _l("12 Days (3–5 players)")),
            Choice(twelve_days.EIGHT_NIGHTS.name, _l("8 Nights (3–4 players, cards 1–8)")),
            Choice(twelve_days.EIGHT_PLAYERS.name, _l("8 Players (6–8 players, two decks)")),
        ),
        twelve_days.STANDARD.name,
    ),
)
"""The variant, the one choice the new-game form asks for."""

bp = Blueprint("twelve_days", __name__)


def card_label(card: Card | None) -> str:
    """Return a card as the sheet shows it."""
    if card is None:
        return "–"
    if card == twelve_days.SANTA:
        return "Santa"
    if card == twelve_days.MRS_CLAUS:
        return "Mrs. Claus"
    return str(card)


def card_token(card: Card) -> str:
    """Return a card as a form sends it."""
    return str(card)


def parse_card(value: str) -> Card | str:
    """Return the card a form names (a number or a Claus); anything else is passed on for the rules to refuse."""
    if is_whole(value):
        return int(value)
    if value in twelve_days.CLAUS_CARDS:
        return twelve_days.SANTA if value == twelve_days.SANTA else twelve_days.MRS_CLAUS
    return value


def listed(items: Sequence[str]) -> str:
    """Return items as the reader lists them: "4 and 5" in English, "4 und 5" in German."""
    return format_list(list(items), locale=get_locale() or "de")


def days_text(days: tuple[int, ...], *, capital: bool = False) -> str:
    """Return day numbers in words: "day 4" or "days 4 and 5" ("Day 4" to begin a sentence)."""
    if len(days) == 1:
        text = str(gettext("day %(n)s", n=days[0]))
    else:
        text = str(gettext("days %(days)s", days=listed([str(day) for day in days])))
    return text[:1].upper() + text[1:] if capital else text


# --- The protocol the shared pages use ---------------------------------------------------------


def setup_from_form(settings: Mapping[str, str]) -> dict[str, JSON]:
    """Return the variant the form's settings choose."""
    return {"variant": settings["variant"]}


def rematch(game: Game) -> int:
    """Return who deals first in a rematch: 12 Days keeps no dealer, so the seat stays as it was."""
    return game.first_dealer


def describe_event(kind: str, payload: Mapping[str, JSON]) -> str:
    """Return one 12 Days change in words."""
    player = payload.get("player")
    number = (payload.get("day") or 0) + 1
    texts: dict[str, Any] = {
        "card": _l("Day %(n)s: %(player)s revealed a card", n=number, player=player),
        "gift": _l("Day %(n)s: the Claus winner gives the day to %(player)s", n=number, player=player),
        "taken": _l("Day %(n)s: day card taken by %(player)s", n=number, player=player or _l("nobody")),
        "hand": _l("Final hand of %(player)s entered", player=player),
        "correct_day": _l("Day %(n)s corrected", n=number),
    }
    return str(texts.get(kind, kind))


# --- The sheet ---------------------------------------------------------------------------------


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
class HandRow:
    """One value on the final-hand form: how many of it the player holds, and at most may hold."""

    token: str
    label: str
    count: int
    limit: int


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
    """Everything the 12 Days sheet shows, worked out once per request."""

    table: TwelveDaysTable
    variant: Variant
    players: tuple[str, ...]
    result: twelve_days.Result
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


def explain_day(day: twelve_days.DayResult) -> str:
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


def explain_bonus(player: str, majorities: tuple[twelve_days.Majority, ...]) -> str:
    """Return which majorities a player scored."""
    won = [m for m in majorities if player in m.holders]
    if not won:
        return str(gettext("%(name)s holds no majority.", name=player))
    tie = str(gettext("tie"))
    parts = [f"{m.value} ({tie})" if m.tied else f"{m.value}" for m in won]
    return str(gettext("%(name)s has the most cards of: %(values)s = %(points)s", name=player, values=listed(parts), points=sum(m.value for m in won)))


def scoreboard_of(game: Game, result: twelve_days.Result) -> Scoreboard:
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
    left = twelve_days.copies_left(table.game.variant, current.played)
    return OpenDayView(
        index=current.index,
        number=current.index + 1,
        played=current.played,
        labels={player: card_label(card) for player, card in current.played.items()},
        claus_winner=gift_due(table),
        choices=tuple(CardChoice(token=card_token(card), label=card_label(card), left=count) for card, count in left.items()),
    )


def lay_out(game: Game, folded_table: Table[Any]) -> Sheet:
    """Lay out everything the 12 Days sheet shows of what the history adds up to."""
    table = _table(folded_table)
    players = table.game.players
    result = twelve_days.score_game(table.game)
    days = []
    for day in result.days:
        decision = day.reveal
        played = table.game.days[day.day - 1]
        cells = []
        for player in players:
            card = played.played.get(player) if isinstance(played, twelve_days.PlayedDay) else None
            cells.append(
                DayCell(
                    card=card_label(card) if card is not None else "",
                    cancelled=decision is not None and card is not None and twelve_days.card_value(card) in decision.cancelled,
                    winner=decision is not None and decision.winner == player,
                    received=day.points if day.receiver == player else 0,
                )
            )
        days.append(DayRow(number=day.day, cells=tuple(cells), explanation=explain_day(day), quick=decision is None))
    pot = result.pot
    return Sheet(
        table=table,
        variant=table.game.variant,
        players=players,
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
        passes_to=twelve_days.passes_to(players),
        winners=result.winners if result.complete else (),
        board=scoreboard_of(game, result),
    )


def _table(table: Table[Any]) -> TwelveDaysTable:
    """Return a folded 12 Days history as what it is (this module only sees 12 Days games)."""
    assert isinstance(table, TwelveDaysTable)
    return table


# --- Taps on the sheet -------------------------------------------------------------------------


def _player(game: Game, field: str = "player") -> str:
    """Return the player a form names, refusing a name that is not at this table."""
    name = request.form.get(field, "")
    if name not in game.player_names:
        abort(400, description=gettext("Unknown player."))
    return name


def _day(variant_days: int) -> int:
    """Return the day a form was filled in for (the rules refuse any but the open one)."""
    value = request.form.get("day", "")
    if not is_whole(value) or int(value) >= variant_days:
        abort(400, description=gettext("Unknown day."))
    return int(value)


def _variant(game: Game) -> Variant:
    """Return the game's variant."""
    return twelve_days.find_variant(game.variant)


@bp.post("/g/<token>/card")
def reveal_card(token: str) -> Response:
    """Record the card a player revealed today; the day resolves when the last card is in."""
    game, viewer = open_to_edit(token, kind=KIND)
    payload = {"day": _day(_variant(game).days), "player": _player(game), "card": parse_card(request.form.get("card", ""))}
    return after_tap(game, viewer, record_tap(game, "card", payload))


@bp.post("/g/<token>/gift")
def give_day(token: str) -> Response:
    """Record whom a Claus winner gives the day card(s) to."""
    game, viewer = open_to_edit(token, kind=KIND)
    payload = {"day": _day(_variant(game).days), "player": _player(game)}
    return after_tap(game, viewer, record_tap(game, "gift", payload))


@bp.post("/g/<token>/clear-day")
def clear_day(token: str) -> Response:
    """Quick mode after cards were revealed: take today's cards back in one tap, as undos stored together in the history."""
    game, viewer = open_to_edit(token, kind=KIND)
    index = _day(_variant(game).days)
    now = folded(game)
    table = _table(now.table)
    if table.current is None or table.current.index != index:
        refused = Tapped(now, (gettext("Only the cards of the day being played can be cleared."),))
        return after_tap(game, viewer, refused, refused_at="quick")
    undos = clearing(now.history, index)
    return after_tap(game, viewer, record_taps(game, undos) if undos else Tapped(now), refused_at="quick")


@bp.post("/g/<token>/taken")
def take_day(token: str) -> Response:
    """Quick mode: record only who took the day card(s), or that nobody did."""
    game, viewer = open_to_edit(token, kind=KIND)
    taker = request.form.get("player", "")
    payload = {"day": _day(_variant(game).days), "player": _player(game) if taker else None}
    return after_tap(game, viewer, record_tap(game, "taken", payload))


@dataclass(frozen=True)
class CountedCards:
    """What the final-hand keypad shows: how many cards of each value the hand holds, and how many the deck has."""

    counts: Mapping[str, int]
    limits: Mapping[str, int]
    """The copies of each card in the variant's deck, by card token."""

    def pressed(self, action: str) -> CountedCards:
        """Return the keypad after one card of a value more, or one less."""
        verb, _, target = action.partition(":")
        if verb in ("more", "less") and target in self.limits:
            count = max(0, self.counts.get(target, 0) + (1 if verb == "more" else -1))
            return replace(self, counts={**self.counts, target: count})
        return self

    def draft(self) -> dict[str, JSON]:
        """Return what a phone keeps of an unsaved keypad: the counts that are not 0."""
        return {"counts": {token: count for token, count in self.counts.items() if count}}


def _limits(table: TwelveDaysTable) -> dict[str, int]:
    """Return how many copies of each card the game's deck holds, by card token, lowest card first."""
    return {card_token(card): table.game.variant.copies(card) for card in table.game.variant.cards}


def _stored_cards(table: TwelveDaysTable, player: str) -> CountedCards:
    """Return the keypad for a final hand entered earlier, so it can be changed."""
    return CountedCards(Counter(card_token(card) for card in table.hands.get(player, ())), _limits(table))


def _kept_cards(draft: Mapping[str, Any], table: TwelveDaysTable) -> CountedCards:
    """Return the keypad as this phone kept it unsaved."""
    counts = {token: int(count) for token, count in draft.get("counts", {}).items() if isinstance(count, int)}
    return CountedCards(counts, _limits(table))


def _posted_cards(form: Mapping[str, str], table: TwelveDaysTable) -> tuple[CountedCards, list[str]]:
    """Return the counts the form carries, each at most the copies the deck has (anything else counts 0)."""
    limits = _limits(table)
    counts = {
        token: min(int(value), limit) if is_whole(value := form.get(f"count-{token}", "0")) else 0 for token, limit in limits.items()
    }
    return CountedCards(counts, limits), []


def _written_cards(entry: CountedCards, action: str, player: str, form: Mapping[str, str]) -> tuple[dict[str, JSON], list[str]]:
    """Return the ``hand`` event of the keypad: every card it counts."""
    return {"player": player, "cards": [parse_card(token) for token, count in entry.counts.items() for _ in range(count)]}, []


def _their_cards(table: TwelveDaysTable, entry: CountedCards, player: str, action: str, form: Mapping[str, str]) -> str:
    """Return the words of the choice after another phone saved this final hand: its cards, highest first."""
    cards = " ".join(card_label(card) for card in sorted(table.hands.get(player, ()), key=twelve_days.card_value, reverse=True))
    return str(gettext("Another phone saved the hand of %(name)s meanwhile: %(cards)s.", name=player, cards=cards or "–"))


def _shown_cards(entry: CountedCards, table: TwelveDaysTable, action: str) -> dict[str, object]:
    """Return what the keypad page shows: a row per value (highest first), how many cards it holds and should hold."""
    variant = table.game.variant
    held = sum(entry.counts.values())
    return {
        "rows": [
            HandRow(token=card_token(card), label=card_label(card), count=entry.counts.get(card_token(card), 0), limit=variant.copies(card))
            for card in reversed(variant.cards)
        ],
        "held": held,
        "hand_size": variant.hand_size,
        "count_text": ngettext("%(num)s of %(size)s cards", "%(num)s of %(size)s cards", held, size=variant.hand_size),
    }


FINAL_HAND_KEYPAD: Keypad[TwelveDaysTable, CountedCards] = Keypad(
    template="twelve_days/hand.html",
    table=_table,
    opens=lambda table, player: True,
    position=lambda table: None,
    stored=_stored_cards,
    kept=_kept_cards,
    posted=_posted_cards,
    written=_written_cards,
    part=lambda table, player, form: final_hand_of(table, player),
    theirs=_their_cards,
    shown=_shown_cards,
)
"""The final-hand keypad: a count per card value; a final hand can be entered at any time."""


@bp.route("/g/<token>/final-hand/<int:seat>", methods=["GET", "POST"])
def final_hand(token: str, seat: int) -> Response:
    """Enter a player's final hand as counts per value, then record it (``views.keypads``)."""
    return enter_hand(*open_to_edit(token, kind=KIND), seat, FINAL_HAND_KEYPAD)


# --- Correcting a finished day -----------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class DayForm:
    """What the day-correction form shows: the stored day, or what was entered into it."""

    played: Mapping[str, str]
    """The card token each player revealed; empty for a day entered quickly."""
    gift_to: str
    taken_by: str
    quick: bool
    """Whether the form shows only who took the day."""


def _day_form(written: Mapping[str, JSON]) -> DayForm:
    """Return the form's values for a day as the record writes it."""
    return DayForm(
        played={p: card_token(c) for p, c in written.get("played", {}).items()},
        gift_to=written.get("gift_to") or "",
        taken_by=written.get("taken_by") or "",
        quick="taken_by" in written,
    )


def _stored_day(table: Table[Any], index: int) -> DayForm:
    """Return the form's values for a finished day."""
    game = _table(table).game
    return _day_form(serialise_day(game.days[index], game.players))


def _read_day_form(game: Game, table: Table[Any], index: int) -> tuple[JSON, DayForm, list[str]]:
    """Return the corrected day as a record day, and the form as filled in."""
    corrected: dict[str, JSON]
    if request.form.get("mode") == "taken":
        corrected = {"taken_by": request.form.get("taken_by", "") or None}
    else:
        corrected = {"played": {p: parse_card(request.form.get(f"card-{seat}", "")) for seat, p in enumerate(game.player_names)}}
        gift = request.form.get("gift_to", "")
        if gift:
            corrected["gift_to"] = gift
    return corrected, _day_form(corrected), []


def _day_offers(table: Table[Any], index: int) -> dict[str, object]:
    """Return what the day-correction form offers: the variant's cards, and how each is shown."""
    cards = [CardOption(token=card_token(c), label=card_label(c)) for c in _table(table).game.variant.cards]
    return {"cards": cards, "labels": {card.token: card.label for card in cards}}


DAY_CORRECTION = Correction(
    event="correct_day",
    position="day",
    template="twelve_days/correct.html",
    changed_meanwhile=lambda: gettext(
        "Someone else changed this day meanwhile. What you entered is still in the form; "
        "compare it with how the day stands now and save again."
    ),
    stored=_stored_day,
    read_form=_read_day_form,
    offers=_day_offers,
)


@bp.route("/g/<token>/days/<int:number>/correct", methods=["GET", "POST"])
def correct_day(token: str, number: int) -> Response:
    """Correct a finished day; the pot and everything after it are worked out again."""
    return corrections.correct(*open_to_edit(token, kind=KIND), number, DAY_CORRECTION)
