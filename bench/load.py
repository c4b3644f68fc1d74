"""Open sheets as a host would serve them: K tables × 5 phones, each holding its live stream, on the production server.

    .venv/bin/python bench/load.py                                   # every setup, 1,000 to 10,000 open sheets
    .venv/bin/python bench/load.py --setups sqlite --sheets 1000 3000 --seconds 20
    .venv/bin/python bench/load.py --setups sqlite --profile profiles  # py-spy on every worker, breakdown per step

The server is ``python -m serving``'s gunicorn command line (two gevent workers) with the
production stream settings: nothing about the streams is shortened or lengthened for the bench,
so a stream ends when the app ends it and the phone reconnects with ``Last-Event-ID`` after the
retry the stream asked for, as htmx's SSE extension does. Setups: SQLite; PostgreSQL; two app
servers on one PostgreSQL, each table's phones split between them.

Each phone is a raw asyncio client holding its stream (gzip, read as it arrives) from its
table's own loopback address (127.x.y.z), as phones at different tables come from different
addresses. Every table taps about once every 20 s (the Happy-Man figure changes hands;
exponential gaps: a busy card table), from the phone whose turn it is; one more table taps
every 0.5 s to time the push. ``/healthz`` is asked ten times a second throughout: the floor.
The open sheets grow step by step (streams of earlier steps stay open and keep reconnecting).

Per step, against floors measured in the same step on the same server:

- tap p50 [p95]: the tapper's round trip (POST as htmx sends it, answered with the sheet),
  against ``/healthz``;
- tap → other phones p50 [p95] at the timed table, against that tapper's own round trip (with
  two servers: the phones on the other server);
- failures (taps not answered 200, streams refused or cut), reconnects and what one costs
  (time to the stream's headers) against ``/healthz``;
- the server's memory per open sheet (proportional set size of its workers, less what they
  held before the first stream), and the CPU the workers and this load generator used.

The goals are printed at the end, met or missed. Everything runs on 127.0.0.1 and stops by
itself; server and load generator share the machine's cores: read the ratios.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import re
import resource
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import zlib
from collections.abc import Awaitable
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.breakdown import Breakdown, read_profiles  # noqa: E402
from bench.goals import report as report_goal  # noqa: E402
from testbed.servers import GunicornServer, PostgresCluster, migrate, sqlite_url  # noqa: E402

PLAYERS = ["Anna", "Ben", "Cleo", "Dana", "Emil"]
PHONES = len(PLAYERS)
STEPS = (1000, 3000, 6000, 10000)
TAP_P95_GOAL_MS = 100.0
PUSH_RATIO_GOAL = 1.5
MEMORY_GOAL_KB = 50.0
POSTGRESQL_RATIO_GOAL = 1.5
OPENING_AT_ONCE = 64
"""Streams being opened at the same moment while a step adds its phones."""
OPENING_SECONDS = 90.0
"""How long a step waits for its new streams to open before it measures whatever is open."""
RETRY_SECONDS = 0.5
"""What a phone waits before it reconnects, unless the stream said otherwise (htmx's default, ± 30 %)."""
TIMEOUT = 60.0
CSRF = re.compile(r'name="csrf-token" content="([^"]+)"')
EVENT_ID = re.compile(rb"^id: (\d+)$", re.MULTILINE)
RETRY = re.compile(rb"^retry: (\d+)$", re.MULTILINE)
CHANGE = re.compile(r'name="event" value="(\d+)"')


def percentile(values: list[float], fraction: float) -> float:
    """Return the value below which ``fraction`` of ``values`` lie (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(fraction * len(ordered)) - 1))]


def median(values: list[float]) -> float:
    return statistics.median(values) if values else float("nan")


@dataclass
class Step:
    """What one step measured."""

    sheets: int
    seconds: float = 0.0
    taps: list[float] = field(default_factory=list)
    floor: list[float] = field(default_factory=list)
    timed_taps: list[float] = field(default_factory=list)
    pushes: list[float] = field(default_factory=list)
    reconnects: list[float] = field(default_factory=list)
    tap_failures: int = 0
    stream_failures: int = 0
    floor_failures: int = 0
    open_at_end: int = 0
    memory_kb: float = 0.0
    server_cpu: float = 0.0
    client_cpu: float = 0.0
    breakdown: Breakdown | None = None
    ticks_per_second: float = 0.0
    """How often the workers asked SQLite for news, all together (0 on PostgreSQL, which tells them)."""

    @property
    def failures(self) -> int:
        return self.tap_failures + self.stream_failures + self.floor_failures


@dataclass
class Server:
    """One app server of the setup, as the phones reach it."""

    process: GunicornServer

    @property
    def port(self) -> int:
        return self.process.port


class Table:
    """One game with five phones: their streams, whose turn it is, and when each version was sent."""

    def __init__(self, token: str, address: str, servers: list[Server]) -> None:
        self.token = token
        self.address = address
        self.servers = [servers[phone % len(servers)] for phone in range(PHONES)]
        """The server each phone's stream (and taps) go to: with two, the phones are split between them."""
        self.sent: dict[int, tuple[float, int]] = {}
        """Version → (when its tap was sent, the tapping phone)."""
        self.holder = 0
        self.timed = False
        self.newest = 0
        """The newest version the table's phones were answered or pushed: what a tap says it saw (``seen``)."""


class Load:
    """Every phone of a setup: streams held, taps sent, the floor asked, and what the current step measured."""

    def __init__(self, servers: list[Server], cookie: str, csrf: str) -> None:
        self.servers = servers
        self.cookie = cookie
        self.csrf = csrf
        self.tables: list[Table] = []
        self.streams: list[asyncio.Task[None]] = []
        self.open = 0
        self.step: Step | None = None
        self.stopping = False

    # --- HTTP -------------------------------------------------------------------------------

    def head(self, method: str, path: str, *, body: str = "", extra: dict[str, str] | None = None, close: bool = True) -> bytes:
        """Return a request as a phone's browser sends it (gzip accepted, its session cookie)."""
        lines = [f"{method} {path} HTTP/1.1", "Host: 127.0.0.1", "Accept-Encoding: gzip", "Accept-Language: de", f"Cookie: {self.cookie}"]
        if close:
            lines.append("Connection: close")
        lines += [f"{name}: {value}" for name, value in (extra or {}).items()]
        if body:
            lines += ["Content-Type: application/x-www-form-urlencoded", f"Content-Length: {len(body)}"]
        return ("\r\n".join(lines) + "\r\n\r\n" + body).encode()

    async def request(self, port: int, raw: bytes, source: str) -> tuple[int, dict[str, str], bytes]:
        """Send one request on a fresh connection and return status, headers and body as sent."""
        reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0))
        try:
            writer.write(raw)
            status, headers = await read_head(reader)
            if "content-length" in headers:
                body = await reader.readexactly(int(headers["content-length"]))
            elif headers.get("transfer-encoding") == "chunked":
                body = b"".join([chunk async for chunk in chunks(reader)])
            else:
                body = await reader.read()
            return status, headers, body
        finally:
            writer.close()

    # --- phones -----------------------------------------------------------------------------

    async def hold(self, table: Table, phone: int, opened: asyncio.Event) -> None:
        """Hold one phone's stream for as long as the bench runs, reconnecting as the browser does."""
        server = table.servers[phone]
        last_id: str | None = None
        retry = RETRY_SECONDS
        first = True
        while not self.stopping:
            extra = {"Accept": "text/event-stream"}
            if last_id is not None:
                extra["Last-Event-ID"] = last_id
            started = time.perf_counter()
            counted = False
            try:
                reader, writer = await asyncio.open_connection("127.0.0.1", server.port, local_addr=(table.address, 0))
            except OSError:
                self._stream_failed()
                await asyncio.sleep(retry)
                continue
            try:
                writer.write(self.head("GET", f"/g/{table.token}/live?since=0", extra=extra, close=False))
                status, _ = await asyncio.wait_for(read_head(reader), TIMEOUT)
                if status != 200:
                    raise ValueError(f"stream answered {status}")
                if not first and self.step is not None:
                    self.step.reconnects.append((time.perf_counter() - started) * 1000)
                first = False
                counted = True
                self.open += 1
                opened.set()
                inflate = zlib.decompressobj(wbits=31)
                async for chunk in chunks(reader):
                    arrived = time.perf_counter()
                    text = inflate.decompress(chunk)
                    for found in RETRY.finditer(text):
                        retry = int(found.group(1)) / 1000
                    for found in EVENT_ID.finditer(text):
                        last_id = found.group(1).decode()
                        self._arrived(table, phone, int(last_id), arrived)
            except (OSError, asyncio.IncompleteReadError, TimeoutError, zlib.error, ValueError):
                if not self.stopping:
                    self._stream_failed()
            finally:
                if counted:
                    self.open -= 1
                writer.close()
            await asyncio.sleep(retry * random.uniform(0.7, 1.3))

    def _stream_failed(self) -> None:
        if self.step is not None:
            self.step.stream_failures += 1

    def _arrived(self, table: Table, phone: int, version: int, arrived: float) -> None:
        """Note a pushed version at a phone (the table has seen it) and, at the timed table, the push's latency if another phone tapped it."""
        table.newest = max(table.newest, version)
        sent = table.sent.get(version)
        if not table.timed or sent is None or self.step is None:
            return
        when, tapper = sent
        if phone != tapper and (len(self.servers) == 1 or table.servers[phone] is not table.servers[tapper]):
            self.step.pushes.append((arrived - when) * 1000)

    async def tap(self, table: Table) -> None:
        """One tap at the table: the next player takes the Happy-Man figure, from that player's phone."""
        step = self.step
        table.holder = (table.holder + 1) % PHONES
        tapper = table.holder
        version = max(table.sent, default=0) + 1
        body = f"csrf_token={self.csrf}&key={random.getrandbits(64):x}&round=0&player={PLAYERS[tapper]}&seen={table.newest}"
        raw = self.head("POST", f"/g/{table.token}/happy-man", body=body, extra={"HX-Request": "true"})
        started = time.perf_counter()
        table.sent[version] = (started, tapper)
        try:
            status, headers, answer = await asyncio.wait_for(self.request(table.servers[tapper].port, raw, table.address), TIMEOUT)
        except (OSError, asyncio.IncompleteReadError, TimeoutError):
            status, headers, answer = 0, {}, b""
        took = (time.perf_counter() - started) * 1000
        if step is None:
            return
        if status != 200:
            step.tap_failures += 1
            return
        step.taps.append(took)
        if table.timed:
            step.timed_taps.append(took)
        text = zlib.decompress(answer, wbits=31).decode() if headers.get("content-encoding") == "gzip" else answer.decode()
        found = CHANGE.search(text)
        if found:
            table.newest = max(table.newest, int(found.group(1)))
        if found and int(found.group(1)) != version:  # another tap of this table came first
            table.sent[int(found.group(1))] = table.sent.pop(version)

    async def play(self, table: Table, mean_gap: float, until: float, *, steady: bool = False) -> None:
        """Tap at a table until the step is over: exponential gaps around ``mean_gap``, or every ``mean_gap`` if ``steady``."""
        gap = random.uniform(0, mean_gap)
        while time.perf_counter() + gap < until:
            await asyncio.sleep(gap)
            await self.tap(table)
            gap = mean_gap * random.uniform(0.9, 1.1) if steady else random.expovariate(1 / mean_gap)

    async def probe_floor(self, until: float) -> None:
        """Ask ``/healthz`` ten times a second."""
        port = self.servers[0].port
        while time.perf_counter() < until:
            started = time.perf_counter()
            try:
                status, _, _ = await asyncio.wait_for(self.request(port, self.head("GET", "/healthz"), "127.0.0.1"), TIMEOUT)
            except (OSError, asyncio.IncompleteReadError, TimeoutError):
                status = 0
            if self.step is not None:
                if status == 200:
                    self.step.floor.append((time.perf_counter() - started) * 1000)
                else:
                    self.step.floor_failures += 1
            await asyncio.sleep(0.1)

    async def open_tables(self, tokens: list[str], sheets: int) -> None:
        """Add tables until ``sheets`` streams are open, a bounded number being opened at once."""
        gate = asyncio.Semaphore(OPENING_AT_ONCE)

        async def one(table: Table, phone: int) -> None:
            async with gate:
                opened = asyncio.Event()
                self.streams.append(asyncio.create_task(self.hold(table, phone, opened)))
                try:
                    await asyncio.wait_for(opened.wait(), TIMEOUT)
                except TimeoutError:  # counted as the stream's failure; the phone keeps trying
                    pass

        starting = []
        while len(self.tables) * PHONES < sheets:
            index = len(self.tables)
            table = Table(tokens[index], address_of(index), self.servers)
            table.timed = index == 0
            self.tables.append(table)
            starting += [one(table, phone) for phone in range(PHONES)]
        opening = asyncio.gather(*starting)
        opening.add_done_callback(lambda future: future.cancelled() or future.exception())  # stopped phones are no news
        try:
            await asyncio.wait_for(asyncio.shield(opening), OPENING_SECONDS)
        except TimeoutError:  # a server that cannot keep up is measured as it is; its phones keep trying
            print(f"    only {self.open:,d} of {sheets:,d} streams opened within {OPENING_SECONDS:.0f} s", flush=True)

    async def stop(self) -> None:
        self.stopping = True
        for task in self.streams:
            task.cancel()
        await asyncio.gather(*self.streams, return_exceptions=True)


