"""Tables full of phones against the production server: K tables × 5 phones, every phone holding its live stream.

    .venv/bin/python bench/load.py                      # SQLite, then PostgreSQL
    .venv/bin/python bench/load.py --database sqlite --tables 20 50 --seconds 5

Each phone is a raw client (asyncio sockets) that holds its sheet's stream open, as a browser
does: gzip accepted, the push read as it arrives. At each table one phone after another taps
(the Happy-Man figure changes hands), a tap every ``--interval`` seconds on average (random,
exponential gaps: a busy card table). Tables come from addresses of their own in 127.0.0.0/8,
so the server's caps per address stay at their defaults. K grows step by step; streams of
earlier steps stay open.

Figures per step, against floors measured in the same run on the same server:

- tap p50/p95: the tapper's round trip (POST as htmx sends it, answered with the sheet),
  against a trivial endpoint (``/healthz``) asked at the same time;
- tap → other phones p50/p95: from sending the tap until each other phone of the table has
  the pushed sheet, against the tapper's own round trip;
- bytes of a tap's answer and of a pushed update, as they travel (compressed);
- the largest K whose tap p95 stays under 100 ms.

Everything runs on 127.0.0.1 and ends by itself; the server is the gunicorn command line of
``python -m serving`` on a throwaway database. Server and clients share the machine's cores: read the ratios.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import re
import statistics
import sys
import tempfile
import time
import zlib
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.servers import GunicornServer, PostgresCluster, migrate, sqlite_url  # noqa: E402

PLAYERS = ["Anna", "Ben", "Cleo", "Dana", "Emil"]
PHONES = len(PLAYERS)
TAP_P95_GOAL_MS = 100.0
CSRF = re.compile(r'name="csrf-token" content="([^"]+)"')
EVENT_ID = re.compile(rb"^id: (\d+)$", re.MULTILINE)
CHANGE = re.compile(r'name="event" value="(\d+)"')


def percentile(values: list[float], fraction: float) -> float:
    """Return the value below which ``fraction`` of ``values`` lie (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(fraction * len(ordered)) - 1))]


@dataclass
class Session:
    """What every phone of the bench sends along: one session cookie and its CSRF token."""

    cookie: str
    csrf: str


@dataclass
class Step:
    """What one step of K tables measured."""

    tables: int
    taps: list[float] = field(default_factory=list)
    floor: list[float] = field(default_factory=list)
    others: list[float] = field(default_factory=list)
    tap_bytes: list[int] = field(default_factory=list)
    push_bytes: list[int] = field(default_factory=list)
    failures: int = 0


class Table:
    """One game with five phones: their streams, and the moments its taps were sent."""

    def __init__(self, token: str, address: str) -> None:
        self.token = token
        self.address = address
        self.sent: dict[int, float] = {}
        self.holder = 0
        self.step: Step | None = None


async def request(
    port: int, raw: bytes, *, source: str = "127.0.0.1"
) -> tuple[int, dict[str, str], bytes]:
    """Send one HTTP/1.1 request on a fresh connection (closed after) and return status, headers and body as sent."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0))
    try:
        writer.write(raw)
        await writer.drain()
        head = await reader.readuntil(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        status = int(lines[0].split()[1])
        headers = {k.strip().lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:] if line)}
        if "content-length" in headers:
            body = await reader.readexactly(int(headers["content-length"]))
        else:
            body = await reader.read()
        return status, headers, body
    finally:
        writer.close()


def http(method: str, path: str, session: Session | None, body: str = "", **extra: str) -> bytes:
    """Return the bytes of a request as a phone's browser would send it (htmx for taps)."""
    lines = [f"{method} {path} HTTP/1.1", "Host: 127.0.0.1", "Connection: close", "Accept-Encoding: gzip", "Accept-Language: de"]
    if session is not None:
        lines.append(f"Cookie: {session.cookie}")
    lines += [f"{name.replace('_', '-')}: {value}" for name, value in extra.items()]
    if body:
        lines += ["Content-Type: application/x-www-form-urlencoded", f"Content-Length: {len(body)}"]
    return ("\r\n".join(lines) + "\r\n\r\n" + body).encode()


