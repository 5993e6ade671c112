"""Celery tasks of the club site: take ids, call one service, safe to run twice."""

from celery import shared_task

from infra.outbox import TaskName, work_run

from . import mailing


@shared_task
def news_email(post_id: int) -> int:
    """E-mail a post to the members who asked for news; a second run sends none."""
    sent = work_run(
        TaskName.NEWS_EMAIL, post_id, lambda: mailing.news_email_send(post_id), atomic=False
    )
    return sent or 0


@shared_task
def contact_email(message_id: int) -> int:
    """A visitor's message to the club; a second run sends nothing."""
    sent = work_run(
        TaskName.CONTACT_EMAIL, message_id, lambda: mailing.contact_send(message_id), atomic=False
    )
    return sent or 0