async def read_head(reader: asyncio.StreamReader) -> tuple[int, dict[str, str]]:
    """Read a response's status line and headers."""
    head = (await reader.readuntil(b"\r\n\r\n")).decode("latin-1").split("\r\n")
    headers = {k.strip().lower(): v.strip() for k, _, v in (line.partition(":") for line in head[1:] if line)}
    return int(head[0].split()[1]), headers


async def chunks(reader: asyncio.StreamReader):  # type: ignore[no-untyped-def]
    """Yield the chunks of a chunked body as they arrive, until the last one."""
    while True:
        size = int((await reader.readuntil(b"\r\n")).strip(), 16)
        chunk = await reader.readexactly(size + 2)
        if size == 0:
            return
        yield chunk[:-2]


def address_of(index: int) -> str:
    """Return the loopback address table ``index`` connects from (127.0.0.1 is the floor's)."""
    return f"127.{1 + index // 62500}.{1 + index // 250 % 250}.{1 + index % 250}"


def raise_open_files() -> int:
    """Raise this process's limit of open files to the hard limit (the servers it starts inherit it)."""
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return hard


def pss_kb(pids: list[int]) -> float:
    """Return the proportional set size of these processes together, in KB (shared pages counted once)."""
    total = 0
    for pid in pids:
        try:
            for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
                if line.startswith("Pss:"):
                    total += int(line.split()[1])
        except OSError:
            pass
    return float(total)


