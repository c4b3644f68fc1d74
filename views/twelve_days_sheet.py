"""The 12 Days score sheet: revealed cards day by day, the pot, the final hands and the totals.

As for AURUXXX, views only turn taps into events; who wins a day, where the pot goes and
who scores a majority is decided by ``rules.twelve_days``. The module's names below the
imports are its side of ``views.sheets.SheetView``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

from flask import Blueprint, abort, request, url_for
from babel.lists import format_list
from flask_babel import get_locale, gettext, ngettext
from flask_babel import lazy_gettext as _l
from werkzeug.wrappers import Response

from models import Game, folded, history_of, table_of
from rules import points, twelve_days
from rules.games import Table
from rules.json_value import JSON
from rules.twelve_days import Card, Variant
from rules.twelve_days.history import TwelveDaysTable, revealed_on
from rules.twelve_days.history import final_hand as final_hand_of
from rules.twelve_days.record import serialise_day
from views import corrections
from views.addresses import game_or_404
from views.changes import UndoOffer, counted_from_one, undo_offer
from views.corrections import Correction, newest
from views.forms import is_whole
from views.render import answer_tap, go_to, page_or_fragment, render_sheet
from views.scoreboard import Row as BoardRow
from views.scoreboard import Scoreboard
from views.sheets import Choice, Option
from views.taps import draft_key, draft_of, drop_draft, keep_draft, keypad_seen, new_key, record_hand, record_tap, tap_key

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

TEMPLATE = "twelve_days/sheet.html"


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
    number = counted_from_one(payload, "day")
    texts: dict[str, Any] = {
        "card": _l("Day %(n)s: %(player)s revealed a card", n=number, player=player),
        "gift": _l("Day %(n)s: the Claus winner gives the day to %(player)s", n=number, player=player),
        "taken": _l("Day %(n)s: day card taken by %(player)s", n=number, player=player or _l("nobody")),
        "hand": _l("Final hand of %(player)s entered", player=player),
        "correct_day": _l("Day %(n)s corrected", n=number),
    }
    return str(texts.get(kind, kind))


def render(game: Game, *, problems: Sequence[str] = (), status: int = 200) -> Response:
    """Return the sheet as a page, or only its interactive part for htmx."""
    sheet = build_sheet(game)
    return render_sheet(
        TEMPLATE, game, sheet.board, problems=problems, status=status,
        sheet=sheet, version=sheet.version, players=list(sheet.players),
    )


def after_tap(game: Game, problems: Sequence[str]) -> Response:
    """Answer a tap on this game's sheet."""
    return answer_tap(problems, partial(render, game), url_for("games.sheet", token=game.token))


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
    undo: UndoOffer | None
    version: int
    """The number of the newest event: what the live stream compares against."""
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


def scoreboard(game: Game) -> Scoreboard:
    """Fold the game's history into its scoreboard."""
    table = table_of(game)
    assert isinstance(table, TwelveDaysTable)
    return scoreboard_of(game, twelve_days.score_game(table.game))


def _open_day(table: TwelveDaysTable) -> OpenDayView | None:
    """Return the day being played as the reveal buttons show it, or None after the last day."""
    current = table.current
    if current is None:
        return None
    players = table.game.players
    decision = twelve_days.reveal(current.played) if len(current.played) == len(players) else None
    shown = Counter(current.played.values())
    return OpenDayView(
        index=current.index,
        number=current.index + 1,
        played=current.played,
        labels={player: card_label(card) for player, card in current.played.items()},
        claus_winner=decision.winner if decision is not None and decision.claus_win else None,
        choices=tuple(
            CardChoice(token=card_token(card), label=card_label(card), left=table.game.variant.copies(card) - shown[card])
            for card in table.game.variant.cards
        ),
    )


def build_sheet(game: Game) -> Sheet:
    """Fold the history and lay out everything the 12 Days sheet shows."""
    history, folded_table = folded(game)
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
        undo=undo_offer(game, history),
        version=newest(history),
        passes_to=tuple((players[i], players[(i + 1) % len(players)]) for i in range(len(players))),
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
    game = game_or_404(token, kind=KIND)
    payload: dict[str, JSON] = {"day": _day(_variant(game).days), "player": _player(game), "card": parse_card(request.form.get("card", ""))}
    return after_tap(game, record_tap(game, "card", payload))


@bp.post("/g/<token>/gift")
def give_day(token: str) -> Response:
    """Record whom a Claus winner gives the day card(s) to."""
    game = game_or_404(token, kind=KIND)
    payload: dict[str, JSON] = {"day": _day(_variant(game).days), "player": _player(game)}
    return after_tap(game, record_tap(game, "gift", payload))


@bp.post("/g/<token>/clear-day")
def clear_day(token: str) -> Response:
    """Quick mode after cards were revealed: take today's cards back in one tap, each as an undo in the history."""
    game = game_or_404(token, kind=KIND)
    index = _day(_variant(game).days)
    history = history_of(game)
    table = _table(table_of(game))
    if table.current is None or table.current.index != index:
        return after_tap(game, [gettext("Only the cards of the day being played can be cleared.")])
    base = tap_key()[:50]
    problems: list[str] = []
    for seq in reversed(revealed_on(history, index)):
        problems = record_tap(game, "undo", {"event": seq}, key=f"{base}:{seq}")
        if problems:
            break
    return after_tap(game, problems)


