"""What a live stream sends: server-sent events, rendered once per change and compressed once.

A change is pushed as the re-rendered live part of the sheet. Every phone that reads the same
address in the same language gets the same bytes, so they are rendered once (``Pushes``) and
deflated once (``Message``): a stream only strings ready-made segments together. Each segment
is deflated on its own and ends on a byte boundary, so any sequence of them, behind one gzip
header, is a valid gzip stream the browser inflates as it arrives; nothing waits in a buffer.
"""

from __future__ import annotations

import re
import struct
import threading
import zlib
from collections import OrderedDict
from collections.abc import Callable, Iterator
from dataclasses import dataclass

GZIP_HEADER = b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff"
"""A gzip member's header: deflate, no name, no time, unknown system."""
LAST_BLOCK = b"\x03\x00"
"""An empty final deflate block: the stream of segments ends here."""
LEVEL = 6
CACHED_UPDATES = 4096
"""Rendered updates kept per process: one per address and language of the games being watched."""


@dataclass(frozen=True)
class Message:
    """One server-sent event, as text and as a self-contained deflate segment."""

    text: bytes
    deflated: bytes

    @classmethod
    def of(cls, text: str) -> Message:
        """Encode and deflate an event once, for every stream that sends it."""
        raw = text.encode()
        compressor = zlib.compressobj(LEVEL, zlib.DEFLATED, -zlib.MAX_WBITS)
        return cls(raw, compressor.compress(raw) + compressor.flush(zlib.Z_SYNC_FLUSH))


def event(data: str, *, name: str | None = None, event_id: int | None = None) -> str:
    r"""Return a server-sent event; every line of ``data`` gets its own ``data:`` field, blank lines none.

    >>> event("<p>\n\n  hi</p>", event_id=3)
    'id: 3\ndata: <p>\ndata:   hi</p>\n\n'
    """
    fields = []
    if event_id is not None:
        fields.append(f"id: {event_id}")
    if name is not None:
        fields.append(f"event: {name}")
    # A sheet has hundreds of lines: one pass of a pattern drops the blank ones, one replace frames the rest.
    kept = _BLANK_LINE.sub("", data.replace("\r\n", "\n").replace("\r", "\n") + "\n")
    if kept:
        fields.append("data: " + kept[:-1].replace("\n", "\ndata: "))
    return "\n".join(fields) + "\n\n"


_BLANK_LINE = re.compile(r"^[^\S\n]*\n", re.MULTILINE)
"""A line of nothing but spaces, with its line break: an event's data holds none."""


KEEPALIVE = Message.of(": still here\n\n")


class Framing:
    """Turns messages into the bytes of one response: plain, or gzip made of the messages' own segments."""

    def __init__(self, gzipped: bool) -> None:
        self.gzipped = gzipped
        self._crc = 0
        self._size = 0
        self._started = False

    def frame(self, message: Message) -> bytes:
        """Return the bytes that carry ``message`` on this stream."""
        if not self.gzipped:
            return message.text
        self._crc = zlib.crc32(message.text, self._crc)
        self._size += len(message.text)
        if self._started:
            return message.deflated
        self._started = True
        return GZIP_HEADER + message.deflated

    def end(self) -> bytes:
        """Return what closes the stream: the gzip trailer (its checksum and length), or nothing."""
        if not self.gzipped:
            return b""
        head = b"" if self._started else GZIP_HEADER
        self._started = True
        return head + LAST_BLOCK + struct.pack("<II", self._crc & 0xFFFFFFFF, self._size & 0xFFFFFFFF)

    def stream(self, messages: Iterator[Message]) -> Iterator[bytes]:
        """Frame every message of a stream, then close it properly when the messages end."""
        for message in messages:
            yield self.frame(message)
        yield self.end()


@dataclass(frozen=True)
class Update:
    """The live part of a sheet at one version: as rendered, and ready to send as an event."""

    version: int
    sheet: str | None
    """The sheet as rendered; None for an update another process rendered, which travelled as its event only."""
    message: Message


Renderer = Callable[[], tuple[int, str, str]]
"""Renders the live part of one address's sheet in one language: returns (version, the sheet, the event data)."""


class Pushes:
    """The newest rendered update per address and language: each change is rendered once, whoever asks."""

    def __init__(self) -> None:
        self._updates: OrderedDict[tuple[str, str], Update] = OrderedDict()
        self._locks: dict[tuple[str, str], threading.Lock] = {}
        self._lock = threading.Lock()

    def update(self, token: str, language: str, at_least: int, render: Renderer) -> Update:
        """Return the sheet at ``token`` in ``language`` at version ``at_least`` or newer; ``render`` it if no one has."""
        key = (token, language)
        cached = self._cached(key, at_least)
        if cached is not None:
            return cached
        with self._lock:
            lock = self._locks.setdefault(key, threading.Lock())
        with lock:
            cached = self._cached(key, at_least)
            if cached is not None:
                return cached
            version, sheet, data = render()
            fresh = Update(version, sheet, Message.of(event(data, event_id=version)))
            with self._lock:
                self._keep(key, fresh)
            return fresh

    def offer(self, token: str, language: str, update: Update) -> None:
        """Keep an update rendered elsewhere (another process, or a tap while it was stored) unless a newer one is kept.

        At the same version, one that holds its sheet replaces one that travelled as its event only:
        the sheet also answers a tap.
        """
        key = (token, language)
        with self._lock:
            cached = self._updates.get(key)
            if cached is not None and (cached.version, cached.sheet is not None) >= (update.version, update.sheet is not None):
                return
            self._keep(key, update)

    def _keep(self, key: tuple[str, str], update: Update) -> None:
        """Keep ``update`` as the newest at ``key``, dropping the least recently used beyond ``CACHED_UPDATES`` (the caller holds the lock)."""
        self._updates[key] = update
        self._updates.move_to_end(key)
        while len(self._updates) > CACHED_UPDATES:
            dropped, _ = self._updates.popitem(last=False)
            self._locks.pop(dropped, None)

    def _cached(self, key: tuple[str, str], at_least: int) -> Update | None:
        with self._lock:
            cached = self._updates.get(key)
            if cached is not None and cached.version >= at_least:
                self._updates.move_to_end(key)
                return cached
        return None