async def hold_stream(port: int, table: Table, session: Session, opened: asyncio.Event) -> None:
    """Hold one phone's stream: read chunked gzip as it comes, note when each version arrives."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(table.address, 0))
    raw = http("GET", f"/g/{table.token}/live?since=0", session, Accept="text/event-stream").replace(b"Connection: close\r\n", b"")
    writer.write(raw)
    await writer.drain()
    head = await reader.readuntil(b"\r\n\r\n")
    if b" 200 " not in head.split(b"\r\n", 1)[0]:
        raise RuntimeError(f"stream refused: {head[:200]!r}")
    opened.set()
    inflate = zlib.decompressobj(wbits=31)
    try:
        while True:
            size = int((await reader.readuntil(b"\r\n")).strip(), 16)
            chunk = await reader.readexactly(size + 2)
            if size == 0:
                return
            arrived = time.perf_counter()
            text = inflate.decompress(chunk[:-2])
            for found in EVENT_ID.finditer(text):
                version = int(found.group(1))
                sent = table.sent.get(version)
                if sent is not None and table.step is not None:
                    table.step.others.append((arrived - sent) * 1000)
                    table.step.push_bytes.append(size)
    except (asyncio.IncompleteReadError, ConnectionError, asyncio.CancelledError):
        return
    finally:
        writer.close()


async def tap(port: int, table: Table, session: Session, step: Step) -> None:
    """One tap at the table: the next player takes the Happy-Man figure."""
    table.holder = (table.holder + 1) % PHONES
    body = f"csrf_token={session.csrf}&key={random.getrandbits(64):x}&round=0&player={PLAYERS[table.holder]}"
    raw = http("POST", f"/g/{table.token}/happy-man", session, body, HX_Request="true")
    started = time.perf_counter()
    version = max(table.sent, default=0) + 1
    table.sent[version] = started
    status, headers, answer = await request(port, raw, source=table.address)
    took = (time.perf_counter() - started) * 1000
    if status != 200:
        step.failures += 1
        return
    step.taps.append(took)
    step.tap_bytes.append(len(answer))
    text = zlib.decompress(answer, wbits=31).decode() if headers.get("content-encoding") == "gzip" else answer.decode()
    found = CHANGE.search(text)
    if found and int(found.group(1)) != version:
        table.sent[int(found.group(1))] = table.sent.pop(version)


async def play(port: int, table: Table, session: Session, step: Step, interval: float, until: float) -> None:
    """Tap at this table now and then until the step's time is up."""
    await asyncio.sleep(random.uniform(0, interval))
    while time.perf_counter() < until:
        await tap(port, table, session, step)
        await asyncio.sleep(random.expovariate(1 / interval))


async def probe_floor(port: int, step: Step, until: float) -> None:
    """Ask the trivial endpoint ten times a second while the tables tap."""
    while time.perf_counter() < until:
        started = time.perf_counter()
        status, _, _ = await request(port, http("GET", "/healthz", None))
        if status == 200:
            step.floor.append((time.perf_counter() - started) * 1000)
        await asyncio.sleep(0.1)


def address_of(index: int) -> str:
    """Return the loopback address table ``index`` connects from."""
    return f"127.0.{1 + index // 250}.{1 + index % 250}"


async def run_steps(server: GunicornServer, tokens: list[str], session: Session, steps: list[int], seconds: float, interval: float) -> list[Step]:
    """Open the streams of each step's new tables, then let every table tap for ``seconds``."""
    tables: list[Table] = []
    streams: list[asyncio.Task[None]] = []
    results: list[Step] = []
    try:
        for count in steps:
            while len(tables) < count:
                table = Table(tokens[len(tables)], address_of(len(tables)))
                tables.append(table)
                for _ in range(PHONES):
                    opened = asyncio.Event()
                    streams.append(asyncio.create_task(hold_stream(server.port, table, session, opened)))
                    await asyncio.wait_for(opened.wait(), 30)
            step = Step(count)
            for table in tables:
                table.step = step
            await asyncio.sleep(1.0)
            until = time.perf_counter() + seconds
            await asyncio.gather(probe_floor(server.port, step, until), *(play(server.port, t, session, step, interval, until) for t in tables))
            await asyncio.sleep(1.0)  # the last pushes arrive
            results.append(step)
            print(f"    K={count:4d} ({count * PHONES} streams): {len(step.taps)} taps", flush=True)
    finally:
        for task in streams:
            task.cancel()
        await asyncio.gather(*streams, return_exceptions=True)
    return results


def session_for(server: GunicornServer, token: str) -> Session:
    """Return a session cookie and the CSRF token of the same page."""
    import http.client

    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    try:
        connection.request("GET", f"/g/{token}")
        answer = connection.getresponse()
        page = answer.read().decode()
        cookies = [value.split(";", 1)[0] for key, value in answer.getheaders() if key.lower() == "set-cookie"]
    finally:
        connection.close()
    found = CSRF.search(page)
    assert found is not None, page[:300]
    return Session("; ".join(cookies), found.group(1))


