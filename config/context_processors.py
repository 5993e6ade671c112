"""What every page's template may name besides Django's own."""

from __future__ import annotations

from django.http import HttpRequest

from front.guide import help_url, page_key
from infra.login_stamp import login_stamp


def login_stamp_context(request: HttpRequest) -> dict[str, str]:
    """The page's login stamp (also its ``X-Viewer`` header), for the page's scripts: the
    deals a score sheet queues on the phone carry it, so that another login on the same
    phone neither sees nor sends them (static/js/sheet.js, static/js/site.js)."""
    return {"login_stamp": login_stamp(request)}


def guide_link(request: HttpRequest) -> dict[str, object]:
    """The header's « ? Aide » link: the guide's section for this page (front/guide.py), read
    only when a template asks for it."""
    match = getattr(request, "resolver_match", None)
    key = page_key(match.namespace, match.url_name) if match else None
    return {"help_url": lambda: help_url(key)}
