"""The address printed by ``make run`` must be something a phone can type."""

import socket

from infra.network import lan_address


def test_lan_address_is_an_ip_or_the_host_name() -> None:
    address = lan_address()
    assert address
    if address != socket.gethostname():
        socket.inet_aton(address)
        assert not address.startswith("127.")
