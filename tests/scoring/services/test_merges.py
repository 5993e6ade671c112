"""Two records of one person merged: the history of both on the record kept, the rankings
recomputed, the merge undone to the row, and everybody who may not decide it refused."""

from __future__ import annotations

from fractions import Fraction

import pytest
from django.core import mail
from django.core.exceptions import PermissionDenied, ValidationError

from club import mailing, tasks
from club.models import FederationAdmin, Membership, Player, PlayerMerge
from club.permissions import club_access, is_club_admin, is_federation_admin
from club.services import (
    federation_admin_add,
    federation_admin_remove,
    federation_open,
    role_set,
)
from games.models import Seat
from scoring.models import (
    PlayerNightStats,
    PlayerRating,
    RankingSnapshot,
    TournamentStanding,
)
from scoring.services import merge_confirm, merge_propose, merge_refuse, merge_undo
from scoring.services.merges import player_columns
from tests.factories import ClubFactory, PlayerFactory, UserFactory
from tests.scoring.merge_setup import night, two_records

pytestmark = pytest.mark.django_db

# Tables recomputed from the others after a merge or its undo: compared by what they say.
RECOMPUTED = {
    "scoring.PlayerRating.player",
    "scoring.PlayerNightStats.player",
    "scoring.PlayerSeasonStats.player",
}


@pytest.fixture
def records(club, season, point_table, django_capture_on_commit_callbacks):
    return two_records(club, season, point_table, django_capture_on_commit_callbacks)


@pytest.fixture
def proposed(records, club_admin):
    return merge_propose(records.kept, records.merged, records.club, club_admin)


def live_line(season, player):
    snapshot = RankingSnapshot.objects.get(season=season, published_at=None)
    return snapshot.lines.filter(player=player).first()


def rows_by_player(*players):
    """Per table, which rows name each player (ids), and what the recomputed tables say."""
    rows = {}
    for label, model, field in player_columns():
        for player in players:
            named = model._base_manager.filter(**{field.attname: player.pk})
            if label == "scoring.RankingLine.player":
                # The live ranking is recomputed; a published one is history, row for row.
                rows[label, player.pk, "published"] = set(
                    named.filter(snapshot__published_at__isnull=False).values_list("pk", flat=True)
                )
                named = named.filter(snapshot__published_at=None)
                rows[label, player.pk] = set(
                    named.values_list("snapshot", "rank", "tournament_points", "tournaments_played")
                )
            elif label in RECOMPUTED:
                said = [
                    f.attname for f in model._meta.fields if f.attname not in ("id", "player_id")
                ]
                rows[label, player.pk] = {str(row) for row in named.values_list(*said)}
            else:
                rows[label, player.pk] = set(named.values_list("pk", flat=True))
    return rows


def test_a_confirmed_merge_moves_the_whole_history_to_the_record_kept(
    records, proposed, django_capture_on_commit_callbacks
):
    kept, merged = records.kept, records.merged
    before = live_line(records.season, kept)

    with django_capture_on_commit_callbacks(execute=True):
        merge = merge_confirm(proposed, records.neighbour_admin)

    assert merge.status == PlayerMerge.Status.DONE
    assert set(
        TournamentStanding.objects.filter(player=kept).values_list("tournament", flat=True)
    ) == {n.pk for n in records.nights.values()}
    assert not Seat.objects.filter(player=merged).exists()
    assert set(Membership.objects.filter(player=kept).values_list("club", flat=True)) == {
        records.club.pk,
        records.neighbour.pk,
    }
    merged.refresh_from_db()
    assert merged.merged_into == kept
    # The club's live ranking sums both records' nights on one line.
    line = live_line(records.season, kept)
    assert line.tournaments_played == 2
    assert line.tournament_points > before.tournament_points
    assert live_line(records.season, merged) is None
    # The neighbour's season, where only the merged record played, now ranks the kept one.
    assert live_line(records.neighbour_season, kept).tournaments_played == 1
    # The ratings are rebuilt: the kept record is rated for all three nights.
    assert PlayerRating.objects.filter(player=kept).count() == 3
    assert PlayerNightStats.objects.filter(player=kept).count() == 3
    assert not PlayerRating.objects.filter(player=merged).exists()


