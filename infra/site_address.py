"""Where the site is, for a link written into an e-mail, a feed or a QR code: the address the
request being answered came to (the club's own host name, a phone on the club's Wi-Fi at
192.168.1.10:8000), and ``SITE_URL`` only for work no request asked for (beat's reminders).

Work a request queued in the outbox (``infra.outbox``) keeps that request's origin with it, so
that the e-mail a worker sends later links where the member was."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from contextvars import ContextVar

from django.conf import settings
from django.core.exceptions import DisallowedHost
from django.http import HttpRequest

# The origin (scheme and host) of the request being answered, or of the one that queued the
# work being done; None: no request (SITE_URL).
_origin: ContextVar[str | None] = ContextVar("site_origin", default=None)


def origin_of(request: HttpRequest) -> str | None:
    """``https://club.example`` for this request; None when its host is not one of the site's
    (ALLOWED_HOSTS refuses it: then nothing of it is ever written into a link)."""
    try:
        return f"{request.scheme}://{request.get_host()}"
    except DisallowedHost:
        return None


def request_origin() -> str:
    """The origin of the request being answered ("" when none): what queued work keeps."""
    return _origin.get() or ""


def site_url() -> str:
    """The site's address without a final slash: the request's, else ``SITE_URL``."""
    return _origin.get() or settings.SITE_URL


def absolute(path: str) -> str:
    """``path`` (from ``reverse``) as a whole address a reader can follow."""
    return site_url() + path


@contextlib.contextmanager
def served_from(origin: str | None) -> Iterator[None]:
    """Links written inside are to ``origin`` (None or "": to ``SITE_URL``)."""
    token = _origin.set(origin or None)
    try:
        yield
    finally:
        _origin.reset(token)
