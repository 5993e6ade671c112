"""The club site's Celery tasks, run through the outbox (``infra.outbox``): a photo's copies,
the admins told of a take-down request. Ids in, one function each, safe twice."""

from celery import shared_task

from infra import outbox
from infra.outbox import TaskName

from .photos import mailing as photo_mailing
from .photos import services as photo_services


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
