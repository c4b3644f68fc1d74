"""The 12 Days score sheet: revealed cards day by day, the pot, the final hands and the totals.

As for AURUXXX, views only turn taps into events; who wins a day, where the pot goes and
who scores a majority is decided by ``rules.twelve_days``.
"""

from __future__ import annotations

from collections import Counter
from functools import partial
from dataclasses import dataclass
from typing import Any

from flask import Blueprint, abort, request, url_for
from flask_babel import gettext, ngettext
from werkzeug.wrappers import Response

from models import Game, history_of, table_of
from rules import points, record, twelve_days
from rules.history import TwelveDaysTable, finished_part, fold, last_change, revealed_on
from rules.twelve_days import Card, Variant
from views.changes import describe_event
from views.render import answer_tap, go_to, page_or_fragment, render_sheet
from views.scoreboard import Row, Scoreboard
from views.table import (
    draft_key, draft_of, drop_draft, form_seen, game_or_404, is_whole, keep_draft, keypad_seen, new_key, record_correction,
    record_hand, record_tap, tap_key,
)

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


def days_text(days: tuple[int, ...], *, capital: bool = False) -> str:
    """Return day numbers in words: "day 4" or "days 4 and 5" ("Day 4" to begin a sentence)."""
    if len(days) == 1:
        text = str(gettext("day %(n)s", n=days[0]))
    else:
        listed = ", ".join(str(d) for d in days[:-1])
        text = str(gettext("days %(listed)s and %(last)s", listed=listed, last=days[-1]))
    return text[:1].upper() + text[1:] if capital else text


@dataclass(frozen=True)
class DayCell:
    """One player's card and points on one finished day."""

    card: str
    cancelled: bool
    winner: bool
    received: int


def explain_day(day: twelve_days.DayResult, players: tuple[str, ...]) -> str:
    """Return how a day was decided, in words."""
    parts: list[str] = []
    decision = day.reveal
    if decision is not None:
        if decision.cancelled:
            cancelled = ", ".join("Claus" if value == 0 else str(value) for value in sorted(decision.cancelled))
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
    return str(gettext("%(name)s has the most cards of: %(values)s = %(points)s", name=player, values=", ".join(parts), points=sum(m.value for m in won)))


def scoreboard_of(game: Game, result: twelve_days.Result) -> Scoreboard:
    """Return a 12 Days game's points in the shape the chart, CSV and share text read: a row per day, then the bonus."""
    players = game.player_names
    rows = [
        Row(str(day.day), {p: points.whole(received[p]) for p in players}) for day, received in zip(result.days, result.rounds)
    ]
    if result.majorities:
        rows.append(Row(gettext("Bonus"), {p: points.whole(result.bonus[p]) for p in players}))
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


def build(game: Game) -> dict[str, Any]:
    """Fold the history and lay out everything the 12 Days sheet shows."""
    history = history_of(game)
    table = fold(game.setup, history)
    assert isinstance(table, TwelveDaysTable)
    players = table.game.players
    variant = table.game.variant
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
        days.append({"number": day.day, "cells": cells, "explanation": explain_day(day, players), "quick": decision is None})
    current = table.current
    open_day: dict[str, Any] | None = None
    if current is not None:
        decision = twelve_days.reveal(current.played) if len(current.played) == len(players) else None
        shown = Counter(current.played.values())
        open_day = {
            "index": current.index,
            "number": current.index + 1,
            "played": current.played,
            "labels": {player: card_label(card) for player, card in current.played.items()},
            "claus_winner": decision.winner if decision is not None and decision.claus_win else None,
            "choices": [
                {"token": card_token(card), "label": card_label(card), "left": variant.copies(card) - shown[card]}
                for card in variant.cards
            ],
        }
    change = last_change(history)
    undo = {"seq": change.seq, "text": describe_event(change.kind, dict(change.payload))} if change else None
    pot = result.pot
    return {
        "table": table,
        "variant": variant,
        "players": list(players),
        "result": result,
        "days": days,
        "latest": days[-1]["explanation"] if days else "",
        "open_day": open_day,
        "pot_text": ngettext("%(days)s goes to the next winner.", "%(days)s go to the next winner.", len(pot), days=days_text(pot, capital=True)) if pot else "",
        "lost_text": ngettext(
            "%(days)s went to nobody: %(points)s points are lost.",
            "%(days)s went to nobody: %(points)s points are lost.",
            len(result.days[-1].pot_after),
            days=days_text(result.days[-1].pot_after, capital=True),
            points=result.lost,
        ) if result.lost else "",
        "hands_needed": current is None and table.game.hands is None,
        "hands_entered": table.hands,
        "bonus_explanations": {p: explain_bonus(p, result.majorities) for p in players},
        "undo": undo,
        "version": history[-1].seq if history else 0,
        "passes_to": [(players[i], players[(i + 1) % len(players)]) for i in range(len(players))],
        "winners": result.winners if result.complete else (),
        "board": scoreboard_of(game, result),
    }


def render(game: Game, *, problems: list[str] | None = None, status: int = 200) -> Response:
    """Return the sheet as a page, or only its interactive part for htmx."""
    laid_out = build(game)
    return render_sheet(TEMPLATE, game, laid_out.pop("board"), problems=problems, status=status, **laid_out)


def after_tap(game: Game, problems: list[str]) -> Response:
    """Answer a tap on this game's sheet."""
    return answer_tap(problems, partial(render, game), url_for("games.sheet", token=game.token))


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
    game = game_or_404(token)
    payload = {"day": _day(_variant(game).days), "player": _player(game), "card": parse_card(request.form.get("card", ""))}
    return after_tap(game, record_tap(game, "card", payload))


