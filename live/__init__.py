"""Live sheets: one listener per process tells waiting streams of changes, which push the re-rendered sheet."""

from live.hub import Hub, StreamRefused, hub_of
from live.push import KEEPALIVE, Framing, Message, Pushes, Update, event

__all__ = ["KEEPALIVE", "Framing", "Hub", "Message", "Pushes", "StreamRefused", "Update", "event", "hub_of"]
