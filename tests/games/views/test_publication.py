"""No dead ends: a published night can be taken back (confirmed), closing says what each
unfinished table still counts for, and every printout names the club."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games.models import Tournament
from scoring import services as scoring_services

pytestmark = pytest.mark.django_db

EMBALLAGE = {"contract": "emballage", "bid": 8, "declarers": ["2", "4"], "tricks": 9}


def url(name: str, tournament: Tournament, **kwargs) -> str:
    return reverse(
        f"games:{name}", kwargs={"slug": tournament.club.slug, "pk": tournament.pk, **kwargs}
    )


@pytest.fixture
def published(running_night: Tournament) -> Tournament:
    scoring_services.deal_record(running_night.poules.filter(round=1).first(), EMBALLAGE)
    scoring_services.tournament_close(running_night, unfinished_ok=True)
    return scoring_services.tournament_publish(running_night)


def test_unpublishing_is_confirmed_first_with_what_it_does(client, published, club_admin):
    client.force_login(club_admin)
    response = client.post(url("unpublish", published))

    assert response.status_code == 200
    page = response.content.decode()
    assert "Dépublier la soirée ?" in page
    assert "ne seront plus visibles des membres ni du public" in page
    assert "compte toujours dans le classement de la saison" in page
    published.refresh_from_db()
    assert published.status == Tournament.Status.PUBLISHED


def test_an_unpublished_night_is_hidden_from_the_public_again_cache_or_not(
    client, published, club_admin
):
    results = url("results", published)
    assert client.get(results).status_code == 200  # the public page, cached
    ranked = set(published.standings.values_list("player", "tournament_points"))

    client.force_login(club_admin)
    response = client.post(url("unpublish", published), {"confirm": "1"})
    assert response.status_code == 302
    published.refresh_from_db()
    assert published.status == Tournament.Status.CLOSED
    # Still closed: it counts as before.
    assert set(published.standings.values_list("player", "tournament_points")) == ranked
    client.logout()
    assert client.get(results).status_code == 404
    # Published again: seen again.
    scoring_services.tournament_publish(published)
    assert client.get(results).status_code == 200


@pytest.mark.parametrize("persona", ["scorer", "member"])
def test_a_scorer_or_a_member_cannot_unpublish(client, published, persona, request):
    client.force_login(request.getfixturevalue(persona))

    assert client.post(url("unpublish", published), {"confirm": "1"}).status_code == 403
    published.refresh_from_db()
    assert published.status == Tournament.Status.PUBLISHED


def test_only_a_published_night_can_be_unpublished(running_night):
    with pytest.raises(Exception, match="Seule une soirée publiée"):
        scoring_services.tournament_unpublish(running_night)


def test_the_club_admin_sees_the_unpublish_button_on_a_published_night(
    client, published, club_admin
):
    client.force_login(club_admin)
    page = client.get(url("tournament", published)).content.decode()

    assert url("unpublish", published) in page
    assert url("publish", published) not in page


def test_closing_names_each_unfinished_table_and_says_it_still_counts(
    client, running_night, scorer
):
    played = running_night.poules.filter(round=1).order_by("table").first()
    scoring_services.deal_record(played, EMBALLAGE)
    client.force_login(scorer)
    page = client.post(url("close", running_night)).content.decode()

    expected = played.deals_tonight(played.seats.count())
    assert (
        f"Tour 1, table {played.table} : 1 donne sur {expected}. Elle compte quand même : ses "
        "joueurs sont classés sur cette donne et reçoivent leurs points de tournoi (5/3/1)."
    ) in page
    others = running_night.poules.filter(round=1).exclude(pk=played.pk)
    for poule in others:
        assert f"Tour 1, table {poule.table} : aucune donne jouée, aucun point de tournoi." in page


def test_closing_says_it_in_english_too(client, running_night, scorer):
    played = running_night.poules.filter(round=1).order_by("table").first()
    scoring_services.deal_record(played, EMBALLAGE)
    client.force_login(scorer)
    page = client.post(url("close", running_night), HTTP_ACCEPT_LANGUAGE="en").content.decode()

    assert f"Round 1, table {played.table}: 1 deal of " in page
    assert "It still counts" in page


@pytest.mark.parametrize("page", ["ranking", "results", "seating"])
def test_every_printout_names_the_club(client, club, published, club_admin, page):
    scoring_services.ranking_publish(published.season)
    client.force_login(club_admin)
    address = {
        "ranking": reverse("ranking", args=[club.slug]),
        "results": url("results", published),
        "seating": url("seating", published, round=1),
    }[page]
    text = client.get(address).content.decode()

    assert f'<p class="print-brand">{club.name}</p>' in text


# A night taken back (unpublished) leaves every list the public and the club's members read:
# the club's page, a player's page, the API's nights; its pages answer as if it had never been
# held. Its scorers and club admins still find it where they run the club's nights.


def _night_url(night: Tournament, name: str) -> str:
    return reverse(f"games:{name}", args=[night.club.slug, night.pk])


def lists_holding(client, night: Tournament) -> set[str]:
    """The lists, of those a reader may open, that name the night."""
    found = set()
    club_page = client.get(reverse("club-detail", args=[night.club.slug])).content.decode()
    if f"{night.date:%d/%m/%Y}" in club_page:
        found.add("club page")
    player = night.standings.first().player
    player_page = client.get(reverse("player", args=[night.club.slug, player.pk]))
    if _night_url(night, "results") in player_page.content.decode():
        found.add("player page")
    nights = client.get(f"/api/v1/clubs/{night.club.slug}/nights/").json()
    if night.pk in [entry["id"] for entry in nights["results"]]:
        found.add("api nights")
    return found


def _reader(client, who: str, request) -> None:
    if who != "public":
        client.force_login(request.getfixturevalue(who))


EVERY_LIST = {"club page", "player page", "api nights"}


@pytest.mark.parametrize("who", ["public", "outsider", "member"])
def test_an_unpublished_night_leaves_every_list_the_public_and_members_read(
    client, published, who, request
):
    _reader(client, who, request)
    assert lists_holding(client, published) == EVERY_LIST

    scoring_services.tournament_unpublish(published)

    assert lists_holding(client, published) == set()
    for name in ("results", "room"):
        assert client.get(_night_url(published, name)).status_code in (403, 404), name
    if who == "public":
        assert client.get(_night_url(published, "tournament")).status_code == 404
        assert client.get(_night_url(published, "results")).status_code == 404


@pytest.mark.parametrize("who", ["scorer", "club_admin"])
def test_its_scorers_and_admins_still_find_it_on_the_club_page(client, published, who, request):
    scoring_services.tournament_unpublish(published)
    _reader(client, who, request)

    page = client.get(reverse("club-detail", args=[published.club.slug])).content.decode()

    assert f"{published.date:%d/%m/%Y}" in page
    assert _night_url(published, "tournament") in page


def test_a_member_finds_tonights_night_but_the_public_does_not(client, running_night, member):
    club_page = reverse("club-detail", args=[running_night.club.slug])
    date = f"{running_night.date:%d/%m/%Y}"
    assert date not in client.get(club_page).content.decode()
    client.force_login(member)
    assert date in client.get(club_page).content.decode()


def test_the_club_page_lists_in_the_same_queries_whatever_is_hidden(client, published):
    """The filter is in the list's own query: hiding nights costs no query (the winners'
    query goes when no night is left to list)."""
    club_page = reverse("club-detail", args=[published.club.slug])
    client.get(club_page)
    with CaptureQueriesContext(connection) as before:
        client.get(club_page)
    scoring_services.tournament_unpublish(published)
    client.get(club_page)  # the home's podium and album read again once (clubsite/home.py)
    with CaptureQueriesContext(connection) as after:
        client.get(club_page)
    # At most the club, its seasons, the nights, their winners, the calendar, the club site's
    # menu and the latest news (tests/club/views/test_public.py counts them exactly).
    assert len(before.captured_queries) <= 7
    assert len(after.captured_queries) <= len(before.captured_queries)


def test_publishing_says_the_season_ranking_is_published_with_the_night_unless_the_club_chose(
    client, running_night, club_admin, django_capture_on_commit_callbacks
):
    scoring_services.deal_record(running_night.poules.filter(round=1).first(), EMBALLAGE)
    scoring_services.tournament_close(running_night, unfinished_ok=True)
    client.force_login(club_admin)

    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(url("publish", running_night), follow=True)

    page = response.content.decode()
    assert "ses feuilles et le classement de la saison sont visibles de tous" in page
    assert running_night.season.rankings.filter(published_at__isnull=False).exists()

    running_night.club.ranking_follows_nights = False
    running_night.club.save(update_fields=["ranking_follows_nights"])
    client.post(url("unpublish", running_night), {"confirm": "1"})
    response = client.post(url("publish", running_night), follow=True)
    assert "Soirée publiée : ses feuilles sont visibles de tous." in response.content.decode()
