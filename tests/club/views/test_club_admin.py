"""The club admin's pages: each form calls its service, and a club admin of another club
changes nothing of this one (404, everything as it was). Django's admin is the operator's."""

import copy
import datetime
import io

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from PIL import Image

from club.models import Club, Membership, Player
from games import point_tables
from games.models import PointTable
from games.services import point_table_for_data, point_table_for_preset
from scoring.engine.tables import preset_data
from tests.conftest import persona
from tests.factories import ClubFactory, PlayerFactory, TournamentFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def other_admin(db):
    """The admin of club B, who has no business in club A (the fixtures' club)."""
    return persona(ClubFactory(name="Whist Club Liège"), "admin-liege", Membership.Role.ADMIN)


def url(name, club, *args):
    return reverse(name, args=[club.slug, *args])


def test_a_club_admin_of_another_club_changes_nothing(client, club, season, member, other_admin):
    client.force_login(other_admin)
    player = member.player
    before_club = Club.objects.filter(pk=club.pk).values().get()
    before_membership = Membership.objects.filter(player=player).values().get()
    posts = [
        (
            url("member-add", club),
            {"display_name": "Pirate", "role": "admin", "start": "2025-01-01"},
        ),
        (url("member-edit", club, player.pk), {"display_name": "Pirate"}),
        (url("member-role", club, player.pk), {"role": "admin"}),
        (url("member-end", club, player.pk), {"end": "2025-01-01"}),
        (url("member-resume", club, player.pk), {"start": "2025-01-01"}),
        (url("member-from-guest", club, player.pk), {}),
        (url("seasons", club), {"name": "2030", "start": "2030-01-01", "end": "2030-12-31"}),
        (url("season-edit", club, season.slug), {"ranking_best_n": "1"}),
        (url("club-settings", club), {"name": "Pirates"}),
        (url("point-table", club, "rcwhist"), {"save": "1", "d-0-9": "50", "f-0-9": "-50"}),
    ]
    for address, data in posts:
        assert client.post(address, data).status_code == 404, address
    for name, args in [
        ("club-admin", []),
        ("members", []),
        ("seasons", []),
        ("point-tables", []),
        ("point-table-compare", ["rcwhist"]),
    ]:
        assert client.get(url(name, club, *args)).status_code == 404
    assert Club.objects.filter(pk=club.pk).values().get() == before_club
    assert Membership.objects.filter(player=player).values().get() == before_membership
    assert not Player.objects.filter(display_name="Pirate").exists()
    assert club.seasons.count() == 1
    assert not PointTable.objects.filter(club__isnull=False).exists()


def test_club_bs_own_pages_with_club_as_players_and_seasons_change_nothing(
    client, club, season, member, club_admin
):
    """Club B's admin on B's own addresses, with ids of club A: a player of A (never of B),
    A's season, A's own point table and a custom table only A's nights played."""
    liege = ClubFactory(name="Whist Club Liège")
    client.force_login(persona(liege, "admin-liege", Membership.Role.ADMIN))
    mine = point_tables.point_table_club_save(
        club,
        point_table_for_preset("rcwhist"),
        point_tables.grid_with(preset_data("rcwhist"), {(0, 9): (6, -6)}),
    )
    custom = copy.deepcopy(preset_data("rcwhist"))
    custom.update(name="namur-maison", label="Table maison de Namur")
    TournamentFactory(club=club, season=season, point_table=point_table_for_data(custom, club=club))
    PointTable.objects.filter(name="namur-maison").update(club=None)  # an old shared import
    player = member.player
    before = {
        "player": Player.objects.filter(pk=player.pk).values().get(),
        "memberships": list(Membership.objects.filter(player=player).values()),
        "season": club.seasons.values().get(),
        "tables": list(PointTable.objects.order_by("pk").values()),
    }
    posts = [
        (url("member-edit", liege, player.pk), {"display_name": "Pirate", "phone": "0"}),
        (url("member-role", liege, player.pk), {"role": "admin"}),
        (url("member-end", liege, player.pk), {"confirm": "1", "end": "2025-01-01"}),
        (url("member-resume", liege, player.pk), {"start": "2025-01-01"}),
        (url("member-from-guest", liege, player.pk), {}),
        (url("season-edit", liege, season.slug), {"ranking_best_n": "1"}),
        (url("point-table", liege, "namur-maison"), {"save": "1", "d-0-9": "50"}),
    ]
    for address, data in posts:
        assert client.post(address, data).status_code == 404, address
    assert client.get(url("member-edit", liege, player.pk)).status_code == 404
    assert client.get(url("point-table", liege, "namur-maison")).status_code == 404
    assert client.get(url("point-table-compare", liege, "namur-maison")).status_code == 404
    # Club B's own rcwhist is the shared one, not club A's version.
    page = client.get(url("point-table", liege, "rcwhist")).content.decode()
    assert f'name="table" value="{mine.pk}"' not in page
    assert {
        "player": Player.objects.filter(pk=player.pk).values().get(),
        "memberships": list(Membership.objects.filter(player=player).values()),
        "season": club.seasons.values().get(),
        "tables": list(PointTable.objects.order_by("pk").values()),
    } == before


