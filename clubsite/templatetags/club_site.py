"""``{% club_site_menu %}``: the club site's menu on any club page, from the club and viewer
the page already holds (``request.club_access``, made once by ``club.club_pages``), so the
club app's views need not import this app, which stands above them."""

from __future__ import annotations

import html
import re
from typing import Any

from django import template
from django.utils.html import strip_tags

from club.permissions import club_access

from ..menu import club_site_menu

register = template.Library()


@register.inclusion_tag("clubsite/menu.html", takes_context=True)
def club_site_menu_block(context: template.Context, club: Any) -> dict[str, Any]:
    request = context.get("request")
    access = getattr(request, "club_access", None)
    if access is None or access.club.pk != club.pk:
        access = club_access(getattr(request, "user", None), club)
    return {
        "club": club,
        "entries": club_site_menu(club, access),
        "current": getattr(request, "path", ""),
    }


@register.filter
def text_excerpt(rendered: str, words: int = 30) -> str:
    """A page's or a post's stored HTML as a line of plain text (its first ``words`` words),
    for its meta description: the tags dropped, the entities (« &nbsp;») read back, so that
    the template escapes it once."""
    # Lines joined, the no-break spaces of French typography kept.
    text = re.sub(r"[ \t\r\n]+", " ", html.unescape(strip_tags(rendered))).strip()
    kept = text.split(" ")
    return text if len(kept) <= words else " ".join(kept[:words]) + "…"
