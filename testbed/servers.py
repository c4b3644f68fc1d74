"""Real servers for the system tests and the benchmarks: a throwaway PostgreSQL cluster, gunicorn,
Redis and Caddy, with a self-signed certificate for HTTPS.

Every server is started as a child of this process and stopped by its own process id;
nothing listens beyond 127.0.0.1. Whatever a server wrote to its log is kept in ``AUDIT`` when it stops, with the game tokens
its database handed out, so that a test run can prove no token reached any log.
"""

from __future__ import annotations

import datetime
import ipaddress
import os
import pwd
import secrets
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import IO

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID
from sqlalchemy import create_engine, text
from sqlalchemy.exc import SQLAlchemyError

ROOT = Path(__file__).resolve().parent.parent
PG_BIN = Path("/usr/lib/postgresql/15/bin")
POLL_SECONDS = 0.1
"""How often a wait for a server looks again; the wait ends as soon as the server is there."""
ANSWER_SECONDS = 10.0
"""How long one look at a starting server may take before it counts as "not yet"."""
STARTUP_SECONDS = 120.0
"""How long a server may take to come up on a machine busy with other tests (the wait ends as soon as it is up)."""
SECRET_KEY = "system-test-key"
PRIVATE_PORTS_FROM = 10_000
"""The lowest port a test server is given: above the well-known and the common service ports."""
"""One key for every worker, so a CSRF token from one worker is accepted by the other."""


class LogAudit:
    """Every log the servers started here wrote, and every game token their databases handed out."""

    def __init__(self) -> None:
        self.logs: dict[str, str] = {}
        self.tokens: set[str] = set()
        self.unread: list[str] = []

    def keep(self, path: Path) -> None:
        """Keep what a stopping server wrote to its log (its file may be removed with the server's folder)."""
        if path.exists():
            self.logs[str(path)] = path.read_text(errors="replace")

    def collect_tokens(self, database_url: str) -> None:
        """Note the edit, read-only and table tokens of every game a database holds."""
        engine = create_engine(database_url)
        try:
            with engine.connect() as connection:
                for query in ("SELECT token FROM games", "SELECT read_token FROM games", "SELECT token FROM card_tables"):
                    self.tokens.update(token for token in connection.scalars(text(query)) if token)
        except SQLAlchemyError as error:
            self.unread.append(f"{database_url}: {error.__class__.__name__}")
        finally:
            engine.dispose()

    def leaks(self) -> list[str]:
        """Return each log line that shows a game token (and each database whose tokens could not be read)."""
        found = [f"tokens of {database} could not be read" for database in self.unread]
        for name, log in self.logs.items():
            for line in log.splitlines():
                if any(token in line for token in self.tokens):
                    found.append(f"{name}: {line[:300]}")
        return found


AUDIT = LogAudit()
"""The logs and tokens of this process's servers; ``tests/conftest.py`` checks them at the end of a test run."""


def free_port() -> int:
    """Return a TCP port on 127.0.0.1 that nothing is bound to right now, below the kernel's range of ephemeral ports.

    A port the kernel hands out (``bind`` to port 0, or the local end of any outgoing connection: a
    browser's, a database client's) may go to another process between this call and the server's
    own ``bind``, or while a server that is restarted on its port is down; the kernel never hands
    out a port below its ephemeral range, so only another call of this function could take it.
    """
    first, _ = (int(bound) for bound in Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split())
    if first - PRIVATE_PORTS_FROM < 1_000:  # a machine whose ephemeral ports start low: take one the kernel picks
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            picked: int = probe.getsockname()[1]
        return picked
    while True:
        port = secrets.randbelow(first - PRIVATE_PORTS_FROM) + PRIVATE_PORTS_FROM
        with socket.socket() as probe:
            try:
                probe.bind(("127.0.0.1", port))
            except OSError:
                continue
        return port


def migrate(database_url: str) -> None:
    """Bring a database's schema up to date the way ``make run`` does: ``flask db upgrade``."""
    flask = str(Path(sys.executable).with_name("flask"))
    env = {**os.environ, "DATABASE_URL": database_url, "SECRET_KEY": SECRET_KEY}
    subprocess.run([flask, "--app", "app", "db", "upgrade"], cwd=ROOT, env=env, check=True, capture_output=True)


def sqlite_url(path: Path) -> str:
    """Return the database URL of an SQLite file (the app turns on WAL mode on every connection)."""
    return f"sqlite:///{path}"


