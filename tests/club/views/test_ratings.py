"""The « cote » pages, a player's statistics page and their API: beside the ranking, public
names only, a fixed number of queries."""

from __future__ import annotations

import datetime
import io
import random

import pytest
from django.core.cache import cache
from django.core.management import call_command
from django.urls import reverse

from club.models import Player
from club.views.ratings import signed
from games.demo import random_night
from games.models import Tournament
from games.nightfile import tournament_import
from scoring import services as scoring_services
from scoring.models import PlayerRating
from scoring.statistics.totals import player_statistics

pytestmark = pytest.mark.django_db


@pytest.fixture
def published_nights(club, club_members, django_capture_on_commit_callbacks) -> list[Tournament]:
    rng = random.Random(11)
    nights = []
    for week in range(2):
        doc = random_night(
            rng,
            club=club.name,
            season="2024",
            date=datetime.date(2024, 4, 4) + datetime.timedelta(days=7 * week),
            members=[p.display_name for p in club_members],
            present=8,
        )
        with django_capture_on_commit_callbacks(execute=True):
            night = tournament_import(doc)
        nights.append(scoring_services.tournament_publish(night))
    return nights


def both_nights_player(nights: list[Tournament]) -> Player:
    """A player of every one of ``nights``."""
    both = set.intersection(
        *(
            set(PlayerRating.objects.filter(tournament=n).values_list("player", flat=True))
            for n in nights
        )
    )
    return Player.objects.get(pk=min(both))


def test_the_cote_page_lists_each_player_best_first_and_is_linked_beside_the_ranking(
    client, club, published_nights
):
    response = client.get(reverse("ratings", args=[club.slug]))
    assert response.status_code == 200
    lines = response.context["lines"]
    assert len(lines) == PlayerRating.objects.filter(current=True).count() > 0
    figures = [line.conservative for line in lines]
    assert figures == sorted(figures, reverse=True)
    address = reverse("ratings", args=[club.slug])
    assert address in client.get(reverse("ranking", args=[club.slug])).content.decode()
    assert address in client.get(reverse("club-detail", args=[club.slug])).content.decode()


def test_the_statistics_page_takes_at_most_six_queries_uncached(
    client, club, published_nights, django_assert_max_num_queries
):
    player = both_nights_player(published_nights)
    address = reverse("player-statistics", args=[club.slug, player.pk])
    cache.clear()
    with django_assert_max_num_queries(6):
        response = client.get(address)
    assert response.status_code == 200
    assert response.context["stats"].nights == 2
    assert b'<svg class="line-chart" id="rating-chart"' in response.content


def test_a_player_who_hides_his_name_is_in_nobodys_public_lists_by_name(
    client, club, published_nights
):
    """Whoever chose his initials appears under them in every other player's partners and
    opponents, on the page and in the API."""
    for hidden in Player.objects.filter(pk__in=PlayerRating.objects.values("player")):
        Player.objects.filter(pk=hidden.pk).update(public_name=Player.PublicName.INITIALS)
    scoring_services.ratings_rebuild(club)  # moves the club's stamp: no cached page
    players = list(Player.objects.filter(pk__in=PlayerRating.objects.values("player")))
    names = [p.display_name for p in players]
    seen_in_lists = 0
    for player in players:
        page = client.get(reverse("player-statistics", args=[club.slug, player.pk]))
        stats = page.context["stats"]
        listed = [*stats.best_partners, *stats.worst_partners, *stats.opponents]
        seen_in_lists += len(listed)
        body = page.content.decode()
        # Why his cote moved, night by night: three deals each, nobody named in them.
        assert all(len(night["moves"]) == 3 for night in page.context["rating_moves"])
        assert "Pourquoi sa cote a bougé" in body
        for other in players:
            if other != player:
                assert other.display_name not in body
        api = client.get(reverse("api:player-statistics", args=[club.slug, player.pk])).json()
        api_names = [
            line["player"]["name"] for key in ("best_partners", "opponents") for line in api[key]
        ]
        assert not set(api_names) & set(names)
    assert seen_in_lists > 0


