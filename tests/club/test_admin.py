"""Every admin page opens for a superuser once a night has filled every table."""

import pytest
from django.contrib import admin
from django.contrib.auth.models import Group
from django.urls import reverse

from club.models import Club, ClubSignup, Invitation
from club.services import federation_open
from club.services.closing import club_close
from club.tokens import token_create

pytestmark = pytest.mark.django_db

REGISTERED = sorted(admin.site._registry, key=lambda model: model._meta.label)


def url(model, view, *args):
    return reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_{view}", args=args)


@pytest.fixture
def staff_client(client, superuser, imported_night):
    Group.objects.create(name="Marqueurs")
    player = imported_night.present.first() or imported_night.standings.first().player
    Invitation.objects.create(
        club=imported_night.club, player=player, email="invite@example.org", token_hash="0" * 64
    )
    token_create(superuser, "site du club")
    federation_open("Ligue de test", clubs=[imported_night.club])
    ClubSignup.objects.create(
        email="secretaire@example.org",
        name="Marie Lambert",
        status=ClubSignup.Status.WAITING,
        answers={"club": {"name": "Whist Club de Ciney", "town": "Ciney"}},
    )
    closed = Club.objects.create(name="Club fermé", slug="club-ferme")
    club_close(closed, typed_name=closed.name, by=superuser)
    client.force_login(superuser)
    return client


def test_every_model_of_the_site_is_registered():
    labels = {model._meta.label for model in REGISTERED}

    assert {
        "club.Club",
        "club.Player",
        "club.Membership",
        "club.Season",
        "club.Invitation",
        "club.ApiToken",
        "club.Federation",
        "games.Tournament",
        "games.Poule",
        "games.Deal",
        "games.PointTable",
        "scoring.PouleStanding",
        "scoring.TournamentStanding",
        "scoring.RankingSnapshot",
        "scoring.RankingLine",
    } <= labels


@pytest.mark.parametrize("model", REGISTERED, ids=lambda model: model._meta.label)
def test_the_changelist_and_a_change_page_open(staff_client, model):
    obj = model._default_manager.order_by("pk").first()
    assert obj is not None, f"no {model._meta.label} row to open"

    changelist = staff_client.get(url(model, "changelist"))
    change = staff_client.get(url(model, "change", obj.pk))

    assert changelist.status_code == 200
    assert change.status_code == 200


@pytest.mark.parametrize("model", REGISTERED, ids=lambda model: model._meta.label)
def test_the_add_page_opens_where_adding_is_allowed_and_is_refused_elsewhere(
    staff_client, rf, superuser, model
):
    request = rf.get("/")
    request.user = superuser
    may_add = admin.site._registry[model].has_add_permission(request)

    response = staff_client.get(url(model, "add"))

    assert response.status_code == (200 if may_add else 403)


def test_the_changelist_search_works(staff_client):
    for model in REGISTERED:
        if admin.site._registry[model].search_fields:
            response = staff_client.get(url(model, "changelist"), {"q": "Dupont"})
            assert response.status_code == 200, model._meta.label


@pytest.mark.parametrize("persona", ["club_admin", "scorer", "member", "outsider"])
def test_the_admin_is_refused_to_every_club_persona_without_staff_status(client, request, persona):
    client.force_login(request.getfixturevalue(persona))

    response = client.get(reverse("admin:index"))

    assert response.status_code == 302
    assert response["Location"].startswith(reverse("admin:login"))


def club_change_form(club, **changes):
    form = {
        "name": club.name,
        "slug": club.slug,
        "default_rules": club.default_rules,
        "tournament_points": '"rcwhist"',
        "deals_per_poule_4": club.deals_per_poule_4,
        "deals_per_poule_5": club.deals_per_poule_5,
        "rounds_per_night": club.rounds_per_night,
        "ranking_best_n": "",
        "ranking_min_tournaments": club.ranking_min_tournaments,
        "ranking_precedence": '["tournament_points", "game_points"]',
        "seasons-TOTAL_FORMS": "0",
        "seasons-INITIAL_FORMS": "0",
        "seasons-MIN_NUM_FORMS": "0",
        "seasons-MAX_NUM_FORMS": "1000",
        "_save": "Save",
    }
    return {**form, **changes}


def test_a_club_admin_form_with_a_bad_scheme_shows_the_error_on_its_field(staff_client):
    club = Club.objects.get(closing=None)

    response = staff_client.post(
        url(Club, "change", club.pk), club_change_form(club, tournament_points='"rcwist"')
    )

    assert response.status_code == 200
    errors = response.context["adminform"].form.errors
    assert 'unknown scheme "rcwist"' in errors["tournament_points"][0]


def test_a_club_admin_form_with_a_bad_precedence_shows_the_error_on_its_field(staff_client):
    club = Club.objects.get(closing=None)

    response = staff_client.post(
        url(Club, "change", club.pk), club_change_form(club, ranking_precedence='["luck"]')
    )

    assert response.status_code == 200
    assert "luck" in response.context["adminform"].form.errors["ranking_precedence"][0]