def cpu_seconds(pids: list[int]) -> float:
    """Return the CPU seconds (user and system) these processes used so far."""
    ticks = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            ticks += int(fields[11]) + int(fields[12])
        except OSError:
            pass
    return ticks / 100


def own_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


async def measure(
    load: Load, sheets: int, seconds: float, tap_every: float, timed_every: float, workers: list[int], profile: Path | None
) -> Step:
    """Let every table tap for ``seconds`` while the floor is asked; return what the step measured."""
    step = Step(sheets, seconds)
    spies = [spy(pid, seconds, profile / f"{sheets}-{pid}.txt") for pid in workers] if profile else []
    server_before, client_before = cpu_seconds(workers), own_cpu()
    load.step = step
    until = time.perf_counter() + seconds
    timed, *others = load.tables
    players: list[Awaitable[None]] = [load.play(table, tap_every, until) for table in others]
    await asyncio.gather(load.probe_floor(until), load.play(timed, timed_every, until, steady=True), *players)
    step.server_cpu = (cpu_seconds(workers) - server_before) / seconds
    step.client_cpu = (own_cpu() - client_before) / seconds
    await asyncio.sleep(1.0)  # the last pushes arrive
    load.step = None
    step.open_at_end = load.open
    for process in spies:
        process.wait(30)
    if profile:
        step.breakdown = read_profiles([profile / f"{sheets}-{pid}.txt" for pid in workers])
    return step


