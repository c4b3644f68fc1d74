"""Rule messages are templates with named values, so the web layer can translate them."""

from __future__ import annotations

import ast
import string
from pathlib import Path

import pytest

from rules import history, record
from rules.problems import Illegal, Problem

RULES = Path(__file__).resolve().parents[2] / "rules"


def marked_templates() -> list[str]:
    """Return every string literal marked with ``N_`` in the rules package."""
    found = []
    for source in RULES.rglob("*.py"):
        for node in ast.walk(ast.parse(source.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "N_":
                [template] = node.args
                assert isinstance(template, ast.Constant) and isinstance(template.value, str), f"{source.name}:{node.lineno}"
                found.append(template.value)
    return found


def test_every_placeholder_has_a_name() -> None:
    """A translation may reorder the values only if each has a name."""
    templates = marked_templates()
    assert len(templates) > 50
    for template in templates:
        for _, name, spec, conversion in string.Formatter().parse(template):
            if name is not None:
                assert name.isidentifier() and not spec and not conversion, template


def test_the_rules_import_neither_flask_nor_babel() -> None:
    for source in RULES.rglob("*.py"):
        for node in ast.walk(ast.parse(source.read_text(encoding="utf-8"))):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else []
            if isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            assert not any(n.split(".")[0] in {"flask", "flask_babel", "babel"} for n in names), source.name


def test_a_refusal_keeps_its_template_and_values_apart() -> None:
    with pytest.raises(Illegal) as refusal:
        record.parse({"game": "auruxxx", "players": ["Anna", "Ben"], "rounds": [{"finisher": "Dora", "golden12": 1, "happy_man": None}]})
    [problem] = refusal.value.problems
    assert problem.template == "{name} is not a player of this game"
    assert dict(problem.params) == {"name": "'Dora'"}
    assert str(problem) == "rounds[0].finisher: 'Dora' is not a player of this game"


def test_a_translation_can_reorder_the_values() -> None:
    with pytest.raises(Illegal) as refusal:
        history.fold({"game": "auruxxx", "players": ["Anna", "Ben"]}, [history.TableEvent(1, "pass", {"round": 1, "player": "Anna"})])
    [problem] = refusal.value.problems
    assert problem.message == "round 2 has not begun; round 1 is being played"
    german = {problem.template: "Runde {current} läuft; Runde {number} hat noch nicht begonnen"}
    assert german[problem.template].format(**problem.params) == "Runde 1 läuft; Runde 2 hat noch nicht begonnen"


def test_problems_compare_and_hash_by_content() -> None:
    one = Problem("players", "{name} is here", {"name": "Anna"})
    assert one == Problem("players", "{name} is here", {"name": "Anna"})
    assert one != Problem("players", "{name} is here", {"name": "Ben"})
    assert len({one, Problem("players", "{name} is here", {"name": "Anna"})}) == 1
    assert str(Problem("", "unknown key")) == "unknown key"
