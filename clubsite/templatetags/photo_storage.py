"""``{% photo_storage club %}``: what a club's photos take in the storage and what it may, for
the club's settings page (the club app shows it without importing the club site)."""

from __future__ import annotations

from django import template

from club.models import Club

from ..photos.services import club_photo_bytes, club_photo_quota

register = template.Library()


@register.simple_tag
def photo_storage(club: Club) -> dict[str, int]:
    return {"used": club_photo_bytes(club), "quota": club_photo_quota()}
