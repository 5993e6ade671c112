"""A club's news as everybody reads it: every published post, paged; one post; the Atom feed
(Django's syndication framework); and a member's wish to get the posts by e-mail. A draft is
its club admins' alone (404 to anybody else)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.syndication.views import Feed
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.feedgenerator import Atom1Feed
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from club.club_pages import club_for, club_page
from club.models import Club, Player
from club.permissions import MEMBER

from ..models import NewsPost
from ..news import news_reader, news_reader_set

PER_PAGE = 10


def _reader(request: HttpRequest) -> Player | None:
    """The member's own player, when he is one of the club (the e-mail choice is his)."""
    if not request.club_access.is_member:
        return None
    return Player.objects.filter(user=request.user).first()


@club_page()
def news_list(request: HttpRequest, slug: str) -> TemplateResponse:
    club = request.club
    posts = NewsPost.objects.filter(club=club).published().latest_first()
    page = Paginator(posts, PER_PAGE).get_page(request.GET.get("page"))
    player = _reader(request)
    context = {
        "club": club,
        "page": page,
        "posts": list(page.object_list),
        "can_admin": request.club_access.is_club_admin,
        "reader": player,
        "subscribed": news_reader(club, player) if player else False,
    }
    return TemplateResponse(request, "clubsite/news_list.html", context)


@club_page()
def news_post(request: HttpRequest, slug: str, pk: int) -> TemplateResponse:
    club = request.club
    post = get_object_or_404(NewsPost, club=club, pk=pk)
    can_admin = request.club_access.is_club_admin
    if not post.is_published and not can_admin:
        raise Http404("a draft")
    return TemplateResponse(
        request,
        "clubsite/news_post.html",
        {"club": club, "post": post, "can_admin": can_admin},
    )


@require_POST
@login_required
@club_page(MEMBER)
def news_subscribe(request: HttpRequest, slug: str) -> HttpResponse:
    """A member asks for the club's news by e-mail, or stops them."""
    player = _reader(request)
    if player is None:
        raise Http404("no player")
    on = request.POST.get("on") == "1"
    news_reader_set(request.club, player, on)
    if on:
        messages.success(request, _("Vous recevrez les actualités du club par e-mail."))
    else:
        messages.success(request, _("Vous ne recevrez plus les actualités du club par e-mail."))
    back = request.POST.get("next", "")
    # Back where he asked (his profile), never to another site.
    if back and url_has_allowed_host_and_scheme(back, {request.get_host()}, request.is_secure()):
        return redirect(back)
    return redirect("news", slug=slug)


class NewsFeed(Feed):
    """The club's published posts as an Atom feed; every link absolute (the framework makes
    them so from the request's own host)."""

    feed_type = Atom1Feed

    def get_object(self, request: HttpRequest, slug: str) -> Club:
        return club_for(slug)

    def title(self, club: Club) -> str:
        return _("%(club)s : actualités") % {"club": club.name}

    def link(self, club: Club) -> str:
        return reverse("news", args=[club.slug])

    def subtitle(self, club: Club) -> str:
        return _("Les actualités de %(club)s") % {"club": club.name}

    def items(self, club: Club) -> list[NewsPost]:
        posts = NewsPost.objects.filter(club=club).published().select_related("club")
        return list(posts.latest_first()[:20])

    def item_title(self, post: NewsPost) -> str:
        return post.title

    def item_description(self, post: NewsPost) -> str:
        return post.html

    def item_link(self, post: NewsPost) -> str:
        return reverse("news-post", args=[post.club.slug, post.pk])

    def item_pubdate(self, post: NewsPost):
        return post.published_at

    def item_updateddate(self, post: NewsPost):
        return post.updated


news_feed = NewsFeed()
