"""The merge's pages: a club admin finds the other record and proposes; the other club's admin
or the player confirms; the kept record's page shows both histories and the merged record's
old address leads there; who has no say is refused, in words."""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from typing import Any

import pytest
from django.core import mail
from django.urls import reverse

from club.models import EmailChange, Invitation, Membership, Player, PlayerClaim, PlayerMerge
from club.services import role_set
from scoring.models import TournamentStanding
from scoring.services import merge_confirm, merge_propose
from tests.conftest import persona
from tests.factories import (
    ClubFactory,
    PlayerFactory,
    SeasonFactory,
    TournamentFactory,
    UserFactory,
)
from tests.scoring.merge_setup import night, two_records

pytestmark = pytest.mark.django_db


@pytest.fixture
def records(club, season, point_table, django_capture_on_commit_callbacks):
    return two_records(club, season, point_table, django_capture_on_commit_callbacks)


@pytest.fixture
def proposed(records, club_admin):
    return merge_propose(records.kept, records.merged, records.club, club_admin)


def test_the_member_page_leads_to_the_search_which_finds_the_other_record(
    client, records, club_admin
):
    client.force_login(club_admin)
    page = client.get(reverse("member-edit", args=[records.club.slug, records.kept.pk]))
    search = reverse("member-merge", args=[records.club.slug, records.kept.pk])
    assert search in page.content.decode()

    found = client.get(search, {"q": "dupont"})

    # The same name first, whatever its accents; other Duponts after it.
    candidates = found.context["candidates"]
    assert candidates[0] == records.merged
    assert records.kept not in candidates
    assert "Cercle voisin" in found.content.decode()


def test_the_search_reads_a_fixed_number_of_queries(
    client, records, club_admin, django_assert_max_num_queries
):
    PlayerFactory.create_batch(10, display_name="Dupont", club=ClubFactory())
    client.force_login(club_admin)
    search = reverse("member-merge", args=[records.club.slug, records.kept.pk])
    with django_assert_max_num_queries(7):
        response = client.get(search, {"q": "dupont"})
    assert len(response.context["candidates"]) >= 11


def test_the_confirmation_page_lists_the_nights_and_clubs_that_move_and_proposes(
    client, records, club_admin
):
    client.force_login(club_admin)
    address = reverse(
        "member-merge-propose", args=[records.club.slug, records.kept.pk, records.merged.pk]
    )
    page = client.get(address)
    preview = page.context["preview"]
    assert {n.pk for n in preview.nights} == {
        records.nights["merged"].pk,
        records.nights["neighbour"].pk,
    }
    assert {m.club for m in preview.memberships} == {records.club, records.neighbour}
    assert preview.refusal is None

    response = client.post(address, {"garder": records.kept.pk})

    assert response.status_code == 302
    merge = PlayerMerge.objects.get()
    assert (merge.kept, merge.merged, merge.status) == (records.kept, records.merged, "proposed")


def test_a_refused_proposal_says_why(client, records, club_admin):
    twin = PlayerFactory(display_name="Zoé Dupont bis", club=records.club)
    client.force_login(club_admin)
    address = reverse("member-merge-propose", args=[records.club.slug, records.kept.pk, twin.pk])

    response = client.post(address, {"garder": records.kept.pk}, follow=True)

    assert "tous deux membres" in response.content.decode()
    assert not PlayerMerge.objects.exists()


def test_the_other_club_confirms_and_the_kept_page_shows_both_histories(
    client, records, proposed, django_capture_on_commit_callbacks
):
    client.force_login(records.neighbour_admin)
    page = client.get(reverse("club-merges", args=[records.neighbour.slug]))
    assert [m.pk for m in page.context["awaiting"]] == [proposed.pk]

    with django_capture_on_commit_callbacks(execute=True):
        client.post(
            reverse("club-merge-decide", args=[records.neighbour.slug, proposed.pk, "confirmer"])
        )

    assert PlayerMerge.objects.get().status == PlayerMerge.Status.DONE
    client.logout()
    kept_page = client.get(reverse("player", args=[records.club.slug, records.kept.pk]))
    shown = {line.tournament_id for line in kept_page.context["history"]}
    assert shown == {records.nights["kept"].pk, records.nights["merged"].pk}
    old = client.get(reverse("player", args=[records.neighbour.slug, records.merged.pk]))
    assert old.status_code == 301
    assert old["Location"] == reverse("player", args=[records.neighbour.slug, records.kept.pk])
    stats = reverse("player-statistics", args=[records.neighbour.slug, records.merged.pk])
    old_stats = client.get(stats)
    assert old_stats.status_code == 301
    assert old_stats["Location"] == reverse(
        "player-statistics", args=[records.neighbour.slug, records.kept.pk]
    )


