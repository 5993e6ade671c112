"""The public club page: the club, its seasons, its nights and who won each."""

import datetime
from html.parser import HTMLParser

import pytest
from django.urls import reverse

from club.models import Player
from games.models import Tournament
from games.services import poule_create
from scoring.services import deal_record, tournament_close, tournament_publish
from tests.factories import ClubFactory, PlayerFactory, SeasonFactory, TournamentFactory

pytestmark = pytest.mark.django_db

# Seat 1 makes a solo: +9 for them, -3 for each of the three others.
SOLO_BY_SEAT_1 = {"contract": "solo", "bid": 6, "declarers": ["1"], "tricks": 7}
# The club page's queries: the club, its seasons, the season's nights, their winners, and
# the next nights of its calendar (with the club's calendar settings, in the same query), and
# the club site's menu (clubsite/menu.py) and its latest news (clubsite's block).
CLUB_PAGE_QUERIES = 7
# The latest night's podium and the latest album (clubsite/home.py): asked once, then cached
# under the club's stamp, so a visit asks no more than before the page showed them.
HOME_BLOCK_QUERIES = 2


class ResultsTable(HTMLParser):
    """The rows of the nights table as text cells: date, night, winner, tournament points."""

    def __init__(self) -> None:
        super().__init__()
        self.rows: list[list[str]] = []
        self.in_body = self.in_cell = False

    def handle_starttag(self, tag, attrs):
        if tag == "tbody":
            self.in_body = True
        elif self.in_body and tag == "tr":
            self.rows.append([])
        elif self.in_body and tag == "td":
            self.in_cell = True
            self.rows[-1].append("")

    def handle_endtag(self, tag):
        if tag == "tbody":
            self.in_body = False
        elif tag == "td":
            self.in_cell = False

    def handle_data(self, data):
        if self.in_cell:
            self.rows[-1][-1] += data.strip()


def tournament_rows(response):
    table = ResultsTable()
    table.feed(response.content.decode())
    return table.rows


def night_won_by(winner, season, day, name=None):
    """A published night of ``season`` where ``winner`` is the only first."""
    tournament = TournamentFactory(
        club=season.club,
        season=season,
        date=season.start + datetime.timedelta(days=day),
        **({"name": name} if name else {}),
    )
    others = PlayerFactory.create_batch(3, club=season.club)
    poule = poule_create(tournament, round=1, table=1, players=[winner, *others])
    deal_record(poule, SOLO_BY_SEAT_1)
    return tournament_publish(tournament_close(tournament, unfinished_ok=True))


@pytest.fixture
def seasons(club):
    return SeasonFactory(club=club, year=2024), SeasonFactory(club=club, year=2025)


@pytest.fixture
def anne(club):
    return PlayerFactory(
        first_name="Anne", last_name="Dupont", display_name="Anne Dupont", club=club
    )


def test_the_home_page_of_a_one_club_site_shows_the_club_its_seasons_and_nights(
    client, club, seasons, anne
):
    _, season_2025 = seasons
    night_won_by(anne, season_2025, day=40, name="Soirée de février")

    response = client.get(reverse("home"))

    assert response.status_code == 200
    page = response.content.decode()
    assert "<h1>RCWhist La Chevalerie</h1>" in page
    assert ">2024</a>" in page
    assert ">2025</a>" in page
    assert "Soirées 2025" in page
    assert "10/02/2025" in page
    assert "Soirée de février" in page
    assert "Anne Dupont" in page


def test_the_club_page_shows_the_latest_season_unless_one_is_chosen(client, club, seasons, anne):
    season_2024, season_2025 = seasons
    night_won_by(anne, season_2024, day=72, name="Soirée de mars 2024")
    night_won_by(PlayerFactory(club=club), season_2025, day=72, name="Soirée de mars 2025")
    url = reverse("club-detail", args=[club.slug])

    latest = tournament_rows(client.get(url))
    chosen = tournament_rows(client.get(url, {"saison": "2024"}))

    # The nights' table; the podium above it is the club's latest night's, whatever the season.
    assert [night for _, night, _, _ in latest] == ["Soirée de mars 2025"]
    assert [(night, winner) for _, night, winner, _ in chosen] == [
        ("Soirée de mars 2024", "Anne Dupont")
    ]


def test_each_night_shows_its_winner_and_their_tournament_points(client, club, seasons, anne):
    _, season_2025 = seasons
    bruno = PlayerFactory(first_name="Bruno", last_name="Lemaire", display_name="Bruno Lemaire")
    night_won_by(anne, season_2025, day=10)
    night_won_by(bruno, season_2025, day=40)

    response = client.get(reverse("club-detail", args=[club.slug]))

    assert [(date, winner, points) for date, _, winner, points in tournament_rows(response)] == [
        ("10/02/2025", "Bruno Lemaire", "5"),
        ("11/01/2025", "Anne Dupont", "5"),
    ]