class PostgresCluster:
    """A PostgreSQL 15 cluster in a temporary folder, for one test session, reachable on 127.0.0.1 only."""

    def __init__(self) -> None:
        self.port = free_port()
        self.directory = Path(tempfile.mkdtemp(prefix="tischblock-pg-"))
        self.data = self.directory / "data"
        self.log = self.directory / "pg.log"
        self.started = False

    @staticmethod
    def available() -> bool:
        """Return whether Debian's PostgreSQL 15 binaries are installed."""
        return (PG_BIN / "initdb").exists() and (PG_BIN / "pg_ctl").exists()

    @property
    def url(self) -> str:
        """Return the SQLAlchemy URL of the cluster's ``postgres`` database."""
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/postgres"

    def _run(self, *argv: str) -> None:
        """Run a PostgreSQL tool as the ``postgres`` user when we are root (the server refuses root)."""
        command = list(argv)
        if os.geteuid() == 0:
            command = ["runuser", "-u", "postgres", "--", *command]
        subprocess.run(command, check=True, capture_output=True, cwd=self.directory)

    def start(self) -> None:
        """Create the cluster and start its server; returns once it accepts connections.

        ``initdb`` skips flushing its fresh files to disk (``--no-sync``), which took seconds while
        others wrote to the disk: a throwaway cluster need not outlast a power cut before it starts.
        The server itself still flushes every commit as a deployed one does.
        """
        if os.geteuid() == 0:
            owner = pwd.getpwnam("postgres")
            os.chown(self.directory, owner.pw_uid, owner.pw_gid)
        self._run(
            str(PG_BIN / "initdb"),
            "-D",
            str(self.data),
            "-U",
            "postgres",
            "--auth=trust",
            "-E",
            "UTF8",
            "--locale=C.UTF-8",
            "--no-sync",
        )
        self._pg_ctl("start")
        self.started = True

    def _pg_ctl(self, action: str) -> None:
        """Start, stop or restart the server on this cluster's port and log, waiting until it is done."""
        options = f"-p {self.port} -c listen_addresses=127.0.0.1 -k {self.directory}"
        self._run(str(PG_BIN / "pg_ctl"), "-D", str(self.data), "-o", options, "-l", str(self.log), "-m", "fast", "-w", action)

    def postmaster_pid(self) -> int | None:
        """Return the server's process id from its pid file, if it runs."""
        pid_file = self.data / "postmaster.pid"
        return int(pid_file.read_text().split()[0]) if pid_file.exists() else None

    def restart(self) -> None:
        """Restart the server, as an upgrade or a host's reboot would: every open connection is cut."""
        self._pg_ctl("restart")

    def pause(self) -> None:
        """Stop the server but keep the cluster, to start it again with ``resume``."""
        self._pg_ctl("stop")

    def resume(self) -> None:
        """Start the server again after ``pause``; returns once it accepts connections."""
        self._pg_ctl("start")

    def stop(self) -> None:
        """Stop this cluster's server (pg_ctl signals the pid in its own pid file) and remove the folder."""
        try:
            if self.started:
                try:
                    self._pg_ctl("stop")
                except subprocess.CalledProcessError:
                    pid = self.postmaster_pid()
                    if pid is not None:
                        os.kill(pid, signal.SIGQUIT)
        finally:
            AUDIT.keep(self.log)
            shutil.rmtree(self.directory, ignore_errors=True)