def spy(pid: int, seconds: float, output: Path) -> subprocess.Popen[bytes]:
    """Start py-spy on a worker for the step's duration (collapsed stacks; it samples without stopping the worker)."""
    py_spy = str(Path(sys.executable).with_name("py-spy"))
    argv = [
        py_spy,
        "record",
        "--pid",
        str(pid),
        "--duration",
        str(int(seconds)),
        "--rate",
        "100",
        "--nonblocking",
        "--format",
        "raw",
        "--output",
        str(output),
    ]
    return subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def session_for(port: int, token: str) -> tuple[str, str]:
    """Return a session cookie and the CSRF token of the same page."""
    import http.client

    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=TIMEOUT)
    try:
        connection.request("GET", f"/g/{token}")
        answer = connection.getresponse()
        page = answer.read().decode()
        cookies = [value.split(";", 1)[0] for key, value in answer.getheaders() if key.lower() == "set-cookie"]
    finally:
        connection.close()
    found = CSRF.search(page)
    assert found is not None, page[:300]
    return "; ".join(cookies), found.group(1)


def create_games(database_url: str, count: int) -> list[str]:
    """Start ``count`` AURUXXX games of five players the way the app does; return their edit tokens."""
    from app import create_app
    from views.table.starting import create_game

    app = create_app({"SQLALCHEMY_DATABASE_URI": database_url, "SECRET_KEY": "bench"})
    with app.app_context():
        return [create_game({"game": "auruxxx", "players": PLAYERS, "house_rules": {}}).token for _ in range(count)]