def test_the_player_confirms_from_his_profile_and_undoes_it(
    client, records, proposed, django_capture_on_commit_callbacks
):
    user = UserFactory(username="zoe")
    Player.objects.filter(pk=records.merged.pk).update(user=user)
    client.force_login(user)
    profile = client.get(reverse("profile"))
    assert [m.pk for m in profile.context["merges"]] == [proposed.pk]
    assert "Confirmer" in profile.content.decode()

    with django_capture_on_commit_callbacks(execute=True):
        client.post(reverse("my-merge-decide", args=[proposed.pk, "confirmer"]))
    # His account now opens the kept record.
    assert Player.objects.get(user=user) == records.kept
    assert "Annuler la fusion" in client.get(reverse("profile")).content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        client.post(reverse("my-merge-decide", args=[proposed.pk, "annuler"]))

    assert PlayerMerge.objects.get().status == PlayerMerge.Status.UNDONE
    assert Player.objects.get(user=user) == records.merged
    assert TournamentStanding.objects.filter(player=records.merged).count() == 2


def test_the_proposer_is_refused_confirming_his_own_proposal_in_words(
    client, records, proposed, club_admin
):
    client.force_login(club_admin)
    address = reverse("club-merge-decide", args=[records.club.slug, proposed.pk, "confirmer"])

    response = client.post(address)

    assert response.status_code == 403
    assert "Vous avez proposé cette fusion" in response.content.decode()
    assert PlayerMerge.objects.get().status == PlayerMerge.Status.PROPOSED


@pytest.mark.parametrize("role", ["member", "scorer"])
def test_a_member_of_the_club_is_refused_everything(client, records, proposed, role, request):
    client.force_login(request.getfixturevalue(role))
    slug = records.club.slug
    addresses = [
        ("get", reverse("member-merge", args=[slug, records.kept.pk])),
        ("get", reverse("member-merge-propose", args=[slug, records.kept.pk, records.merged.pk])),
        ("get", reverse("club-merges", args=[slug])),
        ("post", reverse("club-merge-decide", args=[slug, proposed.pk, "refuser"])),
    ]
    for method, address in addresses:
        assert getattr(client, method)(address).status_code == 403, address
    # Not his record: his own space does not know the merge.
    mine = reverse("my-merge-decide", args=[proposed.pk, "confirmer"])
    assert client.post(mine).status_code == 404
    assert PlayerMerge.objects.get().status == PlayerMerge.Status.PROPOSED


def test_an_admin_unrelated_to_both_records_and_an_outsider_are_refused(
    client, records, proposed, outsider
):
    unrelated = persona(ClubFactory(name="Club d'ailleurs"), "ailleurs", Membership.Role.ADMIN)
    for user in (unrelated, outsider):
        client.force_login(user)
        decide = reverse("club-merge-decide", args=[records.club.slug, proposed.pk, "confirmer"])
        assert client.post(decide).status_code == 404
        # His own club's merges do not hold it either.
        own = user.player.memberships.get().club.slug
        elsewhere = reverse("club-merge-decide", args=[own, proposed.pk, "confirmer"])
        assert client.post(elsewhere).status_code in (403, 404)
        assert (
            client.post(reverse("my-merge-decide", args=[proposed.pk, "confirmer"])).status_code
            == 404
        )
    assert PlayerMerge.objects.get().status == PlayerMerge.Status.PROPOSED


