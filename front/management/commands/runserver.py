"""``manage.py runserver`` as Django's (with the static files), which says at start when the
site listens at another address than ``SITE_URL``: pages follow the request, but what no
request asks for (beat's reminders, a command's invitation) links to ``SITE_URL``."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.contrib.staticfiles.management.commands.runserver import Command as StaticRunserver

# Every address a server on this machine answers at.
ANY = {"0.0.0.0", "::", "0"}
LOOPBACK = {"127.0.0.1", "localhost", "::1"}


def site_url_warning(addr: str, port: str) -> str | None:
    """The warning for a server at ``addr:port`` (None: SITE_URL is where it listens)."""
    site = urlsplit(settings.SITE_URL)
    same_port = str(site.port or {"http": 80, "https": 443}.get(site.scheme, "")) == str(port)
    host = site.hostname or ""
    same_host = addr == host or (addr in LOOPBACK and host in LOOPBACK) or addr in ANY
    if same_port and same_host:
        return None
    return (
        f"SITE_URL is {settings.SITE_URL}, but this server listens at {addr}:{port}. Pages "
        "and the e-mails they send link to the address each visitor came to; what runs "
        "without a visitor (reminders sent by beat, a command's invitations) links to "
        "SITE_URL. Set SITE_URL to the address members use."
    )


class Command(StaticRunserver):
    def inner_run(self, *args: Any, **options: Any) -> None:
        if warning := site_url_warning(self.addr, self.port):
            self.stdout.write(self.style.WARNING(warning))
        super().inner_run(*args, **options)
