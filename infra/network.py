"""Where the phones at the table find this machine: its address on the local network."""

import socket

LOOPBACK_NAMES = ("localhost", "127.0.0.1", "::1", "[::1]")


def lan_address() -> str:
    """Return this machine's address on the local network, or its host name.

    Connecting a UDP socket sends nothing; it only makes the system pick the
    interface it would route through, whose address the phones can reach.
    """
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))
            address: str = probe.getsockname()[0]
        except OSError:
            return socket.gethostname()
    if address.startswith(("0.", "127.")):
        return socket.gethostname()
    return address


def is_loopback(host: str) -> bool:
    """Return whether a host name (without port) only reaches this machine itself, never a phone.

    >>> [is_loopback(h) for h in ("localhost", "127.0.0.1", "127.1.2.3", "[::1]", "192.168.1.5", "tisch.local")]
    [True, True, True, True, False, False]
    """
    return host.lower() in LOOPBACK_NAMES or host.startswith("127.")
