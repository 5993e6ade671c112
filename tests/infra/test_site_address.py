"""Links go where the reader came: a page's e-mails and the work it queues link to the
request's own address, and ``SITE_URL`` is only for work no request asked for."""

from __future__ import annotations

import re

import pytest
from django.core import mail
from django.test import RequestFactory
from django.urls import reverse

from infra.models import PendingWork
from infra.outbox import TaskName, work_queue, work_run
from infra.site_address import absolute, origin_of, served_from, site_url


def test_without_a_request_links_go_to_site_url(settings):
    settings.SITE_URL = "https://whist.example"
    assert site_url() == "https://whist.example"
    assert absolute("/clubs/rcwhist/") == "https://whist.example/clubs/rcwhist/"


def test_inside_a_request_links_go_to_its_address(settings):
    settings.SITE_URL = "https://whist.example"
    with served_from("http://192.168.1.10:8000"):
        assert absolute("/aide/") == "http://192.168.1.10:8000/aide/"
    assert site_url() == "https://whist.example"


def test_a_host_the_site_does_not_serve_never_enters_a_link(settings):
    settings.ALLOWED_HOSTS = ["club.example"]
    assert origin_of(RequestFactory().get("/", HTTP_HOST="club.example")) == "http://club.example"
    assert origin_of(RequestFactory().get("/", HTTP_HOST="evil.example")) is None


@pytest.mark.django_db
def test_work_queued_by_a_request_links_where_the_request_came(settings):
    settings.SITE_URL = "https://whist.example"
    with served_from("https://club.example"):
        work_queue(TaskName.SIGNUP_LINK_EMAIL, 7)
    assert PendingWork.objects.get().origin == "https://club.example"
    # The worker writes its links there, and SITE_URL again once done.
    seen = work_run(TaskName.SIGNUP_LINK_EMAIL, 7, lambda: absolute("/x/"), atomic=False)
    assert seen == "https://club.example/x/"
    assert site_url() == "https://whist.example"
    # Work no request asked for (beat) links to SITE_URL.
    work_queue(TaskName.SIGNUP_LINK_EMAIL, 8)
    assert work_run(TaskName.SIGNUP_LINK_EMAIL, 8, lambda: absolute("/x/")) == (
        "https://whist.example/x/"
    )


@pytest.mark.django_db
def test_a_sign_up_link_goes_to_the_host_the_secretary_used(
    client, settings, django_capture_on_commit_callbacks
):
    settings.SITE_URL = "http://127.0.0.1:8000"
    settings.CLUB_SIGNUP = "open"
    settings.ALLOWED_HOSTS = ["club.example"]
    with django_capture_on_commit_callbacks(execute=True):
        client.post(
            reverse("signup-start"),
            {"email": "marie@example.org", "name": "Marie Lambert"},
            HTTP_HOST="club.example",
        )
    (message,) = mail.outbox
    assert re.search(r"http://club\.example/inscription/confirmer/\S+", message.body)
    assert "127.0.0.1" not in message.body