def report(name: str, steps: list[Step]) -> None:
    """Print each step's figures against their floors, and the largest K within the tap goal."""
    print(f"\n{name}: K tables × {PHONES} phones, each phone holding its stream (medians; p95 in brackets)")
    print("      K  streams   tap p50 [p95]   floor /healthz p50 [p95]   ratio p50   tap→others p50 [p95]   ratio to own tap   failed")
    for step in steps:
        if not step.taps or not step.others:
            print(f"  {step.tables:5d}  no taps measured ({step.failures} failed)")
            continue
        tap50, tap95 = statistics.median(step.taps), percentile(step.taps, 0.95)
        floor50, floor95 = statistics.median(step.floor), percentile(step.floor, 0.95)
        other50, other95 = statistics.median(step.others), percentile(step.others, 0.95)
        print(
            f"  {step.tables:5d}  {step.tables * PHONES:7d}  {tap50:6.1f} [{tap95:6.1f}] ms"
            f"     {floor50:6.1f} [{floor95:6.1f}] ms          {tap50 / floor50:5.1f}×"
            f"      {other50:6.1f} [{other95:6.1f}] ms        {other50 / tap50:5.2f}×        {step.failures}"
        )
    within = [step.tables for step in steps if step.taps and percentile(step.taps, 0.95) < TAP_P95_GOAL_MS]
    largest = max(within) if within else 0
    tried = max(step.tables for step in steps)
    suffix = " (the largest tried)" if largest == tried else ""
    print(f"  largest K with tap p95 under {TAP_P95_GOAL_MS:.0f} ms: {largest}{suffix} = {largest * PHONES} open streams")
    tap_bytes = [size for step in steps for size in step.tap_bytes]
    push_bytes = [size for step in steps for size in step.push_bytes]
    if tap_bytes and push_bytes:
        print(
            f"  bytes per tap answer (gzip): median {statistics.median(tap_bytes):.0f}; "
            f"per pushed update (gzip, on the stream): median {statistics.median(push_bytes):.0f}, max {max(push_bytes)}"
        )
    measured = [step for step in steps if step.taps and step.others]
    thousand = next((step for step in measured if step.tables * PHONES >= 1000), None)
    if thousand is not None and push_bytes:
        worst = max(statistics.median(step.others) / statistics.median(step.taps) for step in measured)
        print(
            f"  goals: 1,000 streams with tap p95 < {TAP_P95_GOAL_MS:.0f} ms: {percentile(thousand.taps, 0.95):.0f} ms at"
            f" {thousand.tables * PHONES} streams; tap→others median ≤ 2× own tap: at most {worst:.2f}×;"
            f" pushed update < 2 KB: at most {max(push_bytes)} B"
        )


def bench(name: str, database_url: str, folder: Path, steps: list[int], seconds: float, interval: float) -> None:
    """Serve ``database_url`` as production does and run the steps against it."""
    migrate(database_url)
    server = GunicornServer(database_url, folder / f"{name}.log", live_stream_seconds=3600).start()
    try:
        from app import create_app
        from views.games import create_game

        app = create_app({"SQLALCHEMY_DATABASE_URI": database_url, "SECRET_KEY": "bench"})
        with app.app_context():
            tokens = [create_game({"game": "auruxxx", "players": PLAYERS, "house_rules": {}}).token for _ in range(max(steps))]
        session = session_for(server, tokens[0])
        print(f"  {name}: {max(steps)} games ready; stepping through K = {', '.join(map(str, steps))}", flush=True)
        results = asyncio.run(run_steps(server, tokens, session, steps, seconds, interval))
    finally:
        server.stop()
    report(name, results)
    log = server.log_text()
    if "Traceback" in log:
        errors = sorted({line for line in log.splitlines() if "Error:" in line or "Exception:" in line})
        print("  the server logged errors:", *errors[:5], sep="\n    ")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--database", choices=("sqlite", "postgresql", "both"), default="both")
    parser.add_argument("--tables", type=int, nargs="+", default=[20, 100, 200, 300], help="the steps of K")
    parser.add_argument("--seconds", type=float, default=8.0, help="how long each step taps (default 8)")
    parser.add_argument("--interval", type=float, default=5.0, help="mean seconds between two taps at one table (default 5)")
    args = parser.parse_args()
    steps = sorted(args.tables)
    with tempfile.TemporaryDirectory(prefix="tischblock-bench-") as folder:
        if args.database in ("sqlite", "both"):
            bench("SQLite", sqlite_url(Path(folder) / "tischblock.db"), Path(folder), steps, args.seconds, args.interval)
        if args.database in ("postgresql", "both"):
            cluster = PostgresCluster()
            try:
                cluster.start()
                bench("PostgreSQL", cluster.url, Path(folder), steps, args.seconds, args.interval)
            finally:
                cluster.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
