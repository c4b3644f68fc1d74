"""``make run`` serves with evented workers, and its access log never shows a game's address."""

import logging
import resource
import sys
from pathlib import Path

import pytest
from gunicorn.workers.ggevent import GeventWorker

from faq.search import shared
from infra.config import Config
from infra.redaction import RedactingFilter, redact
from serving.command import OPEN_FILES, gunicorn_argv, raise_open_files
from serving.hooks import when_ready
from serving.worker import GuardedGeventWorker
from testbed.servers import LogAudit
from tests.helpers import PhoneClient, make_app, phone_of


def test_gunicorn_runs_evented_workers_with_room_for_taps_beside_every_stream() -> None:
    argv = gunicorn_argv("127.0.0.1:8000", "2")
    assert argv[argv.index("--worker-class") + 1] == "serving.worker.GuardedGeventWorker"
    assert issubclass(GuardedGeventWorker, GeventWorker)
    assert int(argv[argv.index("--worker-connections") + 1]) > Config.LIVE_STREAMS_PER_PROCESS
    assert argv[argv.index("--workers") + 1] == "2"
    assert "--no-control-socket" in argv
    assert argv[argv.index("--logger-class") + 1] == "serving.access_log.RedactingLogger"
    assert argv[argv.index("--config") + 1] == "python:serving.hooks"


def test_the_defaults_of_make_run_admit_ten_thousand_open_sheets_on_two_workers() -> None:
    """Even when one worker took more than its half of the streams (each accepts what it can)."""
    argv = gunicorn_argv("127.0.0.1:8000", "2")
    connections = int(argv[argv.index("--worker-connections") + 1])
    assert 2 * Config.LIVE_STREAMS_PER_PROCESS >= 1.5 * 10_000
    assert connections > Config.LIVE_STREAMS_PER_PROCESS
    assert connections < OPEN_FILES
    assert raise_open_files() >= OPEN_FILES or resource.getrlimit(resource.RLIMIT_NOFILE)[1] < OPEN_FILES


def test_gunicorn_serves_https_only_when_given_a_certificate_and_its_key() -> None:
    plain = gunicorn_argv("127.0.0.1:8000", "2", cert="", key="")
    assert "--certfile" not in plain and "--keyfile" not in plain
    secure = gunicorn_argv("127.0.0.1:8000", "2", cert="table.pem", key="table-key.pem")
    assert secure[secure.index("--certfile") + 1] == "table.pem"
    assert secure[secure.index("--keyfile") + 1] == "table-key.pem"
    assert secure[-1] == "app:create_app()"


def test_redact_hides_every_game_token_and_nothing_else() -> None:
    token = "q3J-x_Z9abcdefghijklmnopqrstuvwx"
    line = f'127.0.0.1 - - "POST /g/{token}/pass HTTP/1.1" 303 "http://10.0.0.2:8000/g/{token}" "Mozilla"'
    assert token not in redact(line)
    assert redact(line).count("/g/…") == 2
    assert redact("GET /g/abc?since=4 HTTP/1.1") == "GET /g/…?since=4 HTTP/1.1"
    assert redact("GET /faq?q=g HTTP/1.1") == "GET /faq?q=g HTTP/1.1"
    assert redact(f"GET /language/en?next=/g/{token} HTTP/1.1") == "GET /language/en?next=/g/… HTTP/1.1"
    assert token not in redact(f"GET /language/en?next=%2fg%2f{token}")


def test_redact_hides_a_token_however_its_address_is_percent_encoded() -> None:
    """The server decodes a path before routing it: every spelling that opens the game is redacted."""
    token = "q3J-x_Z9abcdefghijklmnopqrstuvwx"
    encoded = "".join(f"%{ord(c):02X}" for c in token)
    for path in (
        f"/%67/{token}",
        f"/%67/{token}/pass",
        f"%2F%67%2F{token}",
        f"/g/{encoded}",
        f"/%67/{token[:5]}%2D{token[6:]}",
        f"//g//{token}",
        f"/g/./{token}",
        f"/G/{token}",
        f"%252F%2567%252F{token}",
        f"/g%2F{token}",
    ):
        line = f'127.0.0.1 - - "GET {path} HTTP/1.1" 200 "-"'
        assert token not in redact(line) and token[6:] not in redact(line), path
        assert "…" in redact(line), path
    assert redact("GET /faq/auruxxx?q=%67 HTTP/1.1") == "GET /faq/auruxxx?q=%67 HTTP/1.1"


def test_the_error_log_filter_hides_tokens_in_messages_and_arguments() -> None:
    record = logging.LogRecord("gunicorn.error", logging.ERROR, __file__, 1, "Error handling request %s", ("/g/secret1/pass",), None)
    RedactingFilter().filter(record)
    assert record.getMessage() == "Error handling request /g/…/pass"


def test_the_error_log_filter_hides_tokens_in_a_traceback_and_a_stack() -> None:
    """Issue 16: an exception's message and the traceback below it are redacted as well as the line above them."""
    try:
        raise ValueError("no sheet for /g/secret1/pass")
    except ValueError:
        record = logging.LogRecord("app", logging.ERROR, __file__, 1, "Exception on %s", ("/g/secret1",), sys.exc_info())
    record.stack_info = 'File "views.py", in sheet: render("/t/secret2")'
    RedactingFilter().filter(record)
    logged = logging.Formatter().format(record)
    assert "Traceback" in logged and "ValueError: no sheet for /g/…/pass" in logged and "/t/…" in logged
    assert "secret1" not in logged and "secret2" not in logged


def test_the_log_audit_finds_every_token_of_a_database_in_any_log(tmp_path: Path) -> None:
    """The check at the end of a test run: a token anywhere in a kept log is a leak, a redacted address is not."""
    database = tmp_path / "tischblock.db"
    app = make_app(database)
    client = phone_of(app)
    app.config["WTF_CSRF_ENABLED"] = False
    token = client.post("/new/auruxxx", data={"player": ["Anna", "Ben"], "action": "start"}).headers["Location"].rsplit("/", 1)[1]
    log = tmp_path / "server.log"
    log.write_text(f'"GET /g/… HTTP/1.1" 200\nsqlalchemy.exc.DataError: [parameters: {{"token_1": "{token}"}}]\n')
    audit = LogAudit()
    audit.keep(log)
    assert audit.leaks() == []
    audit.collect_tokens(f"sqlite:///{database}")
    assert audit.leaks() == [f'{log}: sqlalchemy.exc.DataError: [parameters: {{"token_1": "{token}"}}]']
    audit.collect_tokens(f"sqlite:///{tmp_path / 'missing' / 'x.db'}")
    assert len(audit.leaks()) == 2


def test_the_server_builds_the_faq_before_its_workers_fork_so_no_request_builds_it(phone: PhoneClient) -> None:
    """The master's hook makes the search and the offline index; a worker's request then only hands them out."""
    when_ready(None)
    faq = shared()
    assert "offline_json" in vars(faq) and faq.section("auruxxx", "de") is not None  # built, before any request
    building = faq.build
    try:
        faq.build = lambda *args: pytest.fail("a request built a section")  # type: ignore[method-assign]
        response = phone.get("/faq/offline-index.json")
        assert response.status_code == 200 and response.json is not None and response.json["sections"]
        assert phone.get("/faq/search?q=passen&game=auruxxx&lang=de", headers={"Accept": "application/json"}).get_json()
    finally:
        faq.build = building  # type: ignore[method-assign]
