"""``{% club_home club as home %}``: the latest night's podium and the latest album for the
club's home page (``clubsite.home``), from the viewer the page already holds, so that the club
app's view need not import this app, which stands above it."""

from __future__ import annotations

from typing import Any

from django import template

from club.permissions import club_access

from ..home import ClubHome
from ..home import club_home as home_block

register = template.Library()


@register.simple_tag(takes_context=True)
def club_home(context: template.Context, club: Any) -> ClubHome:
    request = context.get("request")
    access = getattr(request, "club_access", None)
    if access is None or access.club.pk != club.pk:
        access = club_access(getattr(request, "user", None), club)
    return home_block(club, access.is_member)
