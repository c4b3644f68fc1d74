"""The factory: settings, the instance folder's defaults and the registered command."""

from pathlib import Path

import pytest
from flask import Flask, render_template_string
from flask.testing import FlaskCliRunner
from jinja2 import UndefinedError

from app import create_app
from infra.config import TestConfig, instance_secret_key


def test_a_mapping_overrides_the_defaults(tmp_path: Path) -> None:
    app = create_app({"SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'x.db'}", "SECRET_KEY": "k"})
    assert app.config["SECRET_KEY"] == "k"
    assert app.config["BABEL_DEFAULT_LOCALE"] == "de"
    assert not app.testing


def test_the_secret_key_is_made_once_and_kept(tmp_path: Path) -> None:
    key_file = tmp_path / "secret_key"
    first = instance_secret_key(key_file)
    assert len(first) >= 32
    assert instance_secret_key(key_file) == first
    assert key_file.stat().st_mode & 0o077 == 0
    assert [path.name for path in tmp_path.iterdir()] == ["secret_key"]


def test_the_default_database_lives_in_the_instance_folder() -> None:
    class NoDatabase(TestConfig):
        SQLALCHEMY_DATABASE_URI = None

    app = create_app(NoDatabase)
    assert app.config["SQLALCHEMY_DATABASE_URI"] == f"sqlite:///{Path(app.instance_path) / 'tischblock.db'}"


def test_templates_fail_on_undefined_names_in_tests(app: Flask) -> None:
    with app.test_request_context("/"), pytest.raises(UndefinedError):
        render_template_string("{{ no_such_name }}")


def test_the_score_command_is_registered(runner: FlaskCliRunner) -> None:
    result = runner.invoke(args=["score", "--help"])
    assert result.exit_code == 0
    assert "FILE" in result.output or "SOURCE" in result.output
