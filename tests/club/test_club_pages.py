"""One way to load a club for a page (club/club_pages.py): the club of the address fetched,
who the viewer is to it worked out once (club/permissions.py's ``ClubAccess``) and put on the
request, the wrong role refused — 403 for a member, 404 for anybody else."""

import pytest
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse
from django.test import RequestFactory

from club.club_pages import access_for, club_page
from club.permissions import CLUB_ADMIN, MEMBER, SCORER, club_access

pytestmark = pytest.mark.django_db


def page_as(user, slug, need):
    """A page needing ``need``, asked by ``user``: what it saw of the request."""
    seen = {}

    @club_page(need)
    def page(request, slug):
        seen["club"], seen["viewer"] = request.club, request.club_access
        return HttpResponse("ok")

    request = RequestFactory().get("/")
    request.user = user
    page(request, slug)
    return seen


@pytest.mark.parametrize(
    ("who", "is_member", "is_scorer", "is_admin"),
    [
        ("anonymous", False, False, False),
        ("outsider", False, False, False),
        ("member", True, False, False),
        ("scorer", True, True, False),
        ("club_admin", True, True, True),
        ("superuser", True, True, True),
    ],
)
def test_who_the_viewer_is_to_the_club(club, who, is_member, is_scorer, is_admin, request):
    user = AnonymousUser() if who == "anonymous" else request.getfixturevalue(who)
    viewer = club_access(user, club)
    roles = (viewer.is_member, viewer.is_scorer, viewer.is_club_admin)
    assert roles == (is_member, is_scorer, is_admin)
    assert viewer.operator == (who == "superuser")


@pytest.mark.parametrize(
    ("need", "who", "refused"),
    [
        (CLUB_ADMIN, "scorer", PermissionDenied),
        (CLUB_ADMIN, "member", PermissionDenied),
        (CLUB_ADMIN, "outsider", Http404),
        (SCORER, "member", PermissionDenied),
        (SCORER, "outsider", Http404),
        (MEMBER, "outsider", Http404),
    ],
)
def test_the_wrong_role_is_refused_403_to_a_member_404_to_anybody_else(
    club, need, who, refused, request
):
    with pytest.raises(refused):
        page_as(request.getfixturevalue(who), club.slug, need)


def test_the_right_role_gets_the_club_and_its_viewer_on_the_request(club, club_admin, superuser):
    seen = page_as(club_admin, club.slug, CLUB_ADMIN)
    assert seen["club"] == club and seen["viewer"].is_club_admin
    assert page_as(superuser, club.slug, CLUB_ADMIN)["viewer"].operator


def test_an_unknown_club_is_a_404_for_everybody(club_admin):
    with pytest.raises(Http404):
        page_as(club_admin, "nulle-part", None)


def test_the_viewer_is_worked_out_once_per_request(club, scorer, django_assert_num_queries):
    request = RequestFactory().get("/")
    request.user = scorer
    with django_assert_num_queries(1):  # the role, on the first ask only
        viewer = access_for(request, club)
        assert viewer.is_scorer and not viewer.is_club_admin and viewer.is_member
        assert access_for(request, club) is viewer


def test_a_page_that_asks_nothing_of_its_viewer_makes_no_query_for_it(
    club, scorer, django_assert_num_queries
):
    with django_assert_num_queries(1):  # the club only
        page_as(scorer, club.slug, None)