def test_club_bs_admin_cannot_rename_club_as_president_who_also_plays_in_b(
    client, club, club_admin
):
    """A's president is also a plain member of B (as in the demo): B's admin sees him in B's
    list, but his name and contact are not B's to change (A would get two "Jean Dupont")."""
    president = Player.objects.get(user=club_admin)
    liege = ClubFactory(name="Whist Club Liège")
    Membership.objects.create(club=liege, player=president, start=datetime.date(2025, 1, 1))
    PlayerFactory(display_name="Jean Dupont", club=club)
    client.force_login(persona(liege, "admin-liege", Membership.Role.ADMIN))
    before = Player.objects.filter(pk=president.pk).values().get()
    page = client.get(url("member-edit", liege, president.pk)).content.decode()
    assert "un autre club : il change son nom" in page
    response = client.post(
        url("member-edit", liege, president.pk),
        {"display_name": "jean dupont", "first_name": "x", "last_name": "y", "phone": "0"},
    )
    assert response.status_code == 200
    assert "un autre club : il change son nom" in response.content.decode()
    assert Player.objects.filter(pk=president.pk).values().get() == before
    # B still gives him a role in B: that is B's membership.
    client.post(url("member-role", liege, president.pk), {"role": "scorer"})
    assert president.memberships.get(club=liege).role == "scorer"
    assert president.memberships.get(club=club).role == "admin"


def test_members_page_searches_filters_adds_and_gives_a_role(client, club, club_admin, member):
    client.force_login(club_admin)
    response = client.post(
        url("member-add", club),
        {"display_name": "Zoé Quinet", "role": "member", "start": "2025-02-01", "email": ""},
    )
    assert response.status_code == 302
    zoe = Player.objects.get(display_name="Zoé Quinet")
    client.post(url("member-role", club, zoe.pk), {"role": "scorer"})
    assert zoe.memberships.get().role == "scorer"

    page = client.get(url("members", club), {"q": "zoé", "filtre": "scorer"}).content.decode()
    assert "Zoé Quinet" in page
    assert member.player.display_name not in page
    refused = client.post(
        url("member-add", club),
        {"display_name": "zoe quinet", "role": "member", "start": "2025-02-01"},
        follow=True,
    )
    assert "déjà dans la liste" in refused.content.decode()


def test_the_last_admin_is_told_why_he_keeps_his_role(client, club, club_admin):
    client.force_login(club_admin)
    response = client.post(
        url("member-role", club, club_admin.player.pk), {"role": "member"}, follow=True
    )
    assert "dernier administrateur" in response.content.decode()
    assert Membership.objects.get(player=club_admin.player).role == "admin"


def test_a_season_created_with_best_2_of_3_and_its_rules_changed_with_a_preview(
    client, club, club_admin, season, imported_night
):
    client.force_login(club_admin)
    form = {
        "name": "2025",
        "start": "2025-01-01",
        "end": "2025-12-31",
        "ranking_best_n": "2",
        "ranking_min_tournaments": "3",
        "precedence_1": "tournament_points",
        "precedence_2": "game_points",
        "precedence_3": "",
        "default_rules": "rcwhist",
        "tournament_points": "rcwhist",
    }
    response = client.post(url("seasons", club), form)
    created = club.seasons.get(name="2025")
    assert response["Location"] == url("season-edit", club, created.slug)
    assert (created.ranking_best_n, created.ranking_min_tournaments) == (2, 3)
    assert created.ranking_guests is False  # an unticked box

    edit = {**form, "name": "2024", "start": "2024-01-01", "end": "2024-12-31"}
    edit["ranking_min_tournaments"] = "2"
    preview = client.post(url("season-edit", club, season.slug), {**edit, "preview": "1"})
    assert "Classement avant / après" in preview.content.decode()
    season.refresh_from_db()
    assert season.ranking_min_tournaments is None
    client.post(url("season-edit", club, season.slug), edit)
    season.refresh_from_db()
    assert season.ranking_min_tournaments == 2