async def run_setup(
    servers: list[GunicornServer], tokens: list[str], steps: list[int], args: argparse.Namespace, profile: Path | None
) -> list[Step]:
    """Grow the open sheets step by step and measure each step."""
    cookie, csrf = session_for(servers[0].port, tokens[0])
    ticks_per_second = 0.0
    if servers[0].database_url.startswith("sqlite"):
        from infra.config import Config

        tick = float(args.settings.get("LIVE_TICK_SECONDS", getattr(Config, "LIVE_TICK_SECONDS", 0.025)))
        ticks_per_second = len(servers) * servers[0].workers / tick
    load = Load([Server(server) for server in servers], cookie, csrf)
    workers = [pid for server in servers for pid in server.worker_pids()]
    for table_token in tokens[:3]:  # warm up every template and connection before the memory baseline
        warm = Table(table_token, "127.0.0.1", load.servers)
        for _ in range(4):
            await load.tap(warm)
    baseline = pss_kb(workers)
    results = []
    try:
        for sheets in steps:
            started = time.perf_counter()
            await load.open_tables(tokens, sheets)
            opening = time.perf_counter() - started
            await asyncio.sleep(2.0)
            step = await measure(load, sheets, args.seconds, args.tap_every, args.timed_every, workers, profile)
            step.ticks_per_second = ticks_per_second
            step.memory_kb = (pss_kb(workers) - baseline) / max(1, load.open)
            results.append(step)
            report(step)
            print(
                f"           ({load.open:,d} streams open at the end; opening the step's new ones took {opening:.1f} s;"
                f" {len(step.taps)} taps, {len(step.pushes)} pushes timed)",
                flush=True,
            )
    finally:
        await load.stop()
    return results


def serve(database_url: str, folder: Path, name: str, settings: dict[str, str]) -> GunicornServer:
    """Start the production server on a database, with the production stream settings."""
    return GunicornServer(database_url, folder / f"{name}.log", live_stream_seconds=None, settings=settings).start(timeout=60)