def test_the_club_merges_page_reads_a_fixed_number_of_queries(
    client, records, proposed, club_admin, django_assert_max_num_queries
):
    for _ in range(5):
        extra = PlayerFactory(club=records.neighbour)
        merge_propose(PlayerFactory(club=records.club), extra, records.club, club_admin)
    client.force_login(records.neighbour_admin)
    with django_assert_max_num_queries(8):
        page = client.get(reverse("club-merges", args=[records.neighbour.slug]))
    assert len(page.context["awaiting"]) == 6


def test_the_proposing_club_undoes_a_confirmed_merge(
    client, records, proposed, club_admin, django_capture_on_commit_callbacks
):
    merge_confirm(proposed, records.neighbour_admin)
    client.force_login(club_admin)
    page = client.get(reverse("club-merges", args=[records.club.slug]))
    assert "Annuler la fusion" in page.content.decode()

    with django_capture_on_commit_callbacks(execute=True):
        client.post(reverse("club-merge-decide", args=[records.club.slug, proposed.pk, "annuler"]))

    assert PlayerMerge.objects.get().status == PlayerMerge.Status.UNDONE
    page = client.get(reverse("player", args=[records.club.slug, records.merged.pk]))
    assert page.status_code == 200


# Authority never moves with data (issue #30), through the pages: club C's admin proposes to
# fold club B's admin's record into the record of a second account he controls (« the pawn »,
# a member of C). The pawn may not confirm it; and even when B's admin confirms it himself, no
# role moves: B keeps its management page for its other admin, who is told, and an undo gives
# back the history, not the role.


ADMIN = Membership.Role.ADMIN


@dataclass
class Attack:
    club_b: Any
    club_c: Any
    bob: Any  # club B's admin (user)
    bea: Any  # club B's other admin (user)
    mallory: Any  # club C's admin, who proposes
    pawn: Any  # his second account, a member of C
    merge: PlayerMerge | None

    def decide(self, client: Any, user: Any, action: str, club: Any = None) -> Any:
        client.force_login(user)
        if club is None:
            return client.post(reverse("my-merge-decide", args=[self.merge.pk, action]))
        return client.post(reverse("club-merge-decide", args=[club.slug, self.merge.pk, action]))


def attack(
    client: Any, point_table: Any, capture: Any, *, b_has_another_admin: bool = True
) -> Attack:
    """Club B (Bob, its admin, plays a published night there), club C (Mallory, its admin, and
    his pawn « Bob Martin »), and Mallory's proposal through his page: keep the pawn, fold Bob
    into it."""
    club_b = ClubFactory(name="Cercle de Bob", slug="cercle-b")
    club_c = ClubFactory(name="Club de Mallory", slug="club-c")
    users = {name: UserFactory(username=name) for name in ("bob", "bea", "mallory", "pion")}
    bob = PlayerFactory(display_name="Bob Martin", user=users["bob"], club=club_b, club__role=ADMIN)
    if b_has_another_admin:
        PlayerFactory(display_name="Béa", user=users["bea"], club=club_b, club__role=ADMIN)
    PlayerFactory(user=users["mallory"], club=club_c, club__role=ADMIN)
    pawn = PlayerFactory(display_name="Bob Martin", user=users["pion"], club=club_c)
    with capture(execute=True):
        night(
            club_b,
            SeasonFactory(club=club_b, year=2024),
            point_table,
            [bob, *PlayerFactory.create_batch(3, club=club_b)],
            7,
        )
    client.force_login(users["mallory"])
    client.post(
        reverse("member-merge-propose", args=[club_c.slug, pawn.pk, bob.pk]), {"garder": pawn.pk}
    )
    return Attack(
        club_b,
        club_c,
        users["bob"],
        users["bea"],
        users["mallory"],
        users["pion"],
        PlayerMerge.objects.first(),
    )


def roles_mail() -> list:
    """The e-mails telling a club that a merge ended a role (not the night's results)."""
    return [message for message in mail.outbox if "fusion de fiches" in message.subject]


def manages(client: Any, user: Any, club: Any) -> int:
    client.force_login(user)
    return client.get(reverse("club-admin", args=[club.slug])).status_code


@pytest.fixture
def pawn_proposal(client, point_table, django_capture_on_commit_callbacks):
    return attack(client, point_table, django_capture_on_commit_callbacks)


