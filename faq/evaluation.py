"""How well the FAQ search answers sets of players' questions: top 1 and top 3 per game and language, and by kind of question.

Two sets are measured apart: the tuning set (tests/faq/questions.toml), which the search may be
fitted to, and the held-out set (tests/faq/heldout.toml), written after the last round of tuning
and never fitted to, which tells whether the search understands players it has never heard. Each
round of tuning starts with a fresh held-out set, and the previous one joins the tuning set.
``make faq-eval`` prints both; the quality tests assert the goals.
"""

from __future__ import annotations

import tomllib
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from faq.search import Index

TOP1_GOAL = 0.85
TOP3_GOAL = 0.95
QUESTION_KEYS = {"game", "lang", "q", "expect"}
KINDS = ("situation", "number-word", "everyday-word", "typo", "compound", "short", "variant", "app")
"""What may make a held-out question hard; heldout.toml explains each."""


@dataclass(frozen=True)
class Question:
    """One question as a player asked it, the ids that count as answering it, and what makes it hard."""

    game: str
    lang: str
    q: str
    expect: tuple[str, ...]
    kinds: tuple[str, ...] = ()


@dataclass(frozen=True)
class Outcome:
    """The ids the search returned for one question, best first."""

    question: Question
    found: tuple[str, ...]

    @property
    def top1(self) -> bool:
        return bool(self.found) and self.found[0] in self.question.expect

    @property
    def top3(self) -> bool:
        return any(i in self.question.expect for i in self.found[:3])


@dataclass(frozen=True)
class Rates:
    """The share of a group of outcomes answered first and among the first three."""

    count: int
    top1: float
    top3: float

    @classmethod
    def of(cls, outcomes: Iterable[Outcome]) -> Rates:
        found = list(outcomes)
        if not found:
            return cls(0, 0.0, 0.0)
        return cls(len(found), sum(o.top1 for o in found) / len(found), sum(o.top3 for o in found) / len(found))

    def shortfall(self) -> dict[str, float]:
        """Return by how many points each goal is missed (nothing when both are met)."""
        missed = {"top-1": TOP1_GOAL - self.top1, "top-3": TOP3_GOAL - self.top3}
        return {name: gap * 100 for name, gap in missed.items() if gap > 1e-9}


def questions(path: Path) -> list[Question]:
    """Return the questions of a set, in file order."""
    raw = tomllib.loads(path.read_text(encoding="utf-8"))["question"]
    return [Question(r["game"], r["lang"], r["q"], tuple(r["expect"]), tuple(r.get("kinds", ()))) for r in raw]


def evaluate(index: Index, asked: Iterable[Question], limit: int = 3) -> list[Outcome]:
    """Return what the search finds for every question."""
    return [
        Outcome(q, tuple(h.entry.id for h in index.search(q.q, game=q.game, lang=q.lang, limit=limit)))
        for q in asked
    ]


def by_section(outcomes: Iterable[Outcome]) -> dict[tuple[str, str], list[Outcome]]:
    """Return outcomes grouped by game and language, in the order they first appear."""
    groups: dict[tuple[str, str], list[Outcome]] = defaultdict(list)
    for o in outcomes:
        groups[(o.question.game, o.question.lang)].append(o)
    return dict(groups)


def by_kind(outcomes: Iterable[Outcome]) -> dict[str, list[Outcome]]:
    """Return outcomes grouped by each kind of question they are (a question may be several kinds)."""
    groups: dict[str, list[Outcome]] = {kind: [] for kind in KINDS}
    for o in outcomes:
        for kind in o.question.kinds or ("plain",):
            groups.setdefault(kind, []).append(o)
    return {kind: found for kind, found in groups.items() if found}
