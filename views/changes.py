"""A game's changes in words, and the earlier games of the same table."""

from __future__ import annotations

from typing import Any

from flask_babel import lazy_gettext as _l

from sqlalchemy import select

from models import Game, db


def describe_history(game: Game) -> list[dict[str, Any]]:
    """Return the game's events in words, newest first, marking those an undo took back."""
    undone = {event.payload.get("event") for event in game.events if event.kind == "undo"}
    entries = []
    for event in game.events:
        entries.append(
            {
                "seq": event.seq,
                "when": event.created_at,
                "text": describe_event(event.kind, event.payload),
                "undone": event.seq in undone,
                "undo": event.kind == "undo",
            }
        )
    return list(reversed(entries))


def describe_event(kind: str, payload: dict[str, Any]) -> str:
    """Return one change in words."""
    player = payload.get("player")
    number = (payload.get("round", payload.get("day", 0)) or 0) + 1
    texts: dict[str, Any] = {
        "pass": _l("Round %(n)s: pass cross for %(player)s", n=number, player=player),
        "happy_man": _l("Round %(n)s: %(player)s takes the Happy-Man figure", n=number, player=player),
        "finish": _l(
            "Round %(n)s: %(player)s ends it with %(g)s Golden 12", n=number, player=player, g=payload.get("golden12")
        ),
        "hand": _l("Round %(n)s: hand of %(player)s entered", n=number, player=player) if "round" in payload else _l("Final hand of %(player)s entered", player=player),
        "correct_round": _l("Round %(n)s corrected", n=number),
        "card": _l("Day %(n)s: %(player)s revealed a card", n=number, player=player),
        "gift": _l("Day %(n)s: the Claus winner gives the day to %(player)s", n=number, player=player),
        "taken": _l("Day %(n)s: day card taken by %(player)s", n=number, player=player or _l("nobody")),
        "correct_day": _l("Day %(n)s corrected", n=number),
        "import": _l("Game imported from a record"),
        "undo": _l("Change no. %(seq)s undone", seq=payload.get("event")),
        "rematch": _l("Rematch started"),
    }
    return str(texts.get(kind, kind))


def rematch_of(game: Game) -> Game | None:
    """Return the rematch started after this game, if there is one (there is never more than one)."""
    return db.session.scalar(select(Game).where(Game.previous_id == game.id))


def earlier_games(game: Game) -> list[Game]:
    """Return the games this one is a rematch of, most recent first: the table's evening so far."""
    earlier: list[Game] = []
    previous_id = game.previous_id
    while previous_id is not None and len(earlier) < 50:
        previous = db.session.get(Game, previous_id)
        if previous is None:
            break
        earlier.append(previous)
        previous_id = previous.previous_id
    return earlier
