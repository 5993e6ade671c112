"""The one way out of every bulk e-mail: a person confirms on the page; a mail reader's
one-click POST (RFC 8058) needs no login and no CSRF token; each link stops its own kind of
mail only; a bad link is refused in words."""

import pytest
from django.test import Client

from club.models import Player
from club.unsubscribe import MailKind, unsubscribe_url
from clubsite.news import news_reader, news_reader_set
from games import calendar
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db


def local(url: str) -> str:
    return "/" + url.split("://", 1)[1].split("/", 1)[1]


def test_a_person_is_asked_first_and_nothing_changes_on_a_get(client, club):
    player = PlayerFactory(club=club, display_name="Anne Dubois")
    response = client.get(local(unsubscribe_url(MailKind.RESULTS, player)))
    assert response.status_code == 200
    assert "Anne Dubois, ne plus recevoir vos résultats" in response.content.decode()
    player.refresh_from_db()
    assert player.result_emails


def test_one_click_post_without_login_nor_csrf_turns_off_that_kind_only(club):
    client = Client(enforce_csrf_checks=True)
    player = PlayerFactory(club=club)
    news_reader_set(club, player, True)
    response = client.post(
        local(unsubscribe_url(MailKind.RESULTS, player)), {"List-Unsubscribe": "One-Click"}
    )
    assert response.status_code == 200
    assert not Player.objects.get(pk=player.pk).result_emails
    assert calendar.member_calendar(player).reminders
    assert news_reader(club, player)

    client.post(local(unsubscribe_url(MailKind.REMINDERS, player)))
    assert not calendar.member_calendar(player).reminders
    client.post(local(unsubscribe_url(MailKind.NEWS, player, club.pk)))
    assert not news_reader(club, player)


def test_a_bad_link_is_refused_in_words(client):
    response = client.post("/desabonnement/pas-un-lien/")
    assert response.status_code == 404
    assert "ne fonctionne pas" in response.content.decode()