def test_the_published_ranking_keeps_both_lines_as_it_was_published(
    records, proposed, django_capture_on_commit_callbacks
):
    published = RankingSnapshot.objects.filter(season=records.season).latest_published().get()
    lines = dict(published.lines.values_list("player", "tournament_points"))

    with django_capture_on_commit_callbacks(execute=True):
        merge_confirm(proposed, records.neighbour_admin)

    assert dict(published.lines.values_list("player", "tournament_points")) == lines
    assert records.merged.pk in lines


def test_undoing_a_merge_gives_each_record_back_exactly_its_rows(
    records, proposed, club_admin, django_capture_on_commit_callbacks
):
    kept, merged = records.kept, records.merged
    before = rows_by_player(kept, merged)
    kept_line = live_line(records.season, kept)

    with django_capture_on_commit_callbacks(execute=True):
        merge = merge_confirm(proposed, records.neighbour_admin)
    assert rows_by_player(kept, merged) != before
    with django_capture_on_commit_callbacks(execute=True):
        merge_undo(merge, club_admin)

    assert rows_by_player(kept, merged) == before
    merged.refresh_from_db()
    assert merged.merged_into is None
    assert PlayerMerge.objects.get(pk=merge.pk).status == PlayerMerge.Status.UNDONE
    assert live_line(records.season, kept).tournaments_played == kept_line.tournaments_played == 1


def test_the_merged_records_account_goes_to_the_kept_record_and_comes_back(
    records, proposed, django_capture_on_commit_callbacks
):
    user = UserFactory(username="zoe")
    Player.objects.filter(pk=records.merged.pk).update(user=user)

    merge = merge_confirm(proposed, user)  # the player himself confirms
    assert Player.objects.get(user=user) == records.kept

    merge_undo(merge, user)
    assert Player.objects.get(user=user) == records.merged


def test_a_refused_merge_moves_nothing(records, proposed):
    before = rows_by_player(records.kept, records.merged)

    merge_refuse(proposed, records.neighbour_admin)

    assert PlayerMerge.objects.get(pk=proposed.pk).status == PlayerMerge.Status.REFUSED
    assert rows_by_player(records.kept, records.merged) == before
    with pytest.raises(ValidationError, match="déjà refusée"):
        merge_confirm(proposed, records.neighbour_admin)


@pytest.mark.parametrize("who", ["outsider", "member", "club_admin", "unrelated_admin"])
def test_who_may_not_confirm_is_refused_in_words(records, proposed, who, request):
    if who == "unrelated_admin":
        user = UserFactory(username="autre")
        PlayerFactory(user=user, club=ClubFactory(name="Club d'ailleurs"), club__role="admin")
    else:
        user = request.getfixturevalue(who)

    with pytest.raises(PermissionDenied, match="confirme"):
        merge_confirm(proposed, user)
    if who != "club_admin":  # the proposing club may withdraw its proposal, not confirm it
        with pytest.raises(PermissionDenied, match="se refuse"):
            merge_refuse(proposed, user)
    assert PlayerMerge.objects.get(pk=proposed.pk).status == PlayerMerge.Status.PROPOSED


def test_the_proposer_is_told_the_player_or_the_other_club_confirms(records, proposed, club_admin):
    with pytest.raises(PermissionDenied, match="Vous avez proposé cette fusion"):
        merge_confirm(proposed, club_admin)


@pytest.mark.parametrize("who", ["outsider", "member"])
def test_who_may_not_propose_or_undo_is_refused(records, proposed, who, request):
    user = request.getfixturevalue(who)
    with pytest.raises(PermissionDenied, match="administrateur"):
        merge_propose(records.kept, records.merged, records.club, user)

    done = merge_confirm(proposed, records.neighbour_admin)
    with pytest.raises(PermissionDenied, match="s'annule"):
        merge_undo(done, user)
    assert Player.objects.get(pk=records.merged.pk).merged_into == records.kept


def test_the_same_record_is_refused(records, club_admin):
    with pytest.raises(ValidationError, match="deux fiches différentes"):
        merge_propose(records.kept, records.kept, records.club, club_admin)


def test_a_record_already_merged_is_refused(records, proposed, club_admin):
    with pytest.raises(ValidationError, match="déjà proposée"):
        merge_propose(records.kept, records.merged, records.club, club_admin)
    merge_confirm(proposed, records.neighbour_admin)
    other = PlayerFactory(club=records.club)
    with pytest.raises(ValidationError, match="déjà été fusionné"):
        merge_propose(other, records.merged, records.club, club_admin)


