"""The old addresses of a player record merged into another lead to the record kept."""

from __future__ import annotations

from django.http import Http404, HttpResponse, HttpResponsePermanentRedirect
from django.urls import reverse

from ..models import Club, Player


def merged_player_redirect(club: Club, pk: int, page: str) -> HttpResponse:
    """A record merged into another (``PlayerMerge``) has left the club's lists: its old
    addresses (``page``: his page, his statistics) lead for good to the record kept (through
    each later merge); any other unknown player is a 404."""
    kept, seen = pk, set()
    while kept not in seen and (
        target := Player.objects.filter(pk=kept).values_list("merged_into", flat=True).first()
    ):
        seen.add(kept)
        kept = target
    if kept == pk or not Player.objects.in_club(club).filter(pk=kept).exists():
        raise Http404("no such player in this club")
    return HttpResponsePermanentRedirect(reverse(page, args=[club.slug, kept]))
