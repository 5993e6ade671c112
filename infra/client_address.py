"""Whose request this is: the one client address every limit and every log line of the site
counts by (the login's and the password reset's throttle, the API's refused keys and its
public budget), decided once per request from one setting, ``TRUSTED_PROXY_COUNT``.

Behind reverse proxies the connection's own address is the last proxy's: counted by it, every
visitor would be one, and a few dozen wrong passwords anywhere would lock everybody's login.
Each proxy appends the address it saw to ``X-Forwarded-For``, so with N proxies of our own in
front, the Nth address from the right is the one the first of them saw: the client's. What
stands left of it the client wrote itself, and is never read (a guesser would pick a new
address for each try)."""

from __future__ import annotations

import ipaddress

from django.conf import settings
from django.http import HttpRequest

# Where the address is kept once decided (the request's own attribute: an API request reads
# it through DRF's wrapper, whose attributes fall back to the request's).
_KEPT = "_club_client_address"


def address_seen(remote_addr: str, forwarded_for: str, trusted_proxies: int) -> str:
    """The client's address, as the first of ``trusted_proxies`` proxies saw it.

    With no proxy trusted, the connection's own address, whatever the header says. A header
    with fewer addresses than trusted proxies did not come through them all (a request sent
    around the proxies, or a proxy fewer than configured): the connection's own address, which
    nobody can choose, rather than the header's leftmost, which the client may have written.
    An entry that is no address (a mangled header) is not trusted either."""
    if trusted_proxies > 0:
        chain = [part.strip() for part in forwarded_for.split(",")] if forwarded_for else []
        if len(chain) >= trusted_proxies:
            seen = _address(chain[-trusted_proxies])
            if seen:
                return seen
    return _address(remote_addr) or "?"


def _address(text: str) -> str:
    """``text`` written one way for one address (an IPv6 address has several), else ""."""
    try:
        return str(ipaddress.ip_address(text))
    except ValueError:
        return ""


def client_address(request: HttpRequest) -> str:
    """The address of whoever sent ``request`` (``address_seen`` with the site's setting),
    decided at the first question and kept on the request for every later one."""
    own = getattr(request, "_request", request)  # DRF's request wraps Django's
    kept = getattr(own, _KEPT, None)
    if kept is None:
        kept = address_seen(
            own.META.get("REMOTE_ADDR") or "",
            own.META.get("HTTP_X_FORWARDED_FOR") or "",
            settings.TRUSTED_PROXY_COUNT,
        )
        setattr(own, _KEPT, kept)
    return kept
