"""The club's services: clubs, seasons and players created with their checks."""

from __future__ import annotations

import datetime
import io

import pytest
from django.core import mail
from django.core.exceptions import ValidationError
from django.core.files.base import ContentFile
from django.core.management import CommandError, call_command

from club import services
from club import services as club_services
from club.invitations import token_hash
from club.models import Club, Invitation, Membership, Player, Season
from tests.factories import ClubFactory, MembershipFactory, PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db


def test_the_season_of_a_new_night_is_opened_for_its_calendar_year(club):
    season = club_services.season_for_date(club, datetime.date(2026, 11, 21))
    assert (season.name, season.start, season.end) == (
        "2026",
        datetime.date(2026, 1, 1),
        datetime.date(2026, 12, 31),
    )
    assert club_services.season_for_date(club, datetime.date(2026, 3, 1)) == season


def test_a_club_met_in_a_file_is_opened_with_a_slug_of_its_own(db):
    first = club_services.club_named("Whist Club Namur")
    ClubFactory(name="Autre", slug="whist-club-liege")
    second = club_services.club_named("Whist Club Liège")
    assert first.slug == "whist-club-namur"
    assert second.slug == "whist-club-liege-2"
    assert club_services.club_named("Whist Club Namur") == first


def test_a_new_season_takes_the_dates_its_name_says(club):
    season = club_services.season_named(club, "2024-2025", datetime.date(2024, 10, 3))
    assert (season.start, season.end) == (datetime.date(2024, 1, 1), datetime.date(2025, 12, 31))
    other = club_services.season_named(club, "Printemps", datetime.date(2026, 4, 2))
    assert (other.start, other.end) == (datetime.date(2026, 1, 1), datetime.date(2026, 12, 31))


def test_an_existing_season_keeps_the_dates_the_club_gave_it(club, season):
    found = club_services.season_named(club, season.name, season.start)
    assert found == season


def test_a_player_joins_with_his_membership_and_his_name_split(club):
    player = club_services.player_join(
        club, "  Zoé   De Smet ", start=datetime.date(2026, 1, 8), status=Membership.Status.GUEST
    )
    assert (player.display_name, player.first_name, player.last_name) == (
        "Zoé De Smet",
        "Zoé",
        "De Smet",
    )
    membership = player.memberships.get()
    assert (membership.club, membership.status) == (club, Membership.Status.GUEST)


@pytest.mark.parametrize("spelling", [str.upper, lambda name: name.replace("e", "é")])
def test_a_name_already_in_the_club_is_refused_whatever_its_case_and_accents(
    club, club_members, spelling
):
    name = spelling(club_members[0].display_name)
    with pytest.raises(ValidationError, match="déjà dans la liste du club"):
        club_services.player_join(club, name, start=datetime.date(2026, 1, 8))
    assert Player.objects.filter(display_name=name).count() == 0


def test_a_player_without_a_name_is_refused(club):
    with pytest.raises(ValidationError, match="Donnez le nom"):
        club_services.player_join(club, "   ", start=datetime.date(2026, 1, 8))


# The club admin's services (club.services): members and roles, seasons, the club's
# settings, a new club and its first admin. Each refuses in words and writes nothing then.


DAY = datetime.date(2025, 3, 1)


def membership_of(user, club):
    return Membership.objects.current().get(club=club, player__user=user)


# Members


def test_a_new_member_with_his_role_and_address(club):
    player = services.member_add(club, "  Zoé   Dupont ", start=DAY, role="scorer", email="Z@x.be")
    membership = player.memberships.get()
    assert (player.display_name, player.email) == ("Zoé Dupont", "z@x.be")
    assert (membership.club, membership.role, membership.start) == (club, "scorer", DAY)


def test_a_name_the_club_has_is_refused_whatever_its_accents(club):
    services.member_add(club, "Zoé Dupont", start=DAY)
    with pytest.raises(ValidationError, match="déjà dans la liste"):
        services.member_add(club, "zoe DUPONT", start=DAY)
    assert Player.objects.count() == 1


def test_editing_a_member_keeps_names_unique_and_an_accounts_email_his_own(club, member):
    other = services.member_add(club, "Zoé Dupont", start=DAY)
    with pytest.raises(ValidationError) as refused:
        services.member_edit(club, member.player, display_name="ZOE dupont")
    assert "display_name" in refused.value.message_dict
    with pytest.raises(ValidationError) as refused:
        services.member_edit(club, member.player, email="autre@example.org")
    assert "email" in refused.value.message_dict
    services.member_edit(club, other, display_name="Zoé Dupont-Lambert", phone="0470 12 34 56")
    other.refresh_from_db()
    assert (other.display_name, other.phone) == ("Zoé Dupont-Lambert", "0470 12 34 56")