def test_the_pawn_is_refused_confirming_in_words_and_bob_keeps_his_club(client, pawn_proposal):
    a = pawn_proposal
    assert (a.merge.merged.display_name, a.merge.kept.user) == ("Bob Martin", a.pawn)
    client.force_login(a.pawn)
    mine = client.get(reverse("profile")).context["merges"]
    assert [(m.may_confirm, m.may_refuse) for m in mine] == [(False, True)]

    response = a.decide(client, a.pawn, "confirmer")

    assert response.status_code == 403
    text = response.content.decode()
    assert "Votre fiche est celle qui est gardée" in text
    assert "se confirme par Bob Martin lui-même" in text
    # Nor does Mallory, from his club's page.
    refused = a.decide(client, a.mallory, "confirmer", a.club_c)
    assert refused.status_code == 403
    assert "Vous avez proposé cette fusion" in refused.content.decode()
    assert PlayerMerge.objects.get().status == PlayerMerge.Status.PROPOSED
    assert manages(client, a.pawn, a.club_b) == 404
    assert manages(client, a.bob, a.club_b) == 200
    bob = a.merge.merged
    assert TournamentStanding.objects.filter(player=bob).count() == 1
    assert not TournamentStanding.objects.filter(player=a.merge.kept).exists()


def test_bob_confirming_himself_moves_his_history_and_no_role(
    client, pawn_proposal, django_capture_on_commit_callbacks
):
    a = pawn_proposal
    with django_capture_on_commit_callbacks(execute=True):
        assert a.decide(client, a.bob, "confirmer").status_code == 302

    assert PlayerMerge.objects.get().status == PlayerMerge.Status.DONE
    # The history went to the pawn's record; B's admin role did not: the pawn is a plain
    # member of B, Bob's account has no record in B any more, Béa still runs B.
    assert TournamentStanding.objects.filter(player=a.merge.kept).count() == 1
    assert Membership.objects.get(club=a.club_b, player=a.merge.kept).role == "member"
    assert manages(client, a.pawn, a.club_b) == 403
    assert manages(client, a.bob, a.club_b) == 404
    assert manages(client, a.bea, a.club_b) == 200
    # Béa, B's remaining admin, is told, and sees it with the club's merges.
    [told] = roles_mail()
    assert told.to == [a.bea.player.email or a.bea.email]
    assert "Cercle de Bob" in told.subject
    line = "Bob Martin n'est plus « Administrateur du club » : son rôle a pris fin avec la fusion."
    assert line in told.body
    page = client.get(reverse("club-merges", args=[a.club_b.slug]))
    assert [m.roles_lines for m in page.context["merges"]] == [[line]]


def test_an_undo_gives_the_history_back_and_not_the_role(
    client, pawn_proposal, django_capture_on_commit_callbacks
):
    a = pawn_proposal
    with django_capture_on_commit_callbacks(execute=True):
        a.decide(client, a.bob, "confirmer")
    with django_capture_on_commit_callbacks(execute=True):
        # Mallory's club proposed it: it may undo it.
        assert a.decide(client, a.mallory, "annuler", a.club_c).status_code == 302

    bob = Player.objects.get(user=a.bob)
    assert PlayerMerge.objects.get().status == PlayerMerge.Status.UNDONE
    assert TournamentStanding.objects.filter(player=bob).count() == 1
    assert Membership.objects.get(club=a.club_b, player=bob).role == "member"
    assert manages(client, a.bob, a.club_b) == 403
    # Béa is told that the role is not given back, and gives it back herself.
    assert [m.to for m in roles_mail()] == [[a.bea.player.email or a.bea.email]] * 2
    assert "pas son rôle « Administrateur du club »" in roles_mail()[-1].body
    role_set(Membership.objects.get(club=a.club_b, player=bob), ADMIN)
    assert manages(client, a.bob, a.club_b) == 200


