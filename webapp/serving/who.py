"""Who is asking: the browser session, the client address behind zero or more trusted proxies,
and (once the submit path has resolved it) the learner, read once per request (no gradio).

The learner is the unit of fairness (webapp.serving.turns); the address groups learners, so a
stranger's flood cannot reach another address's turns, whatever keys it mints.

``client_address`` trusts only what our own proxies wrote. A client can put
anything in ``X-Forwarded-For``; each proxy *appends* the address it received the request from.
With ``hops`` trusted proxies in front of the app, the entry written by the outermost one is the
``hops``-th from the right: that is the client. Everything left of it is the client's own text and
is ignored. On a Hugging Face Space the app's peer is the Space's proxy (a private address shared
by every visitor) and the proxy appends the visitor's address, so ``hops`` defaults to 1 there
(``SPACE_ID`` set) and 0 elsewhere, where the peer address itself is used. ``LAB_FORWARDED_HOPS``
overrides it, and ``LAB_TRUSTED_PROXIES`` (addresses or networks) narrows it: the header is read
only when the peer is one of them. Nothing else reads the header: the app turns uvicorn's own
reading off (:func:`server_reads_no_forwarded_headers`), which trusted any loopback peer, so any
process on the host could be as many addresses as it liked (red team, issue 29, item 5). A request
with no usable address is grouped under :data:`UNKNOWN`, with the bounds of any address.

IPv6 addresses are read per /56 (:func:`client_address`, the block a home subscriber usually
holds) and grouped per /48 for every bound (:func:`site_of`, the block one site commonly holds:
40 /56s of one /48 each took a fair share and a stranger waited 64 s, red team, issue 29, item 6).
Behind a public proxy every visitor has a public address, so :func:`client_of_request` logs a
warning once when the chosen entry is internal (``is_internal``): a proxy hop more than configured.
"""

from __future__ import annotations

import dataclasses
import ipaddress
import logging
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

log = logging.getLogger("transformer_lab.app")


@dataclass(frozen=True)
class ClientKey:
    """Who is asking, as far as the server can tell: the browser session and the client address
    (read from the request), and the learner (a rate key: browser key, sign-in or API label)
    once the submit path has resolved it."""

    session: str | None = None
    address: str | None = None
    learner: str | None = None

    def as_learner(self, learner: str | None) -> ClientKey:
        """The same client, acting for ``learner``."""
        return dataclasses.replace(self, learner=learner)

    @property
    def unit(self) -> str:
        """Whose turns these are: the learner, else the session, else the address."""
        return self.learner or (f"session:{self.session}" if self.session else
                                f"address:{self.address}")


# Units (ClientKey.unit) whose identity cost something a flood cannot mint: a Hugging Face
# sign-in, or a name on the teacher's class list joined by its link (gradebook.roster).
VOUCHED = ("id:hf:", "id:c:")


def vouched_for(unit: str) -> bool:
    """Whether ``unit`` is a signed-in learner or a class-list member (see VOUCHED)."""
    return unit.startswith(VOUCHED)


def _parse_ip(text: str) -> str | None:
    """A normalised address from one forwarded entry ('1.2.3.4', '1.2.3.4:80', '[::1]:80'), else None."""
    text = text.strip().strip('"')
    if text.startswith("["):
        text = text[1:].split("]", 1)[0]
    elif text.count(":") == 1:  # IPv4 with a port
        text = text.split(":", 1)[0]
    try:
        ip = ipaddress.ip_address(text)
    except ValueError:
        return None
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.ip_network(f"{ip}/56", strict=False))  # one subscriber's block
    return str(ip)


UNKNOWN = "unknown"  # the group of requests whose address cannot be read: one address's bounds
SITE_PREFIX = 48  # IPv6: one site (a school, a campus, a home ISP's customer) for every bound


def site_of(address: str | None) -> str | None:
    """The group an address's bounds count under: an IPv6 block widened to its /48, anything
    else (IPv4, :data:`UNKNOWN`, None) unchanged."""
    if not address or "/" not in address:
        return address
    try:
        net = ipaddress.ip_network(address, strict=False)
    except ValueError:
        return address
    if net.version != 6 or net.prefixlen <= SITE_PREFIX:
        return address
    return str(net.supernet(new_prefix=SITE_PREFIX))


