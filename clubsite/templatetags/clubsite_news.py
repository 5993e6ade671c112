"""The club's news and contact as self-contained blocks for any of its pages (the club's page
first): ``{% news_latest club %}`` (the latest three posts), ``{% news_feed_link club %}``
(the Atom feed, in ``<head>``) and ``{% contact_link club %}``. Each is fed here, so that the
page that includes it needs no view of the club site's."""

from __future__ import annotations

from typing import Any

from django import template

from club.models import Club

from ..news import news_latest as latest_posts

register = template.Library()


@register.inclusion_tag("clubsite/news_latest.html")
def news_latest(club: Club) -> dict[str, Any]:
    return {"club": club, "posts": latest_posts(club)}


@register.inclusion_tag("clubsite/news_feed_link.html")
def news_feed_link(club: Club) -> dict[str, Any]:
    return {"club": club}


@register.inclusion_tag("clubsite/contact_link.html")
def contact_link(club: Club) -> dict[str, Any]:
    return {"club": club}
