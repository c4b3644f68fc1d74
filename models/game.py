"""A game at one table and the players sitting at it."""

import copy
import secrets
from collections.abc import Mapping
from datetime import datetime
from typing import Any

from sqlalchemy import JSON, CheckConstraint, ForeignKey, Index, String, UniqueConstraint
from sqlalchemy import false as sa_false
from sqlalchemy.orm import Mapped, mapped_column, relationship, validates

from models.base import Base, UTCDateTime, utc_now
from rules import json_value
from rules.games import find_game

NAME_MAX_LENGTH = 40


def new_token() -> str:
    """Return an unguessable token: knowing it is what lets a phone join a game."""
    return secrets.token_urlsafe(24)


class CardTable(Base):
    """The table a game and its rematches are played at: its address, like a card on the table, outlives one game."""

    __tablename__ = "card_tables"

    id: Mapped[int] = mapped_column(primary_key=True)
    token: Mapped[str] = mapped_column(String(64), unique=True, default=new_token)
    """The table address: whoever knows it joins the table's current game with edit rights. It can be replaced."""
    name: Mapped[str | None] = mapped_column(String(NAME_MAX_LENGTH))
    """What the table card calls the table; None until someone names it."""
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utc_now)

    def __repr__(self) -> str:
        """Show the table without revealing its token."""
        return f"<CardTable {self.id}>"


class Game(Base):
    """One game at one table, reachable only through its unguessable token."""

    __tablename__ = "games"
    __table_args__ = (Index("uq_games_previous_id", "previous_id", unique=True),)

    id: Mapped[int] = mapped_column(primary_key=True)
    token: Mapped[str] = mapped_column(String(64), unique=True, default=new_token)
    """The edit address: whoever knows it may change the game. The creator can replace it."""
    read_token: Mapped[str | None] = mapped_column(String(64), unique=True, index=True, default=new_token)
    """The read-only address, for a TV or onlookers: it shows the live sheet and changes nothing."""
    kind: Mapped[str] = mapped_column(String(16))
    options: Mapped[dict[str, json_value.JSON]] = mapped_column(JSON, default=dict)
    """What the table chose when it started the game: the record's options (a variant, house rules) and
    whatever else the game's views keep (who dealt first), by name. Each game knows its own."""
    previous_id: Mapped[int | None] = mapped_column(ForeignKey("games.id"))
    """The game this one is a rematch of: together they are the evening at one table.

    Unique: a game has at most one rematch, so two phones tapping "rematch" at once start one game.
    """
    address_retired: Mapped[bool] = mapped_column(default=False, server_default=sa_false())
    """Whether new addresses were made at the table after this game was followed: its edit address then shows this
    game only, read-only, and hands out none of the table's newer addresses (the running game's, the table's)."""
    card_table_id: Mapped[int] = mapped_column(ForeignKey("card_tables.id"), index=True, nullable=True)
    """The table this game is played at. Every game has one; the column is nullable only because
    SQLite cannot add a NOT NULL column to a table that has rows (the migration filled in old games)."""
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utc_now)

    players: Mapped[list["Player"]] = relationship(back_populates="game", order_by="Player.seat")
    card_table: Mapped[CardTable] = relationship()
    rematch: Mapped["Game | None"] = relationship(primaryjoin="Game.id == foreign(Game.previous_id)", uselist=False, viewonly=True)
    """The rematch started after this game, if there is one (there is never more than one)."""

    @property
    def player_names(self) -> tuple[str, ...]:
        """Names in seat order, the shape the rules package takes."""
        return tuple(player.name for player in self.players)

    @validates("kind")
    def _known_kind(self, key: str, kind: str) -> str:
        """Refuse a kind no registered game has: the registry, not the database, knows the games."""
        return find_game(kind).kind

    @property
    def first_dealer(self) -> int:
        """Return the seat the new-game form marked as dealing first (the first seat, where none was kept)."""
        seat = self.options.get("first_dealer")
        return seat if isinstance(seat, int) else 0

    @property
    def setup(self) -> dict[str, json_value.JSON]:
        """Return the game as a record without rounds or days: what the rules fold events onto."""
        setup: dict[str, json_value.JSON] = {"game": self.kind, "players": list(self.player_names)}
        for key in find_game(self.kind).setup_keys:
            if key in self.options:
                setup[key] = copy.deepcopy(self.options[key])
        return setup

    @property
    def title(self) -> str:
        """Return the game's name as its result names it: the title, with a variant's own name ("12 Days – 8 Nights")."""
        rules = find_game(self.kind)
        return rules.name(rules.parse(self.setup))

    @classmethod
    def from_setup(
        cls, setup: Mapping[str, json_value.JSON], *, kept: Mapping[str, json_value.JSON] | None = None, **fields: Any
    ) -> "Game":
        """Return a new game (players not yet seated) for a checked setup: its kind, its options and what its views ``kept``."""
        kind = str(setup["game"])
        options = {key: copy.deepcopy(setup[key]) for key in find_game(kind).setup_keys if key in setup}
        return cls(kind=kind, options={**options, **(kept or {})}, **fields)

    def __repr__(self) -> str:
        """Show what kind of game this is without revealing its token."""
        return f"<Game {self.id} {self.kind}>"


class Player(Base):
    """Someone at the table, in a 0-based seat that fixes the order of play."""

    __tablename__ = "players"
    __table_args__ = (
        UniqueConstraint("game_id", "seat"),
        UniqueConstraint("game_id", "name"),
        CheckConstraint("seat >= 0", name="seat"),
        CheckConstraint(f"length(name) BETWEEN 1 AND {NAME_MAX_LENGTH}", name="name"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"))
    seat: Mapped[int]
    name: Mapped[str] = mapped_column(String(NAME_MAX_LENGTH))

    game: Mapped[Game] = relationship(back_populates="players")

    def __repr__(self) -> str:
        """Show seat and name, enough to read a failing test."""
        return f"<Player {self.seat} {self.name!r}>"