def parse_proxies(text: str) -> tuple[str, ...]:
    """``LAB_TRUSTED_PROXIES``: addresses or networks separated by commas or spaces, normalised;
    ValueError naming the variable for an entry that is neither."""
    out = []
    for entry in text.replace(",", " ").split():
        try:
            out.append(str(ipaddress.ip_network(entry, strict=False)))
        except ValueError:
            raise ValueError(f"LAB_TRUSTED_PROXIES: {entry!r} is not an address or a network") \
                from None
    return tuple(out)


def is_trusted_proxy(peer: str | None, proxies: tuple[str, ...]) -> bool:
    """Whether ``peer`` may write our X-Forwarded-For entry: any peer when no list is given
    (``LAB_FORWARDED_HOPS`` alone), else only one inside a listed network."""
    if not proxies:
        return True
    try:
        ip = ipaddress.ip_address((peer or "").strip("[]"))
    except ValueError:
        return False
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return any(ip in ipaddress.ip_network(n) for n in proxies)


def server_reads_no_forwarded_headers(environ: dict | None = None) -> str | None:
    """Turn uvicorn's own reading of X-Forwarded-For off before the server starts (it trusts
    loopback peers by default, and rewrites the peer before any of our code runs): only
    :func:`client_address` reads the header, as configured. Returns what ``FORWARDED_ALLOW_IPS``
    said before when it was set to something else (the caller warns: it is ignored)."""
    import os

    env = os.environ if environ is None else environ
    before = env.get("FORWARDED_ALLOW_IPS")
    env["FORWARDED_ALLOW_IPS"] = ""  # uvicorn: trust no peer's forwarded headers
    return before if before else None


def client_address(peer: str | None, forwarded: Iterable[str] | str | None, hops: int) -> str | None:
    """The client's address: ``peer`` with no trusted proxy, else the entry our outermost proxy
    appended to X-Forwarded-For (``forwarded``: the header's values, in order)."""
    if hops <= 0:
        return _parse_ip(peer) if peer else None
    values = [forwarded] if isinstance(forwarded, str) else list(forwarded or [])
    entries = [e for v in values for e in v.split(",") if e.strip()]
    if not entries:  # our proxy always appends: no header means no proxy in between
        return _parse_ip(peer) if peer else None
    # Fewer entries than proxies: all were written by our proxies, the leftmost is the client.
    chosen = entries[-hops] if len(entries) >= hops else entries[0]
    return _parse_ip(chosen) or f"unparsed:{chosen.strip()[:64]}"


_INTERNAL = [ipaddress.ip_network(n) for n in ("10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16",
              "100.64.0.0/10", "127.0.0.0/8", "169.254.0.0/16", "fc00::/7", "fe80::/10", "::1/128")]


def is_internal(address: str) -> bool:
    """An address that only exists inside a network (RFC 1918, CGNAT, loopback, link-local, ULA)."""
    try:
        net = ipaddress.ip_network(address, strict=False)
    except ValueError:
        return False
    return any(net.version == i.version and net.subnet_of(i) for i in _INTERNAL)


_WARNED_PRIVATE: list[bool] = [False]


def client_of_request(request: Any, hops: int, proxies: tuple[str, ...] = ()) -> ClientKey:
    """The ClientKey of a web request (a gr.Request, a Starlette request or None): its session
    hash, and the address our outermost of ``hops`` trusted proxies appended (every
    X-Forwarded-For line, in order; read only when the peer is one of ``proxies``, if given),
    grouped by :func:`site_of`; :data:`UNKNOWN` when none can be read. No learner yet: the
    submit path resolves it."""
    if request is None:
        return ClientKey()
    headers = getattr(request, "headers", None) or {}
    getlist = getattr(headers, "getlist", None)
    forwarded = getlist("x-forwarded-for") if getlist else headers.get("x-forwarded-for")
    peer = getattr(getattr(request, "client", None), "host", None)
    if hops and not is_trusted_proxy(peer, proxies):
        hops = 0  # a peer that is not our proxy: its header is its own text
    address = site_of(client_address(peer, forwarded, hops)) or UNKNOWN
    if address.startswith("unparsed:"):  # red team: a fresh odd entry per request was a fresh group
        address = UNKNOWN
    if hops and address and not _WARNED_PRIVATE[0] and is_internal(address):
        # Behind a public proxy every visitor has a public address: a private one here means
        # one more proxy hop than configured, and everyone would share one address.
        _WARNED_PRIVATE[0] = True
        log.warning("X-Forwarded-For gave a private client address (%s) with %d trusted hop(s): "
                    "if the app sits behind one more proxy, set LAB_FORWARDED_HOPS", address, hops)
    return ClientKey(getattr(request, "session_hash", None) or None, address)
