"""How well the FAQ search answers sets of players' questions: top 1 and top 3 per game and language, and by kind of question.

Two sets are measured apart: the tuning set (faq/content/<game>.questions.toml), which the search
learns from and may be fitted to, and the held-out set (tests/faq/heldout.toml), written after the
last round of tuning and never fitted to, which tells whether the search understands players it
has never heard. A question of the tuning set is asked of a model taught without it (``cross_validated``):
asked of the model it taught, it would only show what the model remembers. Each round of tuning
starts with a fresh held-out set, and the previous one joins the tuning set.
``make faq-eval`` prints both; the quality tests assert the goals.
"""

from __future__ import annotations

import zlib
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from faq.content import KINDS, BrokenContent, Entry, Question, load, read_questions
from faq.search import Index

TOP1_GOAL = 0.85
TOP3_GOAL = 0.95
FOLDS = 5
"""How many parts the tuning set is cut into, each asked of a model taught by the other four."""


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


def questions(path: Path, entries: Iterable[Entry] | None = None) -> list[Question]:
    """Return the questions of a set, in file order, or raise BrokenContent listing what is wrong with them."""
    problems: list[str] = []
    found = read_questions(path, load() if entries is None else entries, problems)
    if problems:
        raise BrokenContent("\n".join(problems))
    return found


def evaluate(index: Index, asked: Iterable[Question], limit: int = 3) -> list[Outcome]:
    """Return what the search finds for every question."""
    return [Outcome(q, tuple(h.entry.id for h in index.search(q.q, game=q.game, lang=q.lang, limit=limit))) for q in asked]


def fold_of(question: Question, folds: int = FOLDS) -> int:
    """Return the fold a question is left out in: a checksum of its game, language and words, so adding one moves no other."""
    return zlib.crc32(f"{question.game}|{question.lang}|{question.q}".encode()) % folds


def cross_validated(index: Index, taught: Sequence[Question], folds: int = FOLDS, limit: int = 3) -> list[Outcome]:
    """Return what the search finds for each question it learns from, asked of a model taught by the other folds, in the given order.

    Only the learnt model leaves the question out: the hand-made parts of the search (its words, paraphrases
    and weights) were fitted to the tuning set anyway, which is why the held-out set is measured apart.
    """
    found: dict[int, Outcome] = {}
    grouped: dict[tuple[str, str], list[int]] = defaultdict(list)
    for at, question in enumerate(taught):
        grouped[(question.game, question.lang)].append(at)
    for (game, lang), positions in grouped.items():
        section = index.section(game, lang)
        if section is None:
            continue
        remembered: dict[str, dict[str, float]] = {}
        for fold in range(folds):
            learned = section.teach((taught[at] for at in positions if fold_of(taught[at], folds) != fold), remembered)
            for at in positions:
                if fold_of(taught[at], folds) == fold:
                    ranked, _, _ = section.rank(taught[at].q, learned)
                    found[at] = Outcome(taught[at], tuple(section.entries[position].id for _, position in ranked[:limit]))
    return [found[at] for at in sorted(found)]


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
