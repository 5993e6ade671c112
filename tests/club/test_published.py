"""Published pages revalidate with a 304 and cache their costly parts, keyed by when the
club last changed what it shows: a correction, a reopening, a publication is visible at once."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.forms.models import model_to_dict
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils.http import http_date

from club.names import PUBLIC, name_shown
from club.profile import PROFILE_FIELDS, ProfileForm, profile_update
from club.published import CSRF_PLACEHOLDER
from scoring.services import (
    deal_correct,
    ranking_publish,
    tournament_publish,
    tournament_reopen,
)
from tests.api.test_urls import night_path

pytestmark = pytest.mark.django_db

CSRF_INPUT = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
PLAYER_NAME = re.compile(r'href="/[^"]*/joueurs/\d+/">([^<]+)<')


@pytest.fixture
def published_night(imported_night):
    tournament_publish(imported_night)
    ranking_publish(imported_night.season)
    imported_night.refresh_from_db()
    return imported_night


def results_url(night):
    return reverse("games:results", args=[night.club.slug, night.pk])


def get(client, path, **headers):
    with CaptureQueriesContext(connection) as queries:
        response = client.get(path, headers=headers)
    return response, len(queries)


@pytest.mark.parametrize(
    "page",
    [
        lambda night: reverse("ranking", args=[night.club.slug]),
        lambda night: reverse("ranking-season", args=[night.club.slug, night.season.slug]),
        lambda night: reverse("ranking-archive", args=[night.club.slug]),
        lambda night: reverse("player", args=[night.club.slug, night.standings.first().player_id]),
        results_url,
    ],
)
def test_a_browsers_copy_of_a_published_page_is_answered_not_modified(
    client, published_night, page
):
    path = page(published_night)
    first, drawn = get(client, path)
    assert first.status_code == 200
    assert first["Cache-Control"] == "public, no-cache"
    assert first["Last-Modified"]

    again, checked = get(client, path, if_none_match=first["ETag"])

    assert again.status_code == 304
    assert again["ETag"] == first["ETag"]
    assert checked < drawn


def test_a_signed_in_visitor_gets_his_own_private_copy(client, published_night, member):
    anonymous, _ = get(client, results_url(published_night))
    client.force_login(member)

    mine, _ = get(client, results_url(published_night), if_none_match=anonymous["ETag"])

    assert mine.status_code == 200  # another visitor's copy is not his
    assert mine["Cache-Control"] == "private, no-cache"


def test_a_published_nights_rounds_are_drawn_once(client, published_night):
    _, first = get(client, results_url(published_night))
    _, second = get(client, results_url(published_night))

    assert second < first  # the rounds come from the cache: their queries are not made


def test_a_correction_of_a_published_night_is_visible_at_once(
    client, published_night, django_capture_on_commit_callbacks
):
    before, _ = get(client, results_url(published_night))
    # At a table of 4 a pass moves no mort onto a later declarer.
    poule = next(p for p in published_night.poules.all() if p.seats.count() == 4)
    deal = poule.deals.order_by("position").last()
    with django_capture_on_commit_callbacks(execute=True):
        corrected = deal_correct(deal, {"contract": "pass"}, closed_ok=True)
    assert corrected.points == [0] * len(corrected.points)

    after, _ = get(client, results_url(published_night), if_none_match=before["ETag"])

    assert after.status_code == 200
    assert after["ETag"] != before["ETag"]
    assert "Tous passent" in after.content.decode()
    assert after.content != before.content


def test_reopening_a_night_changes_the_club_pages(client, published_night, club_admin):
    ranking = reverse("ranking", args=[published_night.club.slug])
    before, _ = get(client, ranking)
    published_night.status = "closed"
    published_night.save(update_fields=["status"])

    tournament_reopen(published_night)

    after, _ = get(client, ranking, if_none_match=before["ETag"])
    assert after.status_code == 200
    assert after["ETag"] != before["ETag"]


def test_a_published_page_is_drawn_once_then_served_to_each_visitor_with_his_own_token(
    published_night,
):
    ranking = reverse("ranking", args=[published_night.club.slug])
    first, second = Client(enforce_csrf_checks=True), Client(enforce_csrf_checks=True)
    drawn, drawn_queries = get(first, ranking)

    served, served_queries = get(second, ranking)

    assert served_queries == 1  # the club and its stamp: the page itself comes from the cache
    assert served_queries < drawn_queries
    tokens = [CSRF_INPUT.search(page.content.decode()).group(1) for page in (drawn, served)]
    assert tokens[0] != tokens[1]
    assert CSRF_PLACEHOLDER not in served.content.decode()
    assert PLAYER_NAME.findall(served.content.decode()) == PLAYER_NAME.findall(
        drawn.content.decode()
    )
    # The language switch of the cached page works for the second visitor.
    switched = second.post(
        reverse("set_language"),
        {"language": "en", "next": ranking, "csrfmiddlewaretoken": tokens[1]},
    )
    assert switched.status_code == 302


def test_a_member_who_hides_his_name_is_hidden_on_the_public_pages_at_once(client, published_night):
    ranking = reverse("ranking", args=[published_night.club.slug])
    player = published_night.standings.order_by("rank").first().player
    player.email = "premier@example.org"
    player.save()
    before, _ = get(client, ranking)
    assert player.display_name in before.content.decode()
    form = ProfileForm(
        {**model_to_dict(player, fields=PROFILE_FIELDS), "public_name": "initials"},
        instance=player,
    )

    profile_update(player, form)

    after, _ = get(client, ranking, if_none_match=before["ETag"])
    assert after.status_code == 200
    assert player.display_name not in after.content.decode()
    assert name_shown(player, PUBLIC) in after.content.decode()


# A browser's (or a script's) copy of a published page or API read is compared as HTTP says
# (RFC 9110, through Django's ``get_conditional_response``): ``If-None-Match`` is a list of whole
# ETags, weak or strong, or ``*``; ``If-Modified-Since`` counts when no ETag is sent. An ETag that
# merely holds the page's inside it is another copy.


@pytest.fixture(params=["page", "api"])
def read(request, client, published_night):
    """A published read and its first answer: the ranking page, or the night in the API."""
    path = (
        reverse("ranking", args=[published_night.club.slug])
        if request.param == "page"
        else night_path(published_night)
    )
    first = client.get(path)
    assert first.status_code == 200
    return lambda **headers: client.get(path, headers=headers), first


def test_an_etag_that_merely_holds_the_pages_is_another_copy(read):
    again, first = read

    assert again(if_none_match=f'"{first["ETag"]}"').status_code == 200
    assert again(if_none_match=f'W/"old-{first["ETag"][1:]}').status_code == 200


@pytest.mark.parametrize(
    "copies",
    [
        lambda etag: f'"old", {etag}',  # a list: the browser keeps several copies
        lambda etag: f"W/{etag}",  # weak: compared as strong for a GET (RFC 9110)
        lambda etag: "*",  # any copy at all
    ],
)
def test_a_list_a_weak_etag_or_any_copy_holding_the_pages_is_not_modified(read, copies):
    again, first = read

    answer = again(if_none_match=copies(first["ETag"]))

    assert answer.status_code == 304
    assert answer["ETag"] == first["ETag"]


def test_a_copy_dated_since_the_change_is_not_modified_and_one_before_it_is_drawn(read):
    again, first = read

    assert again(if_modified_since=first["Last-Modified"]).status_code == 304
    assert again(if_modified_since=http_date(0)).status_code == 200
    # An ETag sent decides alone: a stale one is answered in full whatever its date.
    stale = again(if_modified_since=first["Last-Modified"], if_none_match='"old"')
    assert stale.status_code == 200
