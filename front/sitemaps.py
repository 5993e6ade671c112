"""``/sitemap.xml`` (Django's sitemaps framework): every public page of every listed club — its
page, its ranking archive and each published season's ranking, each published night's results,
its palmarès, its own site's pages, news and photo albums — every federation's pages, and the
site's own public pages. A club not listed (or closed) is left out, and so is whatever its
members alone may read: unpublished nights and rankings, drafts, members-only pages and albums
are never in it.

Each kind of page is one ``Sitemap`` in ``SITEMAPS``."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.contrib.sitemaps import Sitemap
from django.db.models import QuerySet
from django.urls import reverse

from club.models import Club, Federation, FederationSeason, Membership
from clubsite.models import Album, NewsPost, Page
from games.models import Tournament
from scoring.models import RankingSnapshot


def listed_clubs() -> QuerySet[Club]:
    """The clubs whose pages the site offers to search engines: listed, not closed."""
    return Club.objects.filter(listed=True, closing=None)


class SitePages(Sitemap):
    """The site's own public pages: home, the guide, privacy."""

    def items(self) -> list[str]:
        return ["home", "guide", "privacy"]

    def location(self, item: str) -> str:
        return reverse(item)


class ClubPages(Sitemap):
    """Each listed club's page, ranking archive, palmarès, cote, statistics and calendar; dated
    by the club's last publication (``pages_changed``). The current season's ranking is its
    season's page, listed below."""

    pages = (
        "club-detail",
        "ranking-archive",
        "palmares",
        "ratings",
        "club-statistics",
        "games:calendar",
        "news",
        "photo-albums",
        "point-table-page",
        "contact",
    )

    def items(self) -> list[tuple[str, Club]]:
        # A club without a contact address takes no message: its contact page is not offered.
        return [
            (page, club)
            for club in listed_clubs().order_by("pk")
            for page in self.pages
            if page != "contact" or club.contact_email
        ]

    def location(self, item: tuple[str, Club]) -> str:
        page, club = item
        return reverse(page, args=[club.slug])

    def lastmod(self, item: tuple[str, Club]) -> datetime:
        return item[1].pages_changed


class PlayerPages(Sitemap):
    """Each current member's page at a listed club (named there as the public reads him)."""

    def items(self) -> QuerySet[Membership]:
        return (
            Membership.objects.current()
            .filter(club__in=listed_clubs())
            .select_related("club")
            .order_by("pk")
        )

    def location(self, item: Membership) -> str:
        return reverse("player", args=[item.club.slug, item.player_id])


class SeasonRankings(Sitemap):
    """Each published season ranking of a listed club (imported past seasons included)."""

    def items(self) -> QuerySet[RankingSnapshot]:
        return (
            RankingSnapshot.objects.filter(season__club__in=listed_clubs())
            .latest_published()
            .select_related("season__club")
            .order_by("pk")
        )

    def location(self, item: RankingSnapshot) -> str:
        return reverse("ranking-season", args=[item.season.club.slug, item.season.slug])

    def lastmod(self, item: RankingSnapshot) -> Any:
        return item.published_at


class NightResults(Sitemap):
    """Each published night's results of a listed club."""

    def items(self) -> QuerySet[Tournament]:
        return (
            Tournament.objects.filter(club__in=listed_clubs(), status=Tournament.Status.PUBLISHED)
            .select_related("club")
            .order_by("pk")
        )

    def location(self, item: Tournament) -> str:
        return reverse("games:results", args=[item.club.slug, item.pk])


class ClubRows(Sitemap):
    """A kind of a listed club's own records, each its page under the club's address:
    ``rows()`` says which may be listed, ``page`` and ``key`` where each is."""

    page = ""

    def rows(self) -> QuerySet[Any]:
        raise NotImplementedError

    def key(self, item: Any) -> Any:
        return item.pk

    def items(self) -> QuerySet[Any]:
        return self.rows().filter(club__in=listed_clubs()).select_related("club").order_by("pk")

    def location(self, item: Any) -> str:
        return reverse(self.page, args=[item.club.slug, self.key(item)])


class ClubSitePages(ClubRows):
    """Each listed club's own pages (« Le club », its rules …) that anybody may read."""

    page = "site-page"

    def rows(self) -> QuerySet[Page]:
        return Page.objects.public()

    def key(self, item: Page) -> str:
        return item.slug

    def lastmod(self, item: Page) -> datetime:
        return item.updated_at


class NewsPosts(ClubRows):
    """Each published news item of a listed club (never a draft)."""

    page = "news-post"

    def rows(self) -> QuerySet[NewsPost]:
        return NewsPost.objects.published()

    def lastmod(self, item: NewsPost) -> Any:
        return item.published_at


class PhotoAlbums(ClubRows):
    """Each photo album of a listed club that anybody may open (never a members-only one)."""

    page = "photo-album"

    def rows(self) -> QuerySet[Album]:
        return Album.objects.seen_by(is_member=False)

    def key(self, item: Album) -> str:
        return item.slug


class FederationPages(Sitemap):
    """Each federation's page and the archive of its rankings, dated by their last change
    (a federation's pages are public, as its clubs' published pages are)."""

    pages = ("federation", "federation-archive")

    def items(self) -> list[tuple[str, Federation]]:
        return [(page, fed) for fed in Federation.objects.order_by("pk") for page in self.pages]

    def location(self, item: tuple[str, Federation]) -> str:
        page, federation = item
        return reverse(page, args=[federation.slug])

    def lastmod(self, item: tuple[str, Federation]) -> datetime:
        return item[1].pages_changed


class FederationRankings(Sitemap):
    """Each federation season's ranking across its clubs."""

    def items(self) -> QuerySet[FederationSeason]:
        return FederationSeason.objects.select_related("federation").order_by("pk")

    def location(self, item: FederationSeason) -> str:
        return reverse("federation-ranking", args=[item.federation.slug, item.slug])


SITEMAPS: dict[str, type[Sitemap]] = {
    "site": SitePages,
    "clubs": ClubPages,
    "rankings": SeasonRankings,
    "nights": NightResults,
    "players": PlayerPages,
    "pages": ClubSitePages,
    "news": NewsPosts,
    "albums": PhotoAlbums,
    "federations": FederationPages,
    "federation-rankings": FederationRankings,
}
