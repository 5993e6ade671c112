"""A club's news, one function per change: a post written or edited (its Markdown made into
HTML once, here), published (and, once, e-mailed to the members who asked), taken back,
deleted; a member's wish for the news by e-mail; and what a published night's announcement
says before its admin edits it."""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import UploadedFile
from django.db import transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from club.models import Club, Membership, Player
from club.names import name_shown
from games.models import Tournament
from infra.mail_text import plain_text
from infra.outbox import TaskName, work_queue
from scoring.models import TournamentStanding

from .markdown import TextTooDeep, TextTooLong, rendered_html
from .models import NewsPost, NewsReader
from .models.news import TEXT_MAX
from .news_photo import phone_copy

LATEST = 3


@dataclass(frozen=True)
class PostText:
    title: str
    text: str
    date: datetime.date


def news_latest(club: Club, count: int = LATEST) -> list[NewsPost]:
    """The club's latest published posts (one query), for its page."""
    return list(NewsPost.objects.filter(club=club).published().latest_first()[:count])


@transaction.atomic
def news_save(
    club: Club,
    written: PostText,
    *,
    post: NewsPost | None = None,
    photo: UploadedFile | None = None,
    photo_clear: bool = False,
    author: Player | None = None,
) -> NewsPost:
    """A post written (``post`` None: a new draft) or edited; its HTML made now, once. A photo
    that is refused refuses the whole change (``ValidationError`` in words)."""
    if len(written.text) > TEXT_MAX:
        # Refused before it is parsed: a club's news item, never a pasted 2 MB page.
        raise ValidationError(
            {
                "text": _("Texte trop long : %(max)s caractères au plus (il en a %(len)s).")
                % {"max": TEXT_MAX, "len": len(written.text)}
            }
        )
    if post is None:
        post = NewsPost(club=club, author=author)
    elif post.club_id != club.pk:
        raise ValidationError(_("Cette actualité n'est pas celle du club."))
    post.title = written.title.strip()
    post.text = written.text
    post.date = written.date
    try:
        post.html = rendered_html(written.text)
    except (TextTooLong, TextTooDeep) as refused:
        raise ValidationError({"text": str(refused)}) from refused
    post.full_clean(exclude=["photo"])
    if photo is not None:
        copy = phone_copy(photo)
        if post.photo:
            post.photo.delete(save=False)
        post.photo.save(copy.name, copy, save=False)
    elif photo_clear and post.photo:
        post.photo.delete(save=False)
    post.save()
    return post


@transaction.atomic
def news_publish(post: NewsPost, *, email: bool = False) -> NewsPost:
    """The post shown to everybody. ``email``: e-mailed to the members who asked for news,
    once for the post's life (published again after a change, it is not sent again)."""
    post = NewsPost.objects.select_for_update().get(pk=post.pk)
    post.status = NewsPost.Status.PUBLISHED
    post.published_at = post.published_at or timezone.now()
    fields = ["status", "published_at", "updated"]
    if email and post.emailed_at is None:
        post.emailed_at = timezone.now()
        fields.append("emailed_at")
        work_queue(TaskName.NEWS_EMAIL, post.pk)
    post.save(update_fields=fields)
    return post


@transaction.atomic
def news_unpublish(post: NewsPost) -> NewsPost:
    """Back to a draft: off the club's pages and its feed (an e-mail gone stays gone)."""
    NewsPost.objects.filter(pk=post.pk).update(
        status=NewsPost.Status.DRAFT, published_at=None, updated=timezone.now()
    )
    post.refresh_from_db()
    return post


def news_delete(post: NewsPost) -> None:
    photo = post.photo.name if post.photo else ""
    storage = post.photo.storage
    post.delete()
    # The file goes once the row is gone (a failed delete leaves a file, never a dead row).
    if photo:
        transaction.on_commit(lambda: storage.delete(photo))


def news_reader(club: Club, player: Player) -> bool:
    return NewsReader.objects.filter(club=club, player=player).exists()


def news_reader_set(club: Club, player: Player, on: bool) -> None:
    """A member asks for the club's news by e-mail, or stops them (off by default)."""
    if on:
        NewsReader.objects.get_or_create(club=club, player=player)
    else:
        NewsReader.objects.filter(club=club, player=player).delete()


def news_readers(club: Club) -> list[Player]:
    """Who gets a post by e-mail: the club's current members who asked for the news."""
    wanting = NewsReader.objects.filter(club=club).values("player_id")
    members = Membership.objects.current().filter(club=club).values("player_id")
    return list(
        Player.objects.filter(pk__in=wanting)
        .filter(pk__in=members)
        .select_related("user")
        .order_by("pk")
    )


def night_announcement(night: Tournament, site: str = "") -> PostText:
    """A published night's post as the site writes it, for its admin to edit: the night, its
    podium (named as the public reads them: the post is public) and a link to its results
    (absolute, ``site`` the request's: the post may go by e-mail)."""
    podium = [
        (line.rank, name_shown(line.player, None), line.tournament_points)
        for line in TournamentStanding.objects.of_tournament(night).filter(rank__lte=3)
    ]
    results = site + reverse("games:results", kwargs={"slug": night.club.slug, "pk": night.pk})
    context = {"night": night, "podium": podium, "results_url": results}
    return PostText(
        title=" ".join(plain_text("clubsite/news_night_title.txt", context).split()),
        text=plain_text("clubsite/news_night_text.txt", context).strip() + "\n",
        date=night.date,
    )