def test_the_member_sees_all_his_own_nights_and_the_public_only_published_ones(
    client, club, published_nights, member
):
    night = published_nights[1]
    scoring_services.tournament_unpublish(night)
    someone = PlayerRating.objects.filter(tournament=night).first().player
    assert player_statistics(someone, club, own=True).nights == 2
    assert player_statistics(someone, club, own=False).nights == 1
    # On the site: the player himself, signed in, sees both nights; the public one.
    Player.objects.filter(user=member).exclude(pk=someone.pk).update(user=None)
    Player.objects.filter(pk=someone.pk).update(user=member)
    address = reverse("player-statistics", args=[club.slug, someone.pk])
    assert client.get(address).context["stats"].nights == 1
    client.force_login(member)
    assert client.get(address).context["stats"].nights == 2


def test_a_nights_expected_and_actual_results(client, club, published_nights):
    night = published_nights[1]
    response = client.get(reverse("night-ratings", args=[club.slug, night.pk]))
    assert response.status_code == 200
    lines = response.context["lines"]
    assert len(lines) == 8
    # Each poule of four: six pairs, every pair's result given out once (ties halved).
    assert sum(line.actual for line in lines) == pytest.approx(sum(line.expected for line in lines))


def test_the_api_gives_the_cote_best_first(client, club, published_nights):
    rows = client.get(reverse("api:ratings", args=[club.slug])).json()
    assert rows and [r["rating"] for r in rows] == sorted((r["rating"] for r in rows), reverse=True)
    assert client.get(reverse("api:ratings", args=[club.slug]) + "?game=poker").status_code == 404


def test_the_ranking_export_can_add_the_cote(client, club, published_nights, club_admin):
    scoring_services.ranking_publish(published_nights[0].season)
    address = reverse("ranking-export", args=[club.slug, published_nights[0].season.slug, "csv"])
    plain = client.get(address).content.decode()
    with_cote = client.get(address + "?cote=1").content.decode()
    assert "Cote" not in plain.splitlines()[0]
    assert "Cote" in with_cote.splitlines()[0]


# The scale in words, and why a cote moved


def test_the_cote_page_explains_the_scale_and_gives_each_players_last_change(
    client, club, published_nights, django_assert_num_queries
):
    cache.clear()
    # The club, the games it rates, the lines with their players.
    with django_assert_num_queries(3):
        response = client.get(reverse("ratings", args=[club.slug]))
    page = response.content.decode()
    assert "Tout le monde commence à 25, et la moyenne du club reste à 25" in page
    assert "Un nouveau venu commence à 25 ± 25" in page
    assert "4 points d'écart : le plus fort devance l'autre à sa table environ 3 fois sur 4" in page
    # Each player's cote, its margin and his last night's change, as stored.
    for line in response.context["lines"]:
        assert line.cote == f"{line.mu:.2f}".replace(".", ",")
        assert line.margin == f"{3 * line.sigma:.1f}".replace(".", ",")
        assert line.night_change == signed(line.change, ",")
        assert f'<td class="num">{line.night_change}</td>' in page
    # Ranked by the cote less its margin: what the club is almost sure of.
    floors = [line.mu - 3 * line.sigma for line in response.context["lines"]]
    assert floors == sorted(floors, reverse=True)