def test_two_records_at_the_same_night_are_two_people(
    records, club_admin, point_table, django_capture_on_commit_callbacks
):
    other = PlayerFactory(display_name="Zoé Dupont-Marchal", club=records.club)
    with django_capture_on_commit_callbacks(execute=True):
        night(
            records.club,
            records.season,
            point_table,
            [records.kept, other, *PlayerFactory.create_batch(2, club=records.club)],
            28,
        )

    with pytest.raises(ValidationError, match="ont joué la même soirée .* deux personnes"):
        merge_propose(records.kept, other, records.club, club_admin)


def test_two_open_memberships_of_one_club_are_refused_until_one_ends(records, club_admin):
    twin = PlayerFactory(club=records.club)
    with pytest.raises(ValidationError, match="tous deux membres de .* mettez d'abord fin"):
        merge_propose(records.kept, twin, records.club, club_admin)


def test_a_merge_is_proposed_by_an_admin_of_a_club_of_the_two_records(records):
    stranger_admin = UserFactory(username="loin")
    elsewhere = ClubFactory(name="Club d'ailleurs")
    PlayerFactory(user=stranger_admin, club=elsewhere, club__role="admin")

    with pytest.raises(PermissionDenied, match="Seul un administrateur"):
        merge_propose(records.kept, records.merged, elsewhere, stranger_admin)
    assert not PlayerMerge.objects.exists()


def test_the_points_add_up(records, proposed, django_capture_on_commit_callbacks):
    points = {
        p: live_line(records.season, p).tournament_points for p in (records.kept, records.merged)
    }
    with django_capture_on_commit_callbacks(execute=True):
        merge_confirm(proposed, records.neighbour_admin)
    assert live_line(records.season, records.kept).tournament_points == sum(
        points.values(), Fraction(0)
    )


# A merge moves history, never a role: the merged record's roles (club admin, scorer,
# federation administrator) end, the kept record's too when the merged record's account comes
# to it; a club or a federation is never left without an administrator; whoever granted a role
# is told once; an undo gives no role back and ends one given since through a row it moves.


ADMIN, SCORER, MEMBER = Membership.Role.ADMIN, Membership.Role.SCORER, Membership.Role.MEMBER


@pytest.fixture
def operator():
    return UserFactory(username="operateur", is_superuser=True)


@pytest.fixture
def clubs():
    """The kept record's club (with its admin) and the merged record's (with its admin)."""
    kept_club, losing_club = ClubFactory(name="Club A"), ClubFactory(name="Club B")
    for name, club in (("admin-a", kept_club), ("admin-b", losing_club)):
        PlayerFactory(user=UserFactory(username=name), club=club, club__role=ADMIN)
    return kept_club, losing_club


def kept_and_merged(
    clubs, *, merged_role=MEMBER, merged_account=True, kept_account=True, kept_role=MEMBER
):
    kept_club, losing_club = clubs
    kept = PlayerFactory(
        display_name="Zoé Dupont",
        user=UserFactory(username="zoe-a") if kept_account else None,
        club=kept_club,
        club__role=kept_role,
    )
    merged = PlayerFactory(
        display_name="Zoe Dupont",
        user=UserFactory(username="zoe-b") if merged_account else None,
        club=losing_club,
        club__role=merged_role,
    )
    return kept, merged


def roles_mail() -> list:
    return [message for message in mail.outbox if "fusion de fiches" in message.subject]


def test_the_merged_records_scorer_and_federation_roles_end_and_whoever_granted_them_is_told(
    clubs, operator, django_capture_on_commit_callbacks
):
    kept_club, losing_club = clubs
    kept, merged = kept_and_merged(clubs, merged_role=SCORER)
    federation = federation_open("Ligue", clubs=[kept_club, losing_club])
    federation_admin_add(federation, merged)
    other = PlayerFactory(user=UserFactory(username="ligue", email="ligue@example.org"))
    federation_admin_add(federation, other)
    merge = merge_propose(kept, merged, kept_club, operator)

    with django_capture_on_commit_callbacks(execute=True):
        merge = merge_confirm(merge, merged.user)

    account = merged.user
    assert Membership.objects.get(club=losing_club, player=kept).role == MEMBER
    assert not club_access(kept.user, losing_club).is_scorer
    assert not club_access(account, losing_club).is_scorer
    assert not FederationAdmin.objects.filter(player__in=[kept, merged]).exists()
    assert not is_federation_admin(account, federation)
    assert [(e["role"], e.get("club"), e.get("federation")) for e in merge.roles_ended] == [
        (SCORER, losing_club.pk, None),
        ("federation_admin", None, federation.pk),
    ]
    told = {tuple(m.to): m.body for m in roles_mail()}
    assert set(told) == {("admin-b@example.org",), ("ligue@example.org",)}
    assert "n'est plus « Marqueur »" in told["admin-b@example.org",]
    assert "n'est plus « Administrateur de la fédération »" in told["ligue@example.org",]


