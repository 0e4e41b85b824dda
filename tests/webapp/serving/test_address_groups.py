"""Who counts as one address (issue 29, items 5 and 6): forwarded headers only from a configured
proxy, requests with no usable address under one bounded group, IPv6 grouped per /48."""

from __future__ import annotations

import pytest

from webapp.serving.settings import ServingSettings
from webapp.serving.turns import Ticket, TurnQueue
from webapp.serving.who import (
    UNKNOWN,
    ClientKey,
    client_address,
    client_of_request,
    server_reads_no_forwarded_headers,
    site_of,
)


class _Req:
    def __init__(self, peer: str | None, xff: str | None = None, session: str = "s") -> None:
        self.client = type("C", (), {"host": peer})() if peer is not None else None
        self.headers = {"x-forwarded-for": xff} if xff is not None else {}
        self.session_hash = session


def test_ipv6_bounds_count_per_48_and_ipv4_is_unchanged():
    homes = {client_address(f"2001:db8:7:{i:x}00::1", None, 0) for i in range(64)}
    assert len(homes) == 64  # 64 homes (/56s) ...
    assert {site_of(h) for h in homes} == {"2001:db8:7::/48"}  # ... of one site
    assert site_of("2001:db8:8::/56") == "2001:db8:8::/48"  # the next site is another group
    for same in ("198.51.100.7", UNKNOWN, None, "unparsed:x", "2001:db8::/32"):
        assert site_of(same) == same


def test_a_forwarded_header_is_read_only_from_a_configured_proxy():
    # No hops: the peer, whatever the header says (loopback included).
    assert client_of_request(_Req("127.0.0.1", "203.0.113.9"), 0).address == "127.0.0.1"
    # One hop and no list (a Space): the proxy's entry.
    assert client_of_request(_Req("10.1.2.3", "6.6.6.6, 203.0.113.9"), 1).address == "203.0.113.9"
    # One hop and a list: only a listed peer's header counts.
    proxies = ServingSettings.from_env({"LAB_TRUSTED_PROXIES": "10.0.0.0/8"}).trusted_proxies
    assert client_of_request(_Req("10.1.2.3", "203.0.113.9"), 1, proxies).address == "203.0.113.9"
    assert client_of_request(_Req("127.0.0.1", "203.0.113.9"), 1, proxies).address == "127.0.0.1"
    assert client_of_request(_Req("198.51.100.4", "203.0.113.9"), 1, proxies).address \
        == "198.51.100.4"
    with pytest.raises(ValueError, match="LAB_TRUSTED_PROXIES"):
        ServingSettings.from_env({"LAB_TRUSTED_PROXIES": "10.0.0.0/8, proxy.local"})


def test_a_request_without_a_usable_address_is_one_group_never_none():
    """A request whose address cannot be read used to have none, and every per-address bound
    was skipped for it (red team: `X-Forwarded-For: x` let 6 of 6 sleepers past a bound of 3)."""
    for req in (_Req(None), _Req(""), _Req("not-an-ip")):
        assert client_of_request(req, 0).address == UNKNOWN
    q = TurnQueue(slots=1, per_address=3)
    tickets = [q.admit(client_of_request(_Req(None, session=f"s{i}"), 0)) for i in range(6)]
    assert sum(isinstance(t, Ticket) for t in tickets) == 3  # the bound of any address
    assert client_of_request(None, 0) == ClientKey()  # an in-process call is no request


def test_the_server_is_told_to_read_no_forwarded_header():
    env = {}
    assert server_reads_no_forwarded_headers(env) is None and env["FORWARDED_ALLOW_IPS"] == ""
    env = {"FORWARDED_ALLOW_IPS": "*"}
    assert server_reads_no_forwarded_headers(env) == "*"  # the caller warns: it is ignored
    assert env["FORWARDED_ALLOW_IPS"] == ""


def _serve_round(q: TurnQueue, live: list[Ticket]) -> None:
    for t in [t for t in live if t.state == "running"]:
        t.used = True
        t.release()
        live.remove(t)


def test_a_stranger_waits_for_one_turn_behind_forty_homes_of_one_site():
    """Red team (item 6): one slow submission from each of 40 /56s of a single /48 went before a
    stranger (64 s). Grouped per /48 they are one address: the stranger is next or second."""
    q = TurnQueue(slots=2, per_address=200)
    live = []
    for i in range(40):
        home = client_address(f"2001:db8:aa:{i:x}00::1", None, 0)
        t = q.admit(ClientKey(f"h{i}", site_of(home), f"id:g:h{i}"))
        assert isinstance(t, Ticket)
        live.append(t)
    stranger = q.admit(ClientKey("x", "198.51.100.7", "id:g:stranger"))
    assert stranger.position() == 1
    _serve_round(q, live)
    assert stranger.state == "running"


def test_odd_forwarded_entries_are_all_the_one_unknown_group():
    """Red team (second pass): with a fresh non-address entry per request ("odd-1", "odd-2", …)
    30 of 30 wrong passwords were compared, each entry its own group."""
    keys = {client_of_request(_Req("10.1.2.3", f"odd-{i}"), 1).address for i in range(30)}
    assert keys == {UNKNOWN}