def bench(
    name: str, database_url: str, servers_count: int, folder: Path, steps: list[int], args: argparse.Namespace, settings: dict[str, str]
) -> list[Step]:
    """Serve ``database_url`` with one or two app servers and run the steps against them."""
    migrate(database_url)
    started = time.perf_counter()
    tokens = create_games(database_url, max(steps) // PHONES + 1)
    print(f"  {name}: {len(tokens):,d} games started in {time.perf_counter() - started:.0f} s", flush=True)
    servers = [serve(database_url, folder, f"{name}-{index}", settings) for index in range(servers_count)]
    profile = None
    if args.profile:
        profile = Path(args.profile) / name.replace(" ", "-")
        profile.mkdir(parents=True, exist_ok=True)
    report_head(name)
    try:
        results = asyncio.run(run_setup(servers, tokens, steps, args, profile))
    finally:
        for server in servers:
            server.stop(timeout=10)
    for server in servers:
        log = server.log_text()
        if "Traceback" in log:
            errors = sorted({line for line in log.splitlines() if "Error:" in line or "Exception:" in line})
            print("  the server logged errors:", *errors[:5], sep="\n    ")
    return results


def report_head(name: str) -> None:
    """Print the head of a setup's table (its rows follow step by step)."""
    other = "phones on the other server" if "two" in name else "other phones"
    print(f"\n{name}: open sheets = K tables × {PHONES} phones (p50 [p95], ms; floor = /healthz in the same step)")
    print(
        f"  {'sheets':>7}  {'tap':>15}  {'floor':>13}  {'ratio':>5}  {'tap → ' + other:>28}  {'own tap':>7}  {'ratio':>5}"
        f"  {'reconnects':>10}  {'each':>6}  {'failed':>6}  {'KB/sheet':>8}  {'server CPU':>10}  {'bench CPU':>9}",
        flush=True,
    )


def report(step: Step) -> None:
    """Print one step's figures against their floors, and where the CPU went if it was profiled."""
    if not step.taps or not step.floor:
        print(f"  {step.sheets:7,d}  nothing answered ({step.failures} failures)", flush=True)
        return
    tap50, floor50 = median(step.taps), median(step.floor)
    push50, own50 = median(step.pushes), median(step.timed_taps)
    push95 = percentile(step.pushes, 0.95) if step.pushes else float("nan")
    print(
        f"  {step.sheets:7,d}  {tap50:6.1f} [{percentile(step.taps, 0.95):6.1f}]  {floor50:5.1f} [{percentile(step.floor, 0.95):5.1f}]"
        f"  {tap50 / floor50:4.1f}×  {push50:18.1f} [{push95:6.1f}]  {own50:7.1f}  {push50 / own50:4.2f}×"
        f"  {len(step.reconnects):10d}  {median(step.reconnects):6.1f}  {step.failures:6d}  {step.memory_kb:8.1f}"
        f"  {step.server_cpu:9.0%}  {step.client_cpu:8.0%}",
        flush=True,
    )
    if step.breakdown is not None:
        print(f"    where the workers' CPU went (py-spy, {step.breakdown.samples} samples in {step.seconds:.0f} s):")
        step.breakdown.print(step, indent="      ")


def goals(results: dict[str, list[Step]]) -> None:
    """Report every goal of the bench with its figure and floor, met or missed."""
    print("\nGoals (2 cores; each figure with its floor from the same step)")
    for name, steps in results.items():
        measured = [step for step in steps if step.taps and step.floor]
        if not measured:
            report_goal("load", f"{name}: {max(STEPS):,d} open sheets", "nothing measured", "none", False)
            continue
        top = max(measured, key=lambda step: step.sheets)
        p95 = percentile(top.taps, 0.95)
        report_goal(
            "load",
            f"{name}: {max(STEPS):,d} open sheets, tap p95 < {TAP_P95_GOAL_MS:.0f} ms, nothing failed",
            f"{top.sheets:,d} open: p95 {p95:.0f} ms, {top.failures} failed",
            f"/healthz p95 {percentile(top.floor, 0.95):.0f} ms",
            p95 < TAP_P95_GOAL_MS and top.failures == 0 and top.sheets >= max(STEPS),
        )
        timed = [step for step in measured if step.pushes and step.timed_taps]
        if timed:
            worst = max(timed, key=lambda step: median(step.pushes) / median(step.timed_taps))
            ratio = median(worst.pushes) / median(worst.timed_taps)
            report_goal(
                "load",
                f"{name}: tap → other phones ≤ {PUSH_RATIO_GOAL}× the tapper's round trip (medians, worst step)",
                f"{ratio:.2f}× ({median(worst.pushes):.1f} ms at {worst.sheets:,d})",
                f"tapper {median(worst.timed_taps):.1f} ms",
                ratio <= PUSH_RATIO_GOAL,
            )
        report_goal(
            "load",
            f"{name}: server memory ≤ {MEMORY_GOAL_KB:.0f} KB per open sheet",
            f"{top.memory_kb:.1f} KB at {top.sheets:,d}",
            "the workers before the first stream",
            top.memory_kb <= MEMORY_GOAL_KB,
        )
    sqlite, postgresql = results.get("SQLite"), results.get("PostgreSQL")
    if sqlite and postgresql:
        ratios = []
        for lite, pg in zip(sqlite, postgresql):
            if lite.taps and pg.taps:
                ratios.append((median(pg.taps) / median(lite.taps), percentile(pg.taps, 0.95) / percentile(lite.taps, 0.95), lite.sheets))
        if ratios:
            text = ", ".join(f"{sheets:,d}: {p50:.2f}× [{p95:.2f}×]" for p50, p95, sheets in ratios)
            worst = max(max(p50, p95) for p50, p95, _ in ratios)
            report_goal(
                "load",
                f"PostgreSQL tap within {POSTGRESQL_RATIO_GOAL}× of SQLite at every step (p50 [p95])",
                text,
                "SQLite's tap in the same step",
                worst <= POSTGRESQL_RATIO_GOAL,
            )


SETUPS = ("sqlite", "postgresql", "two-servers")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--setups", nargs="+", choices=SETUPS, default=list(SETUPS))
    parser.add_argument("--sheets", type=int, nargs="+", default=list(STEPS), help="the steps of open sheets")
    parser.add_argument("--seconds", type=float, default=30.0, help="how long each step taps (default 30)")
    parser.add_argument("--tap-every", type=float, default=20.0, help="mean seconds between two taps at one table (default 20)")
    parser.add_argument("--timed-every", type=float, default=0.5, help="seconds between two taps at the timed table (default 0.5)")
    parser.add_argument("--profile", metavar="FOLDER", help="run py-spy on every worker during each step and print where the time went")
    parser.add_argument("--setting", action="append", default=[], metavar="NAME=VALUE", help="an environment variable for the servers")
    args = parser.parse_args()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # stop the servers on the way out
    steps = sorted(args.sheets)
    settings = args.settings = dict(item.split("=", 1) for item in args.setting)
    began = time.perf_counter()
    print(f"open files allowed: {raise_open_files():,d}; server settings: {settings or 'the defaults'}", flush=True)
    results: dict[str, list[Step]] = {}
    with tempfile.TemporaryDirectory(prefix="tischblock-bench-") as scratch:
        folder = Path(scratch)
        if "sqlite" in args.setups:
            results["SQLite"] = bench("SQLite", sqlite_url(folder / "tischblock.db"), 1, folder, steps, args, settings)
        if "postgresql" in args.setups or "two-servers" in args.setups:
            cluster = PostgresCluster()
            try:
                cluster.start()
                if "postgresql" in args.setups:
                    results["PostgreSQL"] = bench("PostgreSQL", cluster.url, 1, folder, steps, args, settings)
                if "two-servers" in args.setups:
                    results["two servers, one PostgreSQL"] = bench(
                        "two servers, one PostgreSQL", cluster.url, 2, folder, steps, args, settings
                    )
            finally:
                cluster.stop()
    goals(results)
    print(f"\nbench/load.py took {(time.perf_counter() - began) / 60:.1f} minutes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