@bp.post("/g/<token>/taken")
def take_day(token: str) -> Response:
    """Quick mode: record only who took the day card(s), or that nobody did."""
    game = game_or_404(token, kind=KIND)
    taker = request.form.get("player", "")
    payload = {"day": _day(_variant(game).days), "player": _player(game) if taker else None}
    return after_tap(game, record_tap(game, "taken", payload))


@bp.route("/g/<token>/final-hand/<int:seat>", methods=["GET", "POST"])
def final_hand(token: str, seat: int) -> Response:
    """Enter a player's final hand as counts per value, then record it.

    As on the AURUXXX keypad: a hand another phone saved meanwhile makes saving a choice,
    and counts not saved yet survive a reload on this phone.
    """
    game = game_or_404(token, kind=KIND)
    if not 0 <= seat < len(game.players):
        abort(404)
    player = game.player_names[seat]
    variant = _variant(game)
    history = history_of(game)
    table = _table(table_of(game))
    draft = draft_key(game, seat)
    counts: Counter[str] = Counter()
    problems: list[str] = []
    status = 200
    restored = False
    if request.method == "GET":
        kept = draft_of(draft)
        seen: int | None = newest(history)
        if kept is not None:
            counts = Counter({token: int(count) for token, count in kept.get("counts", {}).items() if isinstance(count, int)})
            seen = kept.get("seen") if isinstance(kept.get("seen"), int) else seen
            restored = True
        else:
            counts = Counter(card_token(card) for card in table.hands.get(player, ()))
    else:
        seen = keypad_seen()
        for card in variant.cards:
            value = request.form.get(f"count-{card_token(card)}", "0")
            counts[card_token(card)] = min(int(value), variant.copies(card)) if is_whole(value) else 0
        action = request.form.get("action", "")
        verb, _, target = action.partition(":")
        if action == "discard":
            drop_draft(draft)
            return go_to(url_for("games.sheet", token=game.token))
        if verb in ("more", "less") and target in {card_token(c) for c in variant.cards}:
            counts[target] = max(0, counts[target] + (1 if verb == "more" else -1))
        elif action == "save":
            cards: list[JSON] = [parse_card(token) for token, count in counts.items() for _ in range(count)]
            problems, status = record_hand(
                game, {"player": player, "cards": cards}, hand=lambda folded: final_hand_of(_table(folded), player), seen=seen
            )
            if status == 200:
                drop_draft(draft)
                return go_to(url_for("games.sheet", token=game.token))
        if status == 409:
            history = history_of(game)
            seen = newest(history)
        keep_draft(draft, {"counts": {token: count for token, count in counts.items() if count}, "seen": seen})
    theirs = None
    if status == 409:
        now = _table(table_of(game))
        theirs = " ".join(card_label(card) for card in sorted(now.hands.get(player, ()), key=twelve_days.card_value, reverse=True))
    held = sum(counts.values())
    return page_or_fragment(
        "twelve_days/hand.html",
        "hand",
        status=status if status == 409 else (422 if problems else 200),
        game=game,
        player=player,
        seat=seat,
        rows=[
            HandRow(token=card_token(card), label=card_label(card), count=counts[card_token(card)], limit=variant.copies(card))
            for card in reversed(variant.cards)
        ],
        held=held,
        hand_size=variant.hand_size,
        seen=seen,
        theirs=theirs,
        restored=restored,
        problems=problems,
        new_key=new_key,
        count_text=ngettext("%(num)s of %(size)s cards", "%(num)s of %(size)s cards", held, size=variant.hand_size),
    )


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
    played, gift_to, taken_by = written.get("played"), written.get("gift_to"), written.get("taken_by")
    return DayForm(
        played={p: str(c) for p, c in played.items()} if isinstance(played, dict) else {},
        gift_to=gift_to if isinstance(gift_to, str) else "",
        taken_by=taken_by if isinstance(taken_by, str) else "",
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


def _correct_day_page(
    game: Game,
    table: Table[Any],
    index: int,
    values: DayForm,
    seen: int,
    problems: list[str],
    status: int,
    stands_now: DayForm | None,
) -> Response:
    """Render the day-correction form filled in with ``values`` (the stored day, or what was refused, beside ``stands_now``)."""
    cards = [CardOption(token=card_token(c), label=card_label(c)) for c in _table(table).game.variant.cards]
    return page_or_fragment(
        "twelve_days/correct.html",
        "correct",
        status=status,
        seen=seen,
        game=game,
        number=index + 1,
        players=list(game.player_names),
        values=values,
        stands_now=stands_now,
        cards=cards,
        labels={card.token: card.label for card in cards},
        problems=problems,
        new_key=new_key,
    )


DAY_CORRECTION = Correction(
    event="correct_day",
    position="day",
    changed_meanwhile=lambda: gettext(
        "Someone else changed this day meanwhile. What you entered is still in the form; "
        "compare it with how the day stands now and save again."
    ),
    stored=_stored_day,
    read_form=_read_day_form,
    page=_correct_day_page,
)


@bp.route("/g/<token>/days/<int:number>/correct", methods=["GET", "POST"])
def correct_day(token: str, number: int) -> Response:
    """Correct a finished day; the pot and everything after it are worked out again."""
    return corrections.correct(game_or_404(token, kind=KIND), number, DAY_CORRECTION)
