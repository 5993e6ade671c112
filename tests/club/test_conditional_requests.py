"""A browser's (or a script's) copy of a published page or API read is compared as HTTP says
(RFC 9110, through Django's ``get_conditional_response``): ``If-None-Match`` is a list of whole
ETags, weak or strong, or ``*``; ``If-Modified-Since`` counts when no ETag is sent. An ETag that
merely holds the page's inside it is another copy."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils.http import http_date

from tests.api.test_api import night_path
from tests.club.test_published_pages import published_night  # noqa: F401 (a fixture)

pytestmark = pytest.mark.django_db


@pytest.fixture(params=["page", "api"])
def read(request, client, published_night):  # noqa: F811
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