def test_a_federations_last_administrator_is_not_merged_away(clubs, operator):
    kept_club, losing_club = clubs
    kept, merged = kept_and_merged(clubs)
    federation = federation_open("Ligue", clubs=[losing_club])
    federation_admin_add(federation, merged)
    with pytest.raises(ValidationError, match="dernier administrateur de la fédération Ligue"):
        merge_propose(kept, merged, kept_club, operator)
    # Proposed while another administrator was there, confirmed once he stepped down.
    other = PlayerFactory(user=UserFactory(username="ligue"))
    federation_admin_add(federation, other)
    merge = merge_propose(kept, merged, kept_club, operator)
    federation_admin_remove(federation, other)

    with pytest.raises(ValidationError, match="dernier administrateur de la fédération Ligue"):
        merge_confirm(merge, merged.user)
    assert FederationAdmin.objects.filter(player=merged).exists()
    assert PlayerMerge.objects.get().status == PlayerMerge.Status.PROPOSED


def test_the_kept_records_roles_end_when_the_merged_records_account_comes_to_it(
    clubs, operator, django_capture_on_commit_callbacks
):
    """A record with no account that a club made its admin: the account that comes with the
    merge never held that role, so it does not get it."""
    kept_club, _losing_club = clubs
    kept, merged = kept_and_merged(clubs, kept_account=False, kept_role=ADMIN)
    merge = merge_propose(kept, merged, kept_club, operator)

    with django_capture_on_commit_callbacks(execute=True):
        merge_confirm(merge, merged.user)

    account = merged.user
    assert Player.objects.get(user=account) == kept
    assert not is_club_admin(account, kept_club)
    assert Membership.objects.get(club=kept_club, player=kept).role == MEMBER
    [told] = roles_mail()
    assert told.to == ["admin-a@example.org"]


def test_an_undo_ends_a_role_given_since_through_a_row_it_moves_back(
    clubs, operator, django_capture_on_commit_callbacks
):
    kept_club, losing_club = clubs
    kept, merged = kept_and_merged(clubs)
    merge = merge_confirm(merge_propose(kept, merged, kept_club, operator), merged.user)
    # Club B makes the kept record's person its admin, through the membership that moved.
    moved = Membership.objects.get(club=losing_club, player=kept)
    role_set(moved, ADMIN)
    assert is_club_admin(kept.user, losing_club)

    with django_capture_on_commit_callbacks(execute=True):
        merge = merge_undo(merge, operator)

    moved.refresh_from_db()
    assert (moved.player, moved.role) == (merged, MEMBER)
    assert not is_club_admin(UserFactory.build(pk=kept.user_id), losing_club)
    assert [e["event"] for e in merge.roles_ended] == ["undo"]


def test_an_undo_that_would_leave_a_club_without_its_admin_is_refused(clubs, operator):
    kept_club, losing_club = clubs
    kept, merged = kept_and_merged(clubs)
    merge = merge_confirm(merge_propose(kept, merged, kept_club, operator), merged.user)
    role_set(Membership.objects.get(club=losing_club, player=kept), ADMIN)
    role_set(Membership.objects.get(club=losing_club, player__user__username="admin-b"), MEMBER)

    with pytest.raises(ValidationError, match="dernier administrateur de Club B"):
        merge_undo(merge, operator)
    assert PlayerMerge.objects.get().status == PlayerMerge.Status.DONE


def test_the_club_is_told_once_however_often_the_task_runs(
    clubs, operator, django_capture_on_commit_callbacks
):
    kept_club, _losing_club = clubs
    kept, merged = kept_and_merged(clubs, merged_role=SCORER)
    with django_capture_on_commit_callbacks(execute=True):
        merge = merge_confirm(merge_propose(kept, merged, kept_club, operator), merged.user)
    assert len(roles_mail()) == 1

    assert tasks.merge_roles_email(merge.pk) == 0
    assert mailing.merge_roles_send(merge.pk) == 0
    assert len(roles_mail()) == 1