def test_the_statistics_page_says_night_by_night_why_the_cote_moved(
    client, club, published_nights, django_assert_num_queries
):
    player = both_nights_player(published_nights)
    rows = list(PlayerRating.objects.filter(player=player).order_by("tournament__date"))
    cache.clear()
    # The club, the player, his nights' statistics, his ratings, the names in his lists: the
    # deals that moved his cote come with his ratings.
    with django_assert_num_queries(5):
        response = client.get(reverse("player-statistics", args=[club.slug, player.pk]))
    page = response.content.decode()
    nights = response.context["rating_moves"]
    # Latest first: each night's change as stored, and its deals that moved it most.
    assert [night["change"] for night in nights] == [signed(r.change, ",") for r in rows[::-1]]
    assert rows[0].change == pytest.approx(rows[0].mu - 25)
    assert rows[1].change == pytest.approx(rows[1].mu - rows[0].mu)
    for night, row in zip(nights, rows[::-1], strict=True):
        assert night["address"] == reverse("night-ratings", args=[club.slug, row.tournament_id])
        move = row.moves[0]
        words = night["moves"][0]
        assert words["change"] == signed(move["change"], ",")
        assert words["where"] == (
            f"Tour {move['round']}, table {move['table']}, donne {move['number']}"
        )
        assert f"{words['where']} — {words['what']}" in page
    assert response.context["chart"]["cote"] == [round(r.mu, 2) for r in rows]
    assert response.context["chart"]["start"] == 25


def test_a_nights_page_gives_each_players_change_and_the_deals_that_moved_it(
    client, club, published_nights, django_assert_num_queries
):
    night = published_nights[1]
    # The night with its club, the lines with their players: the deals are stored with them.
    with django_assert_num_queries(2):
        response = client.get(reverse("night-ratings", args=[club.slug, night.pk]))
    page = response.content.decode()
    for line in response.context["lines"]:
        assert line.night_change == signed(line.change, ",")
        assert len(line.moves) == 3
        # The three deals, the others together, the night's final rebalancing.
        assert len(line.move_lines) == 3 + bool(line.other_deals) + 1
        assert f"{line.move_lines[0]['where']} — {line.move_lines[0]['what']}" in page
        assert line.move_lines[-1]["where"] == "Rééquilibrage de fin de soirée"
    assert "Poules : écart à l'attendu" in page and "Évolution de la cote" in page


def hundredths(text: str) -> int:
    """A change as the pages write it (+0,84, −0,30), in hundredths."""
    return round(float(text.replace("−", "-").replace(",", ".")) * 100)


def test_the_lines_under_each_player_add_up_to_his_change_on_every_night_of_the_demo(
    client, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        call_command("demo_club", stdout=io.StringIO())
    nights = Tournament.objects.filter(ratings__isnull=False).distinct().select_related("club")
    checked = 0
    for night in nights:
        for line in PlayerRating.objects.filter(tournament=night):
            # As stored: the listed deals, the others and the rebalancing make the change.
            stored = sum(move["change"] for move in line.moves) + line.others + line.rebalance
            assert stored == pytest.approx(line.change, abs=1e-3)
        # The demo's nights are published: anybody reads their cote.
        assert night.status == Tournament.Status.PUBLISHED
        response = client.get(reverse("night-ratings", args=[night.club.slug, night.pk]))
        for line in response.context["lines"]:
            parts = [hundredths(part["change"]) for part in line.move_lines]
            assert sum(parts) == hundredths(line.night_change), (night, line.player_id)
            checked += 1
    assert checked > 100


def test_the_api_gives_the_change_of_each_night(client, club, published_nights):
    rows = client.get(reverse("api:ratings", args=[club.slug])).json()
    stored = {r.player_id: r.change for r in PlayerRating.objects.filter(current=True)}
    assert {row["player"]["id"]: row["change"] for row in rows} == pytest.approx(stored)
    player = both_nights_player(published_nights)
    history = client.get(reverse("api:player-statistics", args=[club.slug, player.pk])).json()
    changes = [night["change"] for night in history["ratings"]]
    assert changes == pytest.approx(
        list(
            PlayerRating.objects.filter(player=player)
            .order_by("tournament__date")
            .values_list("change", flat=True)
        )
    )
    assert changes[0] == pytest.approx(history["ratings"][0]["mu"] - 25)
    schema = client.get(reverse("api:schema"), HTTP_ACCEPT="application/json").json()
    rating = schema["components"]["schemas"]["Rating"]
    assert "change" in rating["required"]
    assert "How much μ moved over this night" in rating["properties"]["change"]["description"]
