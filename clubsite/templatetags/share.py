"""``{% night_share_picture tournament club as og_image %}``,
``{% season_share_picture season published club as og_image %}``: the absolute address of a
published night's or season's share picture, for the page's ``og:image``; empty when none was
drawn. No query: the file's name says what it shows (``clubsite.share``)."""

from typing import Any

from django import template

from club.models import Club, Season
from games.models import Tournament

from ..share import night_picture_name, picture_url, season_picture_name

register = template.Library()


def _absolute(context: Any, url: str | None) -> str:
    request = context.get("request")
    if not url:
        return ""
    return request.build_absolute_uri(url) if request is not None else url


@register.simple_tag(takes_context=True)
def night_share_picture(context: Any, tournament: Tournament, club: Club) -> str:
    if tournament.status != Tournament.Status.PUBLISHED:
        return ""
    return _absolute(context, picture_url(night_picture_name(tournament), club))


@register.simple_tag(takes_context=True)
def season_share_picture(context: Any, season: Season | None, published: Any, club: Club) -> str:
    """Only for a season whose ranking the page shows published."""
    if season is None or not published:
        return ""
    return _absolute(context, picture_url(season_picture_name(season), club))
