"""Which client a request comes from, by address, behind zero or more trusted proxies (no gradio).

``client_address`` trusts only what our own proxies wrote. A client can put
anything in ``X-Forwarded-For``; each proxy *appends* the address it received the request from.
With ``hops`` trusted proxies in front of the app, the entry written by the outermost one is the
``hops``-th from the right: that is the client. Everything left of it is the client's own text and
is ignored. On a Hugging Face Space the app's peer is the Space's proxy (a private address shared
by every visitor) and the proxy appends the visitor's address, so ``hops`` defaults to 1 there
(``SPACE_ID`` set) and 0 elsewhere, where the peer address itself is used (uvicorn has already
resolved a loopback proxy's header by its ``FORWARDED_ALLOW_IPS``). ``LAB_FORWARDED_HOPS``
overrides it. IPv6 addresses count per /56, the block a home subscriber usually holds (a /64
each would give one home 256 clients: red team 5 emptied every trained model from one /56). Behind a
public proxy every visitor has a public address, so webapp.services.fairness logs a warning once
when the chosen entry is internal (``is_internal``): a proxy hop more than configured.
"""

from __future__ import annotations

import ipaddress
import os
from collections.abc import Iterable


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


def default_hops() -> int:
    """Trusted proxies in front of the app: $LAB_FORWARDED_HOPS, else 1 on a Space, else 0."""
    raw = os.environ.get("LAB_FORWARDED_HOPS", "").strip()
    if raw:
        if not raw.isdigit():
            raise ValueError(f"LAB_FORWARDED_HOPS must be 0 or a positive integer, got {raw!r}")
        return int(raw)
    return 1 if os.environ.get("SPACE_ID") else 0


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