def test_a_cell_changed_in_the_grid_is_saved_as_the_clubs_version(client, club, club_admin):
    client.force_login(club_admin)
    shared = point_table_for_preset("rcwhist")
    preview = client.post(url("point-table", club, "rcwhist"), {"d-0-9": "6", "f-0-9": "-6"})
    page = preview.content.decode()
    assert "1 case change" in page
    assert PointTable.objects.count() == 1
    refused = client.post(
        url("point-table", club, "rcwhist"), {"save": "1", "d-0-9": "6", "f-0-9": "-5"}
    )
    assert "pas 0" in refused.content.decode()
    assert PointTable.objects.count() == 1
    client.post(url("point-table", club, "rcwhist"), {"save": "1", "d-0-9": "6", "f-0-9": "-6"})
    mine = point_table_for_preset("rcwhist", club)
    assert mine != shared and mine.club == club and mine.data["rows"][0]["declarer"][9] == 6
    compare = client.get(url("point-table-compare", club, "rcwhist"))
    assert "1 case diffère" in compare.content.decode()


def test_a_formula_fills_a_row(client, club, club_admin):
    client.force_login(club_admin)
    response = client.post(
        url("point-table", club, "rcwhist"),
        {
            "formula": "1",
            "formula_row": "0",
            "made": "4",
            "per_over": "2",
            "failed": "6",
            "per_under": "2",
        },
    )
    assert response.status_code == 200
    assert 'name="d-0-9" value="6"' in response.content.decode()


def test_another_games_values_are_a_form(client, club, club_admin):
    client.force_login(club_admin)
    client.post(url("point-table", club, "coeurs"), {"save": "1", "v-queen_of_spades": "13"})
    mine = point_table_for_preset("coeurs", club)
    expected = copy.deepcopy(preset_data("coeurs"))
    expected["queen_of_spades"] = 13
    assert mine.data == expected


def test_the_clubs_settings_with_a_logo_and_its_colours(
    client, club, club_admin, settings, tmp_path
):
    settings.MEDIA_ROOT = tmp_path
    client.force_login(club_admin)
    buffer = io.BytesIO()
    Image.new("RGB", (1200, 600), (10, 20, 30)).save(buffer, format="PNG")
    response = client.post(
        url("club-settings", club),
        {
            "name": club.name,
            "short_name": "RCW",
            "logo": SimpleUploadedFile("logo.png", buffer.getvalue(), content_type="image/png"),
            "colour_background": "#003366",
            "colour_text": "#ffee00",
            "contact_email": "info@rcw.be",
            "contact_phone": "",
            "contact_address": "Rue du Whist 1, Namur",
            "language": "fr",
            "default_rules": "rcwhist",
            "rounds_per_night": "3",
        },
    )
    assert response.status_code == 302
    club.refresh_from_db()
    assert club.short_name == "RCW"
    with club.logo.open() as stored, Image.open(stored) as logo:
        assert max(logo.size) == 800
    css = client.get(url("club-colours", club)).content.decode()
    assert "#003366" in css and "#ffee00" in css
    detail = client.get(url("club-detail", club)).content.decode()
    assert "Rue du Whist 1, Namur" in detail and club.logo.url in detail
    refused = client.post(
        url("club-settings", club),
        {"name": club.name, "logo": SimpleUploadedFile("x.png", b"not an image")},
    )
    assert "pas une image lisible" in refused.content.decode()


def test_the_home_page_lists_the_clubs(client, club):
    ClubFactory(name="Cercle des Cœurs", short_name="Cœurs", default_rules="coeurs")
    page = client.get(reverse("home")).content.decode()
    assert club.name in page and "Cercle des Cœurs" in page


