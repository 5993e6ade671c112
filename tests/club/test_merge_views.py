"""The merge's pages: a club admin finds the other record and proposes; the other club's admin
or the player confirms; the kept record's page shows both histories and the merged record's
old address leads there; who has no say is refused, in words."""

import pytest
from django.urls import reverse

from club.models import Membership, Player, PlayerMerge
from scoring.models import TournamentStanding
from scoring.services import merge_confirm, merge_propose
from tests.conftest import persona
from tests.factories import ClubFactory, PlayerFactory, UserFactory
from tests.scoring.merge_setup import two_records

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
