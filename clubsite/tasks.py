"""The club site's Celery tasks, run through the outbox (``infra.outbox``): a photo's copies, the
admins told of a take-down request, a night's and a season's share picture, a news post e-mailed
to those who asked, a visitor's message to the club; and, daily by beat, the photo files no row
names and the visitors' messages kept long enough. Ids in, one function each, safe twice (a
picture drawn twice is the same picture)."""

from celery import shared_task

from club.models import Season
from games.models import Tournament
from infra import outbox
from infra.outbox import TaskName

from . import mailing
from .contact import contact_messages_purge as contact_messages_purge_now
from .photos import mailing as photo_mailing
from .photos import services as photo_services
from .photos.sweep import photo_files_sweep as photo_files_sweep_now
from .share import night_picture_store, season_picture_store


@shared_task
def photo_copies(photo_id: int) -> bool:
    """A photo's thumbnail, phone and full-size copies, made once from its upload."""
    done = outbox.work_run(
        TaskName.PHOTO_COPIES,
        photo_id,
        lambda: photo_services.photo_copies_make(photo_id),
        atomic=False,
    )
    return bool(done)


@shared_task
def photo_takedown_email(photo_id: int) -> int:
    """The club's admins told that a member asks for a photo to be taken down."""
    sent = outbox.work_run(
        TaskName.PHOTO_TAKEDOWN_EMAIL,
        photo_id,
        lambda: photo_mailing.takedown_send(photo_id),
        atomic=False,
    )
    return sent or 0


@shared_task
def photo_files_sweep() -> int:
    """The photo files no photo names any more (a purged club's), deleted (beat, daily)."""
    return photo_files_sweep_now()


@shared_task
def contact_messages_purge() -> int:
    """The visitors' messages kept long enough, deleted (beat, daily)."""
    return contact_messages_purge_now()


@shared_task
def night_share_picture(tournament_id: int) -> None:
    """A night published or taken back: its share picture drawn, or removed."""
    tournament = Tournament.objects.select_related("club").filter(pk=tournament_id).first()
    # The storage is no transaction: the row goes once the file is written.
    outbox.work_run(
        TaskName.NIGHT_SHARE_PICTURE,
        tournament_id,
        lambda: night_picture_store(tournament) if tournament else None,
        atomic=False,
    )


@shared_task
def season_share_picture(season_id: int) -> None:
    """A season's ranking published (or imported): its share picture drawn."""
    season = Season.objects.select_related("club").filter(pk=season_id).first()
    outbox.work_run(
        TaskName.SEASON_SHARE_PICTURE,
        season_id,
        lambda: season_picture_store(season) if season else None,
        atomic=False,
    )


@shared_task
def news_email(post_id: int) -> int:
    """E-mail a post to the members who asked for news; a second run sends none."""
    sent = outbox.work_run(
        TaskName.NEWS_EMAIL, post_id, lambda: mailing.news_email_send(post_id), atomic=False
    )
    return sent or 0


@shared_task
def contact_email(message_id: int) -> int:
    """A visitor's message to the club; a second run sends nothing."""
    sent = outbox.work_run(
        TaskName.CONTACT_EMAIL, message_id, lambda: mailing.contact_send(message_id), atomic=False
    )
    return sent or 0