def test_players_tied_first_are_all_shown_as_winners(client, club, seasons, anne):
    _, season_2025 = seasons
    tournament = TournamentFactory(club=club, season=season_2025, date=datetime.date(2025, 3, 13))
    bruno, chloe, didier = PlayerFactory.create_batch(3, club=club)
    poule = poule_create(tournament, round=1, table=1, players=[anne, bruno, chloe, didier])
    deal_record(poule, {"contract": "emballage", "bid": 8, "declarers": ["1", "3"], "tricks": 9})
    tournament_publish(tournament_close(tournament, unfinished_ok=True))

    [(_, _, winners, points)] = tournament_rows(
        client.get(reverse("club-detail", args=[club.slug]))
    )

    assert sorted(winners.split(", ")) == sorted(["Anne Dupont", chloe.display_name])
    assert points == "4"


def test_a_night_not_yet_published_is_listed_with_its_winner_to_the_clubs_scorers_alone(
    client, club, seasons, anne, scorer, member
):
    """Closed, not published (or taken back): neither the public nor the members find it in
    the club's list (its pages are not theirs); its scorers do, with its winner."""
    _, season_2025 = seasons
    tournament = night_won_by(anne, season_2025, day=10)
    Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.CLOSED)
    page = reverse("club-detail", args=[club.slug])

    assert tournament_rows(client.get(page)) == []
    client.force_login(member)
    assert tournament_rows(client.get(page)) == []
    client.force_login(scorer)
    [(_, _, scorer_winner, scorer_points)] = tournament_rows(client.get(page))

    assert (scorer_winner, scorer_points) == ("Anne Dupont", "5")


def test_a_winner_who_chose_initials_is_shown_by_initials(client, club, seasons, member):
    _, season_2025 = seasons
    player = member.player
    player.public_name = Player.PublicName.INITIALS
    player.save()
    night_won_by(player, season_2025, day=10)

    response = client.get(reverse("club-detail", args=[club.slug]))

    [(_, _, winner, _)] = tournament_rows(response)
    assert winner == player.initials
    page = response.content.decode()
    assert player.display_name not in page
    assert player.last_name not in page


def test_an_htmx_request_gets_only_the_nights_section(client, club, seasons, anne):
    season_2024, _ = seasons
    night_won_by(anne, season_2024, day=72, name="Soirée de mars 2024")

    response = client.get(
        reverse("club-detail", args=[club.slug]), {"saison": "2024"}, headers={"HX-Request": "true"}
    )

    assert response.status_code == 200
    page = response.content.decode().strip()
    assert page.startswith('<section id="nights">')
    assert page.endswith("</section>")
    assert "<html" not in page
    assert "<h1>" not in page
    assert "Soirée de mars 2024" in page


def test_every_season_link_works_without_javascript(client, club, seasons):
    page = client.get(reverse("club-detail", args=[club.slug])).content.decode()

    assert 'href="?saison=2024" data-hx-get="?saison=2024"' in page
    assert 'href="?saison=2025" data-hx-get="?saison=2025"' in page


@pytest.mark.parametrize("tournaments", [2, 6])
def test_the_club_page_needs_as_many_queries_for_6_nights_as_for_2(
    client, club, seasons, tournaments, django_assert_num_queries
):
    _, season_2025 = seasons
    for day in range(tournaments):
        night_won_by(PlayerFactory(club=club), season_2025, day=7 * day)
    url = reverse("club-detail", args=[club.slug])

    with django_assert_num_queries(CLUB_PAGE_QUERIES + HOME_BLOCK_QUERIES):
        client.get(url)
    with django_assert_num_queries(CLUB_PAGE_QUERIES):
        response = client.get(url)

    assert len(tournament_rows(response)) == tournaments


@pytest.mark.parametrize("persona", [None, "club_admin", "scorer", "member", "outsider"])
def test_the_club_page_is_public(client, request, club, seasons, anne, persona):
    night_won_by(anne, seasons[1], day=10)
    if persona:
        client.force_login(request.getfixturevalue(persona))

    response = client.get(reverse("club-detail", args=[club.slug]))

    assert response.status_code == 200
    assert [winner for _, _, winner, _ in tournament_rows(response)] == ["Anne Dupont"]


def test_an_unknown_club_is_not_found(client, club):
    response = client.get(reverse("club-detail", args=["no-such-club"]))

    assert response.status_code == 404


def test_a_club_without_seasons_says_so(client, club):
    response = client.get(reverse("club-detail", args=[club.slug]))

    assert "Pas encore de saison." in response.content.decode()


def test_the_home_page_of_a_site_with_several_clubs_lists_them(client, club, seasons):
    other = ClubFactory(name="Whist Club de Namur", slug="namur")

    page = client.get(reverse("home")).content.decode()

    assert f'href="{reverse("club-detail", args=[club.slug])}"' in page
    assert f'href="{reverse("club-detail", args=[other.slug])}"' in page
    assert f'href="{reverse("club-detail", args=[club.slug])}?saison=2024"' in page


def test_a_running_night_shows_no_winner_even_to_its_scorers(client, club, seasons, anne, scorer):
    _, season_2025 = seasons
    tournament = night_won_by(anne, season_2025, day=10)
    Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.RUNNING)
    client.force_login(scorer)
    [(_, _, winner, points)] = tournament_rows(client.get(reverse("club-detail", args=[club.slug])))
    assert (winner, points) == ("En cours", "")