@bp.post("/g/<token>/gift")
def give_day(token: str) -> Response:
    """Record whom a Claus winner gives the day card(s) to."""
    game = game_or_404(token)
    payload = {"day": _day(_variant(game).days), "player": _player(game)}
    return after_tap(game, record_tap(game, "gift", payload))


@bp.post("/g/<token>/clear-day")
def clear_day(token: str) -> Response:
    """Quick mode after cards were revealed: take today's cards back in one tap, each as an undo in the history."""
    game = game_or_404(token)
    index = _day(_variant(game).days)
    history = history_of(game)
    table = fold(game.setup, history)
    assert isinstance(table, TwelveDaysTable)
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
    game = game_or_404(token)
    taker = request.form.get("player", "")
    payload = {"day": _day(_variant(game).days), "player": _player(game) if taker else None}
    return after_tap(game, record_tap(game, "taken", payload))


@bp.route("/g/<token>/final-hand/<int:seat>", methods=["GET", "POST"])
def final_hand(token: str, seat: int) -> Response:
    """Enter a player's final hand as counts per value, then record it.

    As on the AURUXXX keypad: a hand another phone saved meanwhile makes saving a choice,
    and counts not saved yet survive a reload on this phone.
    """
    game = game_or_404(token)
    if not 0 <= seat < len(game.players):
        abort(404)
    player = game.player_names[seat]
    variant = _variant(game)
    history = history_of(game)
    table = fold(game.setup, history)
    assert isinstance(table, TwelveDaysTable)
    draft = draft_key(game, seat)
    counts: Counter[str] = Counter()
    problems: list[str] = []
    status = 200
    restored = False
    if request.method == "GET":
        kept = draft_of(draft)
        seen: int | None = history[-1].seq if history else 0
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
            cards = [parse_card(token) for token, count in counts.items() for _ in range(count)]
            problems, status = record_hand(game, {"player": player, "cards": cards}, player=player, index=None, seen=seen)
            if status == 200:
                drop_draft(draft)
                return go_to(url_for("games.sheet", token=game.token))
        if status == 409:
            history = history_of(game)
            seen = history[-1].seq if history else 0
        keep_draft(draft, {"counts": {token: count for token, count in counts.items() if count}, "seen": seen})
    theirs = None
    if status == 409:
        now = fold(game.setup, history)
        assert isinstance(now, TwelveDaysTable)
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
            {"token": card_token(card), "label": card_label(card), "count": counts[card_token(card)], "limit": variant.copies(card)}
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


@bp.route("/g/<token>/days/<int:number>/correct", methods=["GET", "POST"])
def correct_day(token: str, number: int) -> Response:
    """Correct a finished day; the pot and everything after it are worked out again."""
    game = game_or_404(token)
    table = table_of(game)
    assert isinstance(table, TwelveDaysTable)
    index = number - 1
    if not 0 <= index < len(table.game.days):
        abort(404)
    players = list(game.player_names)
    if request.method == "GET":
        return _correct_day_page(game, number, record.serialise_twelve_days_day(table.game.days[index], tuple(players)), [], 200)
    seen = form_seen()
    if request.form.get("mode") == "taken":
        taker = request.form.get("taken_by", "")
        corrected: dict[str, Any] = {"taken_by": taker or None}
    else:
        corrected = {"played": {p: parse_card(request.form.get(f"card-{seat}", "")) for seat, p in enumerate(players)}}
        gift = request.form.get("gift_to", "")
        if gift:
            corrected["gift_to"] = gift
    problems, status = record_correction(
        game, "correct_day", {"day": index, "record": corrected}, index=index, seen=seen,
        stale=gettext(
            "Someone else changed this day meanwhile. What you entered is still in the form; "
            "compare it with how the day stands now and save again."
        ),
    )
    if not problems:
        return go_to(url_for("games.sheet", token=game.token))
    if status != 409:
        return _correct_day_page(game, number, corrected, problems, status, seen=seen)
    history = history_of(game)
    now = finished_part(fold(game.setup, history), index)
    if not isinstance(now, (twelve_days.PlayedDay, twelve_days.TakenDay)):
        return go_to(url_for("games.sheet", token=game.token))
    stands_now = _day_values(record.serialise_twelve_days_day(now, tuple(players)))
    return _correct_day_page(game, number, corrected, problems, status, seen=history[-1].seq, stands_now=stands_now)


def _day_values(written: dict[str, Any]) -> dict[str, Any]:
    """Return a day record as the correction form's fields hold it (card tokens, empty for "nobody")."""
    return {
        "played": {p: card_token(c) for p, c in written.get("played", {}).items()},
        "gift_to": written.get("gift_to") or "",
        "taken_by": written.get("taken_by") or "",
        "quick": "taken_by" in written,
    }


def _correct_day_page(
    game: Game,
    number: int,
    written: dict[str, Any],
    problems: list[str],
    status: int,
    *,
    seen: int | None = None,
    stands_now: dict[str, Any] | None = None,
) -> Response:
    """Render the day-correction form filled in with ``written`` (the stored day, or what was just refused).

    ``seen`` defaults to the newest change; ``stands_now`` is the day as it stands, shown beside what was typed.
    """
    players = list(game.player_names)
    if seen is None:
        history = history_of(game)
        seen = history[-1].seq if history else 0
    cards = [{"token": card_token(c), "label": card_label(c)} for c in _variant(game).cards]
    labels = {card["token"]: card["label"] for card in cards}
    return page_or_fragment(
        "twelve_days/correct.html",
        "correct",
        status=status,
        seen=seen,
        game=game,
        number=number,
        players=players,
        cards=cards,
        labels=labels,
        stands_now=stands_now,
        problems=problems,
        new_key=new_key,
        **_day_values(written),
    )