def test_djangos_admin_is_for_superusers_only(client, superuser):
    staff = UserFactory(username="staff", is_staff=True)
    client.force_login(staff)
    assert client.get(reverse("admin:index")).status_code == 302
    client.force_login(superuser)
    response = client.post(
        reverse("admin:club_club_add"),
        {
            "name": "Whist Club d'Arlon",
            "slug": "arlon",
            "short_name": "",
            "default_rules": "rcwhist",
            "language": "fr",
            "first_admin": "Jean Hubert",
            "first_admin_email": "jean@example.org",
        },
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    club = Club.objects.get(slug="arlon")
    membership = Membership.objects.get(club=club)
    assert (membership.player.display_name, membership.role) == ("Jean Hubert", "admin")


def test_ending_a_membership_is_asked_first_then_resumed(client, club, club_admin, member):
    client.force_login(club_admin)
    player = member.player
    asked = client.post(url("member-end", club, player.pk))
    assert asked.status_code == 200
    assert "Ses résultats et ses classements restent" in asked.content.decode()
    assert Membership.objects.get(player=player).end is None

    client.post(url("member-end", club, player.pk), {"confirm": "1", "end": "2025-06-30"})
    assert str(Membership.objects.get(player=player).end) == "2025-06-30"
    page = client.get(url("members", club), {"filtre": "former"}).content.decode()
    assert player.display_name in page
    assert "Reprendre l" in page

    client.post(url("member-resume", club, player.pk), {"start": "2025-09-01"})
    assert Membership.objects.current().filter(player=player).exists()


def test_a_season_may_follow_the_clubs_table_and_keeps_a_scheme_of_its_own(
    client, club, club_admin, season
):
    """The season form offers "the club's" (empty), and a tournament-points scheme the form
    cannot show is left as it is when the rules are saved."""
    client.force_login(club_admin)
    own_scheme = {"places": [7, 4, 2], "positive_from_place": 2}
    season.default_rules, season.tournament_points = "", own_scheme
    season.save()
    page = client.get(url("season-edit", club, season.slug)).content.decode()
    assert '<option value="" selected>Celui du club</option>' in page
    assert '<option value="custom" selected>' in page
    form = {
        "name": season.name,
        "start": str(season.start),
        "end": str(season.end),
        "ranking_best_n": "2",
        "ranking_min_tournaments": "",
        "precedence_1": "tournament_points",
        "precedence_2": "",
        "precedence_3": "",
        "default_rules": "",
        "tournament_points": "custom",
    }
    assert client.post(url("season-edit", club, season.slug), form).status_code == 302
    season.refresh_from_db()
    assert (season.ranking_best_n, season.default_rules) == (2, "")
    assert season.tournament_points == own_scheme
    # The club's default table changes: the season follows it.
    club.default_rules = "whisthub"
    club.save()
    season.refresh_from_db()
    assert season.rules_name == "whisthub"
    # "The club's" points scheme for another season, and a named one.
    client.post(url("season-edit", club, season.slug), {**form, "tournament_points": ""})
    season.refresh_from_db()
    assert season.tournament_points is None
    client.post(url("season-edit", club, season.slug), {**form, "tournament_points": "freewhist"})
    season.refresh_from_db()
    assert season.tournament_points == "freewhist"


def test_the_settings_page_says_imports_find_the_club_by_its_former_names(client, club, club_admin):
    client.force_login(club_admin)
    old_name = club.name
    form = {
        "name": "RCW Chevalerie",
        "short_name": "",
        "colour_background": "#14213d",
        "colour_text": "#ffffff",
        "contact_email": "",
        "contact_phone": "",
        "contact_address": "",
        "language": "fr",
        "default_rules": "rcwhist",
        "rounds_per_night": "3",
    }
    assert client.post(url("club-settings", club), form).status_code == 302
    page = client.get(url("club-settings", club)).content.decode()
    assert "anciens noms" in page and old_name in page


def test_a_point_table_form_opened_before_another_save_is_refused_in_words(
    client, club, club_admin
):
    """Two tabs (or two admins) on the same table: the second save would write the whole grid
    it was shown over the first one's change."""
    client.force_login(club_admin)
    address = url("point-table", club, "rcwhist")
    shared = point_table_for_preset("rcwhist")
    opened = {"table": str(shared.pk), "checksum": shared.checksum}
    first = client.post(address, {**opened, "save": "1", "d-0-9": "6", "f-0-9": "-6"})
    assert first.status_code == 302
    mine = point_table_for_preset("rcwhist", club)
    second = client.post(address, {**opened, "save": "1", "d-0-10": "7", "f-0-10": "-7"})
    assert second.status_code == 200
    assert "a changé depuis que vous l" in second.content.decode()
    mine.refresh_from_db()
    assert mine.data["rows"][0]["declarer"][9:11] == [6, 6]
    assert PointTable.objects.filter(club=club).count() == 1
    # The same on the club's own version, edited in place (no night played it yet).
    opened = {"table": str(mine.pk), "checksum": mine.checksum}
    client.post(address, {**opened, "save": "1", "d-0-9": "5", "f-0-9": "-5"})
    stale = client.post(address, {**opened, "save": "1", "d-0-13": "20", "f-0-13": "-20"})
    assert "a changé depuis que vous l" in stale.content.decode()
    mine.refresh_from_db()
    assert mine.data["rows"][0]["declarer"][13] == preset_data("rcwhist")["rows"][0]["declarer"][13]
