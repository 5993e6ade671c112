"""The club site's Celery tasks, run through the outbox (``infra.outbox``): a photo's copies,
the admins told of a take-down request; and, daily by beat, the photo files no row names.
Ids in, one function each, safe twice."""

from celery import shared_task

from infra import outbox
from infra.outbox import TaskName

from .photos import mailing as photo_mailing
from .photos import services as photo_services
from .photos.sweep import photo_files_sweep as photo_files_sweep_now


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
