"""Real servers for the system tests and the benchmarks: a throwaway PostgreSQL cluster and gunicorn.

Every server is started as a child of this process and stopped by its own process id;
nothing listens beyond 127.0.0.1.
"""

from __future__ import annotations

import os
import pwd
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Mapping
from pathlib import Path
from typing import IO

from serving.command import gunicorn_argv

ROOT = Path(__file__).resolve().parent.parent
PG_BIN = Path("/usr/lib/postgresql/15/bin")
SECRET_KEY = "system-test-key"
"""One key for every worker, so a CSRF token from one worker is accepted by the other."""


def free_port() -> int:
    """Return a TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
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
        """Create the cluster and start its server; returns once it accepts connections."""
        if os.geteuid() == 0:
            owner = pwd.getpwnam("postgres")
            os.chown(self.directory, owner.pw_uid, owner.pw_gid)
        self._run(
            str(PG_BIN / "initdb"), "-D", str(self.data), "-U", "postgres", "--auth=trust",
            "-E", "UTF8", "--locale=C.UTF-8",
        )
        options = f"-p {self.port} -c listen_addresses=127.0.0.1 -k {self.directory}"
        self._run(str(PG_BIN / "pg_ctl"), "-D", str(self.data), "-o", options, "-l", str(self.log), "-w", "start")
        self.started = True

    def postmaster_pid(self) -> int | None:
        """Return the server's process id from its pid file, if it runs."""
        pid_file = self.data / "postmaster.pid"
        return int(pid_file.read_text().split()[0]) if pid_file.exists() else None

    def stop(self) -> None:
        """Stop this cluster's server (pg_ctl signals the pid in its own pid file) and remove the folder."""
        try:
            if self.started:
                try:
                    self._run(str(PG_BIN / "pg_ctl"), "-D", str(self.data), "-m", "fast", "-w", "stop")
                except subprocess.CalledProcessError:
                    pid = self.postmaster_pid()
                    if pid is not None:
                        os.kill(pid, signal.SIGQUIT)
        finally:
            shutil.rmtree(self.directory, ignore_errors=True)


class GunicornServer:
    """The app under gunicorn exactly as ``python -m serving`` starts it (two gevent workers), on a free local port.

    ``settings`` are extra environment variables for the app (stream caps, for instance).
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
    ) -> None:
        self.database_url = database_url
        self.log_path = log_path
        self.workers = workers
        self.live_stream_seconds = live_stream_seconds
        self.port = port or free_port()
        self.settings = dict(settings or {})
        self.process: subprocess.Popen[bytes] | None = None
        self._log: IO[bytes] | None = None

    @property
    def base(self) -> str:
        """Return the server's base URL."""
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = 30.0) -> GunicornServer:
        """Start gunicorn and return once it answers the front page."""
        argv = gunicorn_argv(f"127.0.0.1:{self.port}", str(self.workers))
        argv[0] = str(Path(sys.executable).with_name("gunicorn"))
        env = {**os.environ, "DATABASE_URL": self.database_url, "SECRET_KEY": SECRET_KEY}
        if self.live_stream_seconds is not None:
            env["LIVE_STREAM_SECONDS"] = str(self.live_stream_seconds)
        env.update(self.settings)
        self._log = open(self.log_path, "ab")
        self.process = subprocess.Popen(
            argv, cwd=ROOT, env=env, stdout=self._log, stderr=subprocess.STDOUT, start_new_session=True
        )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"gunicorn exited with {self.process.returncode}:\n{self.log_text()}")
            try:
                with urllib.request.urlopen(f"{self.base}/", timeout=5) as answer:
                    if answer.status == 200 and self._all_workers_booted():
                        return self
            except OSError:
                pass
            time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"gunicorn did not answer within {timeout} s:\n{self.log_text()}")

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
        if self._log is not None:
            self._log.close()
            self._log = None