def test_a_club_admin_cannot_edit_a_player_of_another_club(club):
    stranger = PlayerFactory(display_name="Jean Dupont", club=ClubFactory(name="Whist Club Liège"))
    with pytest.raises(ValidationError, match="pas membre du club"):
        services.member_edit(club, stranger, display_name="Pirate")
    stranger.refresh_from_db()
    assert stranger.display_name == "Jean Dupont"


def test_a_player_shared_with_another_club_is_not_one_clubs_to_rename(club, member):
    """The member of club A also plays in club B: B's admin must not rename him (A's lists
    and sheets would change), nor set his e-mail."""
    liege = ClubFactory(name="Whist Club Liège")
    MembershipFactory(club=liege, player=member.player)
    before = Player.objects.filter(pk=member.player.pk).values().get()
    for fields in ({"display_name": "Pirate"}, {"phone": "0470 00 00 00"}):
        with pytest.raises(ValidationError, match="aussi membre d'un autre club"):
            services.member_edit(liege, member.player, **fields)
    assert Player.objects.filter(pk=member.player.pk).values().get() == before


def test_a_former_member_now_in_another_club_only_is_not_renamed_by_his_old_club(club):
    """He left club B for club A: B's admin still finds him among B's former members, but his
    name is now A's and his own."""
    liege = ClubFactory(name="Whist Club Liège")
    moved = PlayerFactory(display_name="Jean Dupont", club=liege)
    services.membership_end(moved.memberships.get(), datetime.date(2024, 12, 31))
    MembershipFactory(club=club, player=moved, start=datetime.date(2025, 1, 1))
    with pytest.raises(ValidationError, match="aussi membre d'un autre club"):
        services.member_edit(liege, moved, display_name="Pirate", email="pirate@example.org")
    moved.refresh_from_db()
    assert (moved.display_name, moved.email) == ("Jean Dupont", "")
    # His only club still corrects a player who is its alone.
    alone = services.member_add(club, "Zoé Dupont", start=DAY)
    services.member_edit(club, alone, display_name="Zoé Dupont-Lambert")


def test_roles_are_given_and_taken_but_a_club_keeps_one_admin(club, club_admin, member):
    membership = services.role_set(membership_of(member, club), Membership.Role.SCORER)
    assert membership.role == "scorer"
    with pytest.raises(ValidationError, match="dernier administrateur"):
        services.role_set(membership_of(club_admin, club), Membership.Role.MEMBER)
    with pytest.raises(ValidationError, match="dernier administrateur"):
        services.membership_end(membership_of(club_admin, club), DAY)
    services.role_set(membership, Membership.Role.ADMIN)
    services.role_set(membership_of(club_admin, club), Membership.Role.MEMBER)
    assert membership_of(club_admin, club).role == "member"
    with pytest.raises(ValidationError, match="Rôle inconnu"):
        services.role_set(membership, "president")


def test_an_admin_who_cannot_log_in_is_not_the_admin_the_club_keeps(club, club_admin):
    """An admin added without an account (his invitation not accepted), or whose account is
    closed, cannot run the club: the last admin who can log in keeps his role."""
    me = membership_of(club_admin, club)
    services.member_add(club, "Nobody Yet", start=DAY, role="admin")
    with pytest.raises(ValidationError, match="dernier administrateur"):
        services.role_set(me, Membership.Role.MEMBER)
    with pytest.raises(ValidationError, match="dernier administrateur"):
        services.membership_end(me, DAY)
    closed = PlayerFactory(
        user=UserFactory(username="closed", is_active=False), club=club, club__role="admin"
    )
    with pytest.raises(ValidationError, match="dernier administrateur"):
        services.role_set(me, Membership.Role.MEMBER)
    # One who can log in lets him go.
    PlayerFactory(user=UserFactory(username="deputy"), club=club, club__role="admin")
    services.role_set(me, Membership.Role.MEMBER)
    assert membership_of(club_admin, club).role == "member"
    assert closed.memberships.get().role == "admin"


def test_a_new_member_gets_one_of_the_clubs_roles_only(club):
    with pytest.raises(ValidationError, match="Rôle inconnu"):
        services.member_add(club, "Bad Role", start=DAY, role="owner")
    assert not Player.objects.filter(display_name="Bad Role").exists()


def test_ending_and_resuming_a_membership(club, member):
    ended = services.membership_end(membership_of(member, club), datetime.date(2025, 6, 30))
    assert ended.end == datetime.date(2025, 6, 30)
    with pytest.raises(ValidationError, match="déjà plus membre"):
        services.membership_end(ended, DAY)
    with pytest.raises(ValidationError, match="doit suivre"):
        services.membership_resume(club, member.player, datetime.date(2025, 6, 1))
    resumed = services.membership_resume(club, member.player, datetime.date(2025, 9, 1))
    assert (resumed.end, resumed.role) == (None, "member")
    assert member.player.memberships.filter(club=club).count() == 2
    with pytest.raises(ValidationError, match="déjà membre"):
        services.membership_resume(club, member.player, datetime.date(2025, 10, 1))