class GunicornServer:
    """The app under gunicorn exactly as ``make run`` starts it (``python -m serving``: two gevent workers), on a free local port.

    ``settings`` are extra environment variables for the app (stream caps, for instance);
    ``tls`` a certificate and its key to serve HTTPS with, as ``TLS_CERT``/``TLS_KEY`` do.
    ``live_stream_seconds`` shortens the streams for a test (each lives 10 % to 100 % of it, at least 5 s by
    default, as long as a test waits for a push); None keeps the production setting.

    It runs in its own process group, so ``kill_hard`` can SIGKILL the master and its
    workers at once, as a power cut or the OOM killer would.
    """

    def __init__(
        self,
        database_url: str,
        log_path: Path,
        *,
        workers: int = 2,
        live_stream_seconds: float | None = 50.0,
        port: int | None = None,
        settings: Mapping[str, str] | None = None,
        tls: tuple[Path, Path] | None = None,
    ) -> None:
        self.database_url = database_url
        self.log_path = log_path
        self.workers = workers
        self.live_stream_seconds = live_stream_seconds
        self.port = port or free_port()
        self.settings = dict(settings or {})
        self.tls = tls
        self.healthy = True
        self.process: subprocess.Popen[bytes] | None = None
        self._log: IO[bytes] | None = None

    @property
    def base(self) -> str:
        """Return the server's base URL."""
        return f"{'https' if self.tls else 'http'}://127.0.0.1:{self.port}"

    @property
    def address(self) -> str:
        """Return where a reverse proxy reaches this server (host:port)."""
        return f"127.0.0.1:{self.port}"

    def start(self, timeout: float = STARTUP_SECONDS, *, healthy: bool = True) -> GunicornServer:
        """Start ``python -m serving`` and return once every worker has booted and ``/healthz`` answers.

        ``healthy=False`` waits for ``/healthz`` to say 503 instead: a server whose database is out of reach.
        """
        self.healthy = healthy
        env = {
            **os.environ,
            "HOST": "127.0.0.1",
            "PORT": str(self.port),
            "WORKERS": str(self.workers),
            "DATABASE_URL": self.database_url,
            "SECRET_KEY": SECRET_KEY,
            "TLS_CERT": str(self.tls[0]) if self.tls else "",
            "TLS_KEY": str(self.tls[1]) if self.tls else "",
        }
        if self.live_stream_seconds is not None:
            env["LIVE_STREAM_SECONDS"] = str(self.live_stream_seconds)
        env.update(self.settings)
        self._log = open(self.log_path, "ab")  # noqa: SIM115 (held while the server runs, closed by stop())
        self.process = subprocess.Popen(
            [sys.executable, "-m", "serving"],
            cwd=ROOT,
            env=env,
            stdout=self._log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        status = 200 if healthy else 503
        wait_until_up(
            "gunicorn",
            self.process,
            lambda: answers(f"{self.base}/healthz", status=status) and self._all_workers_booted(),
            self.log_text,
            self.stop,
            timeout,
        )
        return self

    def _all_workers_booted(self) -> bool:
        """Return whether every worker has said it booted (the first answer may come from one only)."""
        return self.log_text().count("Booting worker") >= self.workers

    def worker_pids(self) -> list[int]:
        """Return the process ids of gunicorn's workers (the master's children)."""
        if self.process is None:
            return []
        children = Path(f"/proc/{self.process.pid}/task/{self.process.pid}/children")
        return [int(pid) for pid in children.read_text().split()] if children.exists() else []

    def log_text(self) -> str:
        """Return what gunicorn wrote so far (its own log and the access log)."""
        if self._log is not None:
            self._log.flush()
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    def stop(self, timeout: float = 3.0) -> None:
        """Shut gunicorn down quickly (SIGQUIT to the master); SIGKILL its process group if it lingers.

        A worker only exits once its open connections have finished, and a live stream whose phone
        hung up runs on until ``live_stream_seconds`` are over: no reason to wait for that in a test.
        """
        process = self.process
        if process is None:
            return
        if process.poll() is None:
            process.send_signal(signal.SIGQUIT)
            try:
                process.wait(timeout)
            except subprocess.TimeoutExpired:
                self.kill_hard()
        self._close()

    def kill_hard(self) -> None:
        """SIGKILL the master and every worker at once (its process group, whose id is the master's pid)."""
        process = self.process
        if process is None:
            return
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        process.wait(10)
        self._close()

    def _close(self) -> None:
        """Close the log and hand it, with the tokens of the database served (if it was reachable), to the audit."""
        if self._log is not None:
            self._log.close()
            self._log = None
            AUDIT.keep(self.log_path)
            if self.healthy:
                AUDIT.collect_tokens(self.database_url)


def wait_until_up(
    name: str, process: subprocess.Popen[bytes], up: Callable[[], bool], log: Callable[[], str], stop: Callable[[], None], timeout: float
) -> None:
    """Return as soon as a starting server is ``up()``; if it exits first, or is not up within ``timeout``, stop it and raise with its log."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"{name} exited with {process.returncode}:\n{log()}")
        if up():
            return
        time.sleep(POLL_SECONDS)
    stop()
    raise RuntimeError(f"{name} did not answer within {timeout} s:\n{log()}")


def answers(url: str, *, status: int = 200, authority: Path | None = None) -> bool:
    """Return whether ``url`` answers with ``status`` right now.

    Over HTTPS the certificate must be signed by ``authority`` if given; if not, any certificate
    will do (a test's self-signed one).
    """
    context = None
    if authority is not None:
        if not authority.exists():
            return False
        context = ssl.create_default_context(cafile=str(authority))
    elif url.startswith("https:"):
        context = ssl._create_unverified_context()
    try:
        with urllib.request.urlopen(url, timeout=ANSWER_SECONDS, context=context) as answer:
            return bool(answer.status == status)
    except urllib.error.HTTPError as refused:
        return refused.code == status
    except OSError:
        return False


def self_signed_certificate(directory: Path, host: str = "127.0.0.1") -> tuple[Path, Path]:
    """Write a certificate for ``host`` signed by its own key, and the key, as PEM files: what ``TLS_CERT``/``TLS_KEY`` take."""
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, host)])
    now = datetime.datetime.now(datetime.UTC)
    certificate = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(days=2))
        .add_extension(x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address(host))]), critical=False)
        .sign(key, hashes.SHA256())
    )
    cert_path, key_path = directory / "table.pem", directory / "table-key.pem"
    cert_path.write_bytes(certificate.public_bytes(serialization.Encoding.PEM))
    key_path.write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()))
    return cert_path, key_path


class RedisServer:
    """A Redis server for one test module, in memory only (nothing saved), on a free local port."""

    def __init__(self, directory: Path) -> None:
        self.port = free_port()
        self.directory = directory
        self.log = directory / "redis.log"
        self.process: subprocess.Popen[bytes] | None = None

    @staticmethod
    def available() -> bool:
        """Return whether Debian's redis-server is installed."""
        return shutil.which("redis-server") is not None

    @property
    def url(self) -> str:
        """Return the address the app's ``RATELIMIT_STORAGE_URI`` takes."""
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self, timeout: float = STARTUP_SECONDS) -> RedisServer:
        """Start redis-server and return once it answers, itself: a Redis of another run may hold the port."""
        self.process = subprocess.Popen(
            [
                "redis-server",
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                str(self.directory),
                "--logfile",
                str(self.log),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        wait_until_up(
            "redis-server", self.process, self._answers_itself, lambda: self.log.read_text(errors="replace")[-2000:], self.stop, timeout
        )
        return self

    def _answers_itself(self) -> bool:
        """Return whether the Redis on this port is the one started here (its process id)."""
        assert self.process is not None
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=ANSWER_SECONDS) as connection:
                connection.sendall(b"INFO server\r\n")
                return f"process_id:{self.process.pid}\r\n".encode() in connection.recv(65536)
        except OSError:
            return False

    def stop(self) -> None:
        """Stop redis-server by its own pid."""
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(10)
        AUDIT.keep(self.log)


CADDYFILE = ROOT / "deploy" / "Caddyfile.lan"


class CaddyProxy:
    """Caddy as ``deploy/Caddyfile.lan`` sets it up (``tls internal``) on a free local port, in front of app servers.

    Its certificates, its local CA and its saved config stay in ``directory`` (``XDG_DATA_HOME``,
    ``XDG_CONFIG_HOME``); the admin endpoint is off, and the HTTP port that redirects to HTTPS
    is a free one too, so nothing of the machine's own Caddy is touched.
    """

    def __init__(self, upstreams: Sequence[str], directory: Path) -> None:
        self.upstreams = list(upstreams)
        self.directory = directory
        self.port = free_port()
        self.http_port = free_port()
        self.log = directory / "caddy.log"
        self.process: subprocess.Popen[bytes] | None = None
        self._log: IO[bytes] | None = None

    @staticmethod
    def available() -> bool:
        """Return whether Debian's caddy is installed."""
        return shutil.which("caddy") is not None

    @property
    def base(self) -> str:
        """Return the HTTPS address the phones open."""
        return f"https://127.0.0.1:{self.port}"

    @property
    def root_certificate(self) -> Path:
        """Return Caddy's local CA certificate, which signed the site's certificate (``tls internal``)."""
        return self.directory / "data" / "caddy" / "pki" / "authorities" / "local" / "root.crt"

    def start(self, timeout: float = STARTUP_SECONDS) -> CaddyProxy:
        """Start ``caddy run`` and return once the site answers ``/healthz`` through it, with a certificate from its local CA."""
        env = {
            **os.environ,
            "XDG_DATA_HOME": str(self.directory / "data"),
            "XDG_CONFIG_HOME": str(self.directory / "config"),
            "TISCHBLOCK_SITE": self.base,
            "TISCHBLOCK_UPSTREAMS": " ".join(self.upstreams),
            "TISCHBLOCK_HTTP_PORT": str(self.http_port),
            "TISCHBLOCK_CADDY_ADMIN": "off",
        }
        self._log = open(self.log, "ab")  # noqa: SIM115 (held while Caddy runs, closed by stop())
        self.process = subprocess.Popen(
            ["caddy", "run", "--config", str(CADDYFILE), "--adapter", "caddyfile"],
            cwd=self.directory,
            env=env,
            stdout=self._log,
            stderr=subprocess.STDOUT,
        )
        wait_until_up(
            "caddy",
            self.process,
            lambda: answers(f"{self.base}/healthz", authority=self.root_certificate),
            self.log_text,
            self.stop,
            timeout,
        )
        return self

    def log_text(self) -> str:
        """Return what Caddy logged so far."""
        if self._log is not None:
            self._log.flush()
        return self.log.read_text(errors="replace") if self.log.exists() else ""

    def stop(self) -> None:
        """Stop Caddy by its own pid and hand its log to the audit."""
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(10)
        if self._log is not None:
            self._log.close()
            self._log = None
        AUDIT.keep(self.log)
