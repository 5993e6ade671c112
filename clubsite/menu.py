"""The club site's menu: the club's pages the viewer may read, in their order, in his language
or written for every language, then the site's fixed entries (the point table). One function
feeds the one include (``templates/clubsite/menu.html``); every part of the club's site adds
its entry here."""

from __future__ import annotations

from dataclasses import dataclass

from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from club.models import Club
from club.permissions import ClubAccess

from .models import Page


@dataclass(frozen=True)
class MenuEntry:
    title: str
    url: str
    members_only: bool = False


def club_site_menu(club: Club, access: ClubAccess) -> list[MenuEntry]:
    """One query for the pages; the viewer's role is asked only when a page is members-only
    (a visitor of a club with none costs nothing more)."""
    language = (get_language() or "fr").split("-")[0]
    pages = list(
        Page.objects.filter(club=club)
        .in_language(language)
        .in_menu_order()
        .only("title", "slug", "members_only")
    )
    if any(page.members_only for page in pages) and not access.is_member:
        pages = [page for page in pages if not page.members_only]
    entries = [
        MenuEntry(page.title, reverse("site-page", args=[club.slug, page.slug]), page.members_only)
        for page in pages
    ]
    # The club site's own sections, after the club's pages (reversed once each, no query).
    entries.append(MenuEntry(_("Actualités"), reverse("news", args=[club.slug])))
    entries.append(MenuEntry(_("Photos"), reverse("photo-albums", args=[club.slug])))
    entries.append(MenuEntry(_("Palmarès"), reverse("palmares", args=[club.slug])))
    entries.append(MenuEntry(_("Table des points"), reverse("point-table-page", args=[club.slug])))
    if club.contact_email:
        # The form writes to the club; the address itself is never shown.
        entries.append(MenuEntry(_("Contact"), reverse("contact", args=[club.slug])))
    return entries