def test_a_player_of_two_clubs_has_a_role_in_each(club, member):
    other = ClubFactory(name="Whist Club Liège")
    MembershipFactory(club=other, player=member.player, role=Membership.Role.ADMIN)
    services.role_set(membership_of(member, club), Membership.Role.SCORER)
    assert membership_of(member, other).role == "admin"
    assert membership_of(member, club).role == "scorer"


def test_a_guest_becomes_a_member_and_keeps_his_results(
    club, season, django_capture_on_commit_callbacks
):
    guest = services.player_join(club, "Invité Martin", start=DAY, status="guest")
    season.ranking_guests = False
    season.save()
    membership = guest.memberships.get()
    with django_capture_on_commit_callbacks() as queued:
        services.guest_to_member(membership)
    membership.refresh_from_db()
    assert membership.status == "active"
    assert membership.player == guest
    assert len(queued) == 1  # the season that ranks members only is ranked again
    with pytest.raises(ValidationError, match="pas un invité"):
        services.guest_to_member(membership)


def test_members_search_by_name_and_filters(club, club_admin, scorer, member):
    guest = services.player_join(club, "Invité Martin", start=DAY, status="guest")
    former = services.member_add(club, "Ancien Maes", start=DAY)
    services.membership_end(former.memberships.get(), datetime.date(2025, 4, 1))
    invited = services.member_add(club, "Invitée Claes", start=DAY)
    Invitation.objects.create(
        club=club, player=invited, email="claes@example.org", token_hash=token_hash("t")
    )

    def names(text="", filters=()):
        return [m.player.display_name for m in services.members_search(club, text, filters)]

    assert names("invité mart") == ["Invité Martin"]
    assert names(filters=["guest"]) == ["Invité Martin"]
    assert names(filters=["former"]) == ["Ancien Maes"]
    assert names(filters=["invited"]) == ["Invitée Claes"]
    assert set(names(filters=["account"])) == {
        u.player.display_name for u in (club_admin, scorer, member)
    }
    assert names(filters=["admin"]) == [club_admin.player.display_name]
    assert names(filters=["scorer"]) == [scorer.player.display_name]
    assert "Ancien Maes" not in names(filters=["active"])
    assert guest.display_name not in names(filters=["active"])
    # A former member who came back is one line: his current membership.
    services.membership_resume(club, former, datetime.date(2025, 5, 1))
    assert names("ancien") == ["Ancien Maes"]
    assert names("ancien", ["active"]) == ["Ancien Maes"]


# Seasons


def test_the_next_season_follows_the_last_with_its_rules(club):
    services.season_create(
        club,
        "2025",
        datetime.date(2025, 1, 1),
        datetime.date(2025, 12, 31),
        ranking_best_n=18,
        ranking_guests=False,
    )
    suggested = services.season_next(club)
    assert (suggested.name, suggested.start, suggested.end) == (
        "2026",
        datetime.date(2026, 1, 1),
        datetime.date(2026, 12, 31),
    )
    assert (suggested.ranking_best_n, suggested.ranking_guests) == (18, False)


def test_a_september_to_june_season_is_followed_by_the_next_one(club):
    services.season_create(club, "2024-2025", datetime.date(2024, 9, 1), datetime.date(2025, 6, 30))
    suggested = services.season_next(club)
    assert suggested.name == "2025-2026"
    assert (suggested.start, suggested.end) == (
        datetime.date(2025, 9, 1),
        datetime.date(2026, 6, 30),
    )


def test_after_a_leap_year_the_next_calendar_year_still_ends_on_31_december(club):
    services.season_create(club, "2024", datetime.date(2024, 1, 1), datetime.date(2024, 12, 31))
    suggested = services.season_next(club)
    assert (suggested.name, suggested.start, suggested.end) == (
        "2025",
        datetime.date(2025, 1, 1),
        datetime.date(2025, 12, 31),
    )


