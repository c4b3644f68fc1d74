"""Where a worker's CPU went during a step, from py-spy's collapsed stacks: per tap, push, reconnect, open stream and tick.

    .venv/bin/python bench/breakdown.py profiles/SQLite/10000-*.txt     # the breakdown of saved stacks

Each sample is put in the first bucket whose frame its stack holds (from the root of the
stack down), so a push rendered inside a tap counts for the tap. py-spy samples what the
worker's one thread is doing: a greenlet waiting costs nothing and is not sampled.
"""

from __future__ import annotations

import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

BUCKETS = (
    ("tick", ("_listen (live/hub.py",)),
    ("tap: render (answer and push)", ("__call__ (views/table/stream.py", "publish (views/table/stream.py")),
    ("tap: store", ("append_events (models/event.py",)),
    ("tap: answer", ("hand_on_happy_man (views/auruxxx/routes.py",)),
    ("reconnect: open a stream", ("changes (views/table/stream.py",)),
    ("push: render", ("live_sheet (views/table/stream.py",)),
    ("open streams: wake, frame, keepalive", ("messages (views/table/stream.py", "stream (live/push.py")),
    ("floor: /healthz", ("(views/site/health.py",)),
    ("requests: Flask around the views (hooks, CSRF, session, gzip)", ("Flask.wsgi_app (flask/",)),
    ("HTTP: access log", ("Logger.access (gunicorn/",)),
    ("HTTP: writing to the sockets (answers and streams)", ("Response.write (gunicorn/",)),
    ("HTTP: accept, parse, close", ("handle (gunicorn/", "handle_request (gunicorn/")),
)
"""Buckets by a frame their samples hold; the first that matches wins, in this order."""
OTHER = "gevent's loop and the rest"


@dataclass
class Breakdown:
    """Samples per bucket, over every worker's profile of one step."""

    buckets: Counter[str] = field(default_factory=Counter)

    @property
    def samples(self) -> int:
        return sum(self.buckets.values())

    def add(self, stack: str, count: int) -> None:
        """Count a stack's samples in its bucket."""
        for name, frames in BUCKETS:
            if any(frame in stack for frame in frames):
                self.buckets[name] += count
                return
        self.buckets[OTHER] += count

    def print(self, step: Any, indent: str = "") -> None:
        """Print each bucket's share of the workers' measured CPU time, and per operation where the step counted them.

        ``step`` is a bench step: its ``server_cpu`` (CPU seconds the workers used per second,
        from the kernel) is shared out by the samples, so time the workers spent waiting for a
        core that other programs held is not counted as theirs.
        """
        seconds = float(step.seconds) or 1.0
        cpu_ms = float(step.server_cpu) * seconds * 1000
        taps = len(step.taps) + step.tap_failures
        per = {
            "tap: render (answer and push)": taps,
            "tap: store": taps,
            "tap: answer": taps,
            "reconnect: open a stream": len(step.reconnects),
            "push: render": taps,
        }
        for name, _ in (*BUCKETS, (OTHER, ())):
            share = self.buckets[name] / max(1, self.samples)
            line = f"{indent}{name:40s} {share:6.1%}  {share * cpu_ms / seconds / 1000:5.2f} CPU s/s"
            if per.get(name):
                line += f"   {share * cpu_ms / per[name]:6.2f} ms each ({per[name]})"
            if name.startswith("open streams") and step.open_at_end:
                line += f"   {share * cpu_ms / seconds / step.open_at_end * 1000:6.1f} µs per open sheet per second"
            if name == "tick":
                line += (
                    f"   {share * cpu_ms / seconds / step.ticks_per_second * 1000:6.1f} µs per tick"
                    if getattr(step, "ticks_per_second", 0)
                    else ""
                )
            print(line)


def read_profiles(paths: list[Path]) -> Breakdown:
    """Add up py-spy's collapsed stacks (``--format raw``) of several workers."""
    breakdown = Breakdown()
    for path in paths:
        if not path.exists():
            continue
        for line in path.read_text().splitlines():
            stack, _, count = line.rpartition(" ")
            if stack and count.isdigit():
                breakdown.add(stack, int(count))
    return breakdown


if __name__ == "__main__":
    found = read_profiles([Path(name) for name in sys.argv[1:]])
    for bucket, samples in found.buckets.most_common():
        print(f"{bucket:40s} {samples:7d} samples  {samples / max(1, found.samples):5.1%}")
