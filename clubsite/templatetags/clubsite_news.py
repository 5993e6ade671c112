"""The club's news and contact as self-contained blocks for any of its pages (the club's page
first): ``{% news_latest club %}`` (the latest three posts), ``{% news_feed_link club %}``
(the Atom feed, in ``<head>``) and ``{% contact_link club %}``. Each is fed here, so that the
page that includes it needs no view of the club site's."""

from __future__ import annotations

from typing import Any

from django import template

from club.models import Club, Membership, Player

from ..models import NewsReader
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


@register.inclusion_tag("clubsite/news_by_email.html", takes_context=True)
def news_by_email(context: dict[str, Any], player: Player) -> dict[str, Any]:
    """The member's profile: each of his clubs, whether he gets its news by e-mail, and the
    button that changes it (two queries)."""
    clubs = list(
        Club.objects.filter(
            pk__in=Membership.objects.current().filter(player=player).values("club_id")
        ).order_by("name")
    )
    wanted = set(NewsReader.objects.filter(player=player).values_list("club_id", flat=True))
    return {
        "choices": [(club, club.pk in wanted) for club in clubs],
        "csrf_token": context.get("csrf_token"),
        "back": context["request"].path if "request" in context else "",
    }