def test_a_season_is_created_with_its_rules_and_refused_when_it_overlaps(club):
    season = services.season_create(
        club,
        "2025/2026",
        datetime.date(2025, 9, 1),
        datetime.date(2026, 6, 30),
        ranking_best_n=2,
        ranking_min_tournaments=3,
        ranking_precedence=["tournament_points", "tournaments_won"],
        default_rules="whisthub",
        tournament_points="freewhist",
    )
    assert season.slug == "2025-2026"
    assert season.ranking_rules().best_n == 2
    assert season.rules_name == "whisthub"
    assert season.points_scheme == "freewhist"
    with pytest.raises(ValidationError, match="chevauchent"):
        services.season_create(club, "2026", datetime.date(2026, 1, 1), datetime.date(2026, 12, 31))
    with pytest.raises(ValidationError):
        services.season_create(
            club, "X", datetime.date(2027, 1, 1), datetime.date(2027, 2, 1), ranking_best_n=0
        )
    with pytest.raises(ValidationError):
        services.season_create(
            club, "Y", datetime.date(2027, 1, 1), datetime.date(2027, 2, 1), tournament_points="x"
        )
    assert list(club.seasons.values_list("name", flat=True)) == ["2025/2026"]


def test_a_seasons_dates_keep_its_nights_inside(club, season, imported_night):
    with pytest.raises(ValidationError, match="hors de la saison"):
        services.season_dates_set(season, datetime.date(2024, 6, 1), datetime.date(2024, 12, 31))
    services.season_dates_set(season, datetime.date(2024, 1, 1), datetime.date(2024, 8, 31))
    season.refresh_from_db()
    assert season.end == datetime.date(2024, 8, 31)


# The club's settings and a new club


def test_the_clubs_settings_and_the_public_pages_mark(club):
    stamp = club.pages_changed
    club = services.club_settings_set(
        club, short_name="RCWhist", colour_background="#003366", contact_email="info@rcw.be"
    )
    assert (club.short_name, club.short, club.colour_background) == (
        "RCWhist",
        "RCWhist",
        "#003366",
    )
    assert club.pages_changed > stamp
    with pytest.raises(ValidationError):
        services.club_settings_set(club, colour_text="red; background: url(x)")
    club.refresh_from_db()
    assert club.colour_text == "#ffffff"


def test_the_operator_opens_a_club_with_its_first_admin():
    club, admin = services.club_open("Whist Club de Liège", admin_name="Marie Lambert")
    assert club.slug == "whist-club-de-liege"
    assert admin.memberships.get().role == "admin"
    with pytest.raises(ValidationError, match="existe déjà"):
        services.club_open("whist club de liège", admin_name="Autre")


def test_club_create_command_invites_the_first_admin():
    out = io.StringIO()
    call_command(
        "club_create",
        "Cercle de Bésigue",
        "--admin",
        "Paul Simon",
        "--email",
        "paul@example.org",
        "--rules",
        "besigue",
        stdout=out,
    )
    club = Club.objects.get(name="Cercle de Bésigue")
    assert club.default_game == "besigue"
    assert Membership.objects.get(club=club).role == "admin"
    assert mail.outbox[0].to == ["paul@example.org"]
    assert "Paul Simon is its admin" in out.getvalue()
    with pytest.raises(CommandError, match="existe déjà"):
        call_command("club_create", "Cercle de Bésigue", "--admin", "X", stdout=out)
    assert Club.objects.count() == 1
    assert Season.objects.count() == 0


def test_a_new_player_speaks_his_clubs_language(club):
    club = services.club_settings_set(club, language="nl")
    assert services.member_add(club, "Jan Peeters", start=DAY).language == "nl"


def test_a_renamed_club_is_still_found_by_its_old_name(club):
    """Its night files written before the change still name it so (the import's club)."""
    old_name = club.name
    club = services.club_settings_set(club, name="Whist La Chevalerie")
    club = services.club_settings_set(club, name="RCW Chevalerie")
    assert club.former_names == [old_name, "Whist La Chevalerie"]
    assert services.club_named(old_name) == club
    assert services.club_named("Whist La Chevalerie") == club
    assert services.club_named("RCW Chevalerie") == club
    assert Club.objects.count() == 1


def test_a_replaced_or_removed_logo_file_is_deleted_after_the_change(
    club, settings, tmp_path, django_capture_on_commit_callbacks
):
    settings.MEDIA_ROOT = tmp_path
    with django_capture_on_commit_callbacks(execute=True):
        club = services.club_settings_set(club, logo=ContentFile(b"first", name="a.png"))
    first = club.logo.name
    assert club.logo.storage.exists(first)
    with django_capture_on_commit_callbacks(execute=True):
        club = services.club_settings_set(club, logo=ContentFile(b"second", name="b.png"))
    second = club.logo.name
    assert not club.logo.storage.exists(first)
    assert club.logo.storage.exists(second)
    storage = club.logo.storage
    # A refused change keeps the logo online.
    with django_capture_on_commit_callbacks(execute=True), pytest.raises(ValidationError):
        services.club_settings_set(club, logo=None, colour_text="red")
    assert storage.exists(second)
    with django_capture_on_commit_callbacks(execute=True):
        club = services.club_settings_set(club, logo=None)
    assert not club.logo
    assert not storage.exists(second)
