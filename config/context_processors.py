"""What every page's template may name besides Django's own."""

from __future__ import annotations

from django.http import HttpRequest
from django.utils.translation import get_language

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


# Open Graph names a locale with its country: the site is a Belgian clubs' first.
OG_LOCALES = {"fr": "fr_BE", "nl": "nl_BE", "en": "en_GB"}


def page_address(request: HttpRequest) -> dict[str, object]:
    """The page's canonical address, absolute from the request's host (its path without the
    query: a season chosen by ``?saison=`` is the same page), and its Open Graph locale, for
    the meta tags every page has (templates/front/_meta.html)."""
    language = (get_language() or "fr")[:2]
    return {
        "canonical_url": lambda: request.build_absolute_uri(request.path),
        "og_locale": OG_LOCALES.get(language, "fr_BE"),
    }