def test_a_merge_that_would_leave_a_club_without_its_admin_is_refused_in_words(
    client, point_table, django_capture_on_commit_callbacks
):
    a = attack(client, point_table, django_capture_on_commit_callbacks, b_has_another_admin=False)
    assert a.merge is None
    client.force_login(a.mallory)
    bob = Player.objects.get(user=a.bob)
    pawn = Player.objects.get(user=a.pawn)
    page = client.get(
        reverse("member-merge-propose", args=[a.club_c.slug, pawn.pk, bob.pk]),
        {"garder": pawn.pk},
    )
    assert (
        "Bob Martin est le dernier administrateur de Cercle de Bob"
        in page.context["preview"].refusal
    )
    assert "Rôles qui prendront fin" in page.content.decode()
    assert manages(client, a.bob, a.club_b) == 200


# The other road (review of issue #30): the login moves, not a role. Mallory folds his pawn's
# record into a record of club B that has no login: the pawn would then log in as B's member.


def test_a_login_moves_onto_another_clubs_record_only_when_that_club_proposes(client):
    club_b = ClubFactory(name="Cercle de Bob", slug="cercle-b")
    club_c = ClubFactory(name="Club de Mallory", slug="club-c")
    mallory = UserFactory(username="mallory")
    PlayerFactory(user=mallory, club=club_c, club__role=ADMIN)
    PlayerFactory(user=UserFactory(username="bea"), club=club_b, club__role=ADMIN)
    victim = PlayerFactory(display_name="Victor Lebrun", club=club_b)  # no login
    pawn = PlayerFactory(
        display_name="Victor Lebrun", user=UserFactory(username="pion"), club=club_c
    )
    client.force_login(mallory)

    page = client.post(
        reverse("member-merge-propose", args=[club_c.slug, pawn.pk, victim.pk]),
        {"garder": victim.pk},
        follow=True,
    ).content.decode()

    assert "demandez à un club de Victor Lebrun de proposer cette fusion" in page
    assert not PlayerMerge.objects.exists()
    # Nor through a merge written by hand and confirmed by the pawn: refused under lock.
    merge = PlayerMerge.objects.create(kept=victim, merged=pawn, club=club_c, proposed_by=mallory)
    client.force_login(pawn.user)
    client.post(reverse("my-merge-decide", args=[merge.pk, "confirmer"]))
    merge.refresh_from_db()
    victim.refresh_from_db()
    assert (merge.status, victim.user_id) == (PlayerMerge.Status.PROPOSED, None)


def test_the_merged_records_pending_links_are_withdrawn_not_moved(client):
    club = ClubFactory()
    kept = PlayerFactory(club=club, user=UserFactory(username="kept"))
    merged = PlayerFactory(club=ClubFactory(), display_name="Autre fiche")
    Invitation.objects.create(player=merged, club=club, email="x@example.org", token_hash="a" * 64)
    PlayerClaim.objects.create(
        user=UserFactory(username="claimer"), player=merged, club=club, email="y@example.org"
    )
    EmailChange.objects.create(player=merged, email="z@example.org", token_hash="b" * 64)
    merge = PlayerMerge.objects.create(kept=kept, merged=merged, club=club, proposed_by=None)

    merge_confirm(merge, UserFactory(username="root", is_superuser=True))

    for model in (Invitation, PlayerClaim, EmailChange):
        assert not model.objects.filter(player__in=[kept, merged]).exists(), model


# The merge's proposal page shows another club's player as the public sees him.


def test_the_proposal_page_keeps_another_clubs_hidden_name_and_unpublished_nights(
    client, club, club_admin, point_table
):
    elsewhere = ClubFactory(name="Club d'ailleurs")
    hidden = PlayerFactory(
        display_name="Zoé Secrète",
        first_name="Zoé",
        last_name="Secrète",
        public_name=Player.PublicName.INITIALS,
        club=elsewhere,
    )
    night = TournamentFactory(
        club=elsewhere,
        season=SeasonFactory(club=elsewhere, year=2024),
        point_table=point_table,
        date=datetime.date(2024, 3, 7),
        name="Soirée privée du club d'ailleurs",
    )
    night.present.add(hidden)
    member = PlayerFactory(display_name="Zoé Dupont", club=club)
    client.force_login(club_admin)

    page = client.get(reverse("member-merge-propose", args=[club.slug, member.pk, hidden.pk]))

    assert page.status_code == 200
    text = page.content.decode()
    assert "Z.S." in text
    assert "Secrète" not in text
    assert "Soirée privée" not in text
