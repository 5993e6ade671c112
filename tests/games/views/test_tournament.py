"""The club-night pages: who may do what, what the scorer sees, and constant query counts."""

from __future__ import annotations

import pytest
from django.core import mail
from django.core.exceptions import ValidationError
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games import services
from games import services as games_services
from games.dealforms import deal_post
from games.models import Deal, DealChange, Poule, RoundDraw, Tournament
from games.services import point_table_for_preset
from scoring import services as scoring_services
from scoring.engine.tables import PRESET_GAME
from scoring.models import TournamentStanding
from tests.conftest import DRAW_SEED
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db

EMBALLAGE = {"contract": "emballage", "bid": 8, "declarers": ["2", "4"], "tricks": 9}
SOLO = {"contract": "solo", "bid": 6, "declarers": ["3"], "tricks": 7}


def url(name: str, tournament: Tournament, **kwargs) -> str:
    return reverse(
        f"games:{name}", kwargs={"slug": tournament.club.slug, "pk": tournament.pk, **kwargs}
    )


def table_of(tournament: Tournament, size: int):
    return next(p for p in tournament.poules.filter(round=1) if p.seats.count() == size)


def scorer_only_requests(tournament: Tournament) -> list[tuple[str, str, dict]]:
    """Every request that changes a night, as (method, url, data)."""
    poule = table_of(tournament, 4)
    deal = scoring_services.deal_record(poule, EMBALLAGE)
    return [
        ("get", reverse("games:tournament-create", kwargs={"slug": tournament.club.slug}), {}),
        ("post", reverse("games:tournament-create", kwargs={"slug": tournament.club.slug}), {}),
        ("get", url("presence", tournament), {}),
        ("post", url("presence", tournament), {"present": []}),
        ("post", url("player-add", tournament), {"display_name": "Intrus", "guest": "on"}),
        ("post", url("draw", tournament, round=2), {}),
        ("post", url("sheet", tournament, poule_pk=poule.pk), deal_post(poule, SOLO)),
        ("get", url("deal-edit", tournament, deal_pk=deal.pk), {}),
        ("post", url("deal-edit", tournament, deal_pk=deal.pk), deal_post(poule, SOLO)),
        ("post", url("deal-delete", tournament, deal_pk=deal.pk), {}),
        ("post", url("close", tournament), {}),
    ]


def snapshot(tournament: Tournament) -> tuple:
    tournament.refresh_from_db()
    return (
        tournament.status,
        tournament.present.count(),
        tournament.poules.count(),
        list(Deal.objects.filter(poule__tournament=tournament).values_list("position", "data")),
        DealChange.objects.count(),
    )


@pytest.mark.parametrize("persona", ["member", "outsider"])
def test_members_and_outsiders_cannot_run_a_night(client, running_night, persona, request):
    requests = scorer_only_requests(running_night)
    before = snapshot(running_night)
    client.force_login(request.getfixturevalue(persona))
    # A member is told he may not; another club's player learns nothing of the night.
    refused = 404 if persona == "outsider" else 403
    for method, path, data in requests:
        response = getattr(client, method)(path, data)
        assert response.status_code == refused, (method, path)
    assert snapshot(running_night) == before


def test_the_public_is_sent_to_the_login_page(client, running_night):
    requests = scorer_only_requests(running_night)
    before = snapshot(running_night)
    for method, path, data in requests:
        response = getattr(client, method)(path, data)
        assert response.status_code == 302, (method, path)
        assert response["Location"].startswith(reverse("login"))
    assert snapshot(running_night) == before


@pytest.mark.parametrize("action", ["publish", "reopen"])
def test_a_scorer_cannot_publish_or_reopen_a_night(client, running_night, scorer, action):
    scoring_services.deal_record(table_of(running_night, 4), EMBALLAGE)
    scoring_services.tournament_close(running_night, unfinished_ok=True)
    client.force_login(scorer)
    assert client.post(url(action, running_night)).status_code == 403
    running_night.refresh_from_db()
    assert running_night.status == Tournament.Status.CLOSED


def test_a_scorer_cannot_correct_a_closed_night_but_a_club_admin_can(
    client, running_night, scorer, club_admin
):
    poule = table_of(running_night, 4)
    deal = scoring_services.deal_record(poule, EMBALLAGE)
    scoring_services.tournament_close(running_night, unfinished_ok=True)
    client.force_login(scorer)
    assert (
        client.post(
            url("deal-edit", running_night, deal_pk=deal.pk), deal_post(poule, SOLO)
        ).status_code
        == 403
    )
    assert client.post(url("deal-delete", running_night, deal_pk=deal.pk)).status_code == 403
    client.force_login(club_admin)
    response = client.post(url("deal-edit", running_night, deal_pk=deal.pk), deal_post(poule, SOLO))
    assert response.status_code == 302
    deal.refresh_from_db()
    assert deal.data == SOLO
    assert DealChange.objects.get(deal=deal).by == club_admin


@pytest.mark.parametrize("persona", ["member", "outsider", None])
def test_sheets_stay_private_until_the_night_is_published(client, running_night, persona, request):
    poule = table_of(running_night, 4)
    scoring_services.deal_record(poule, EMBALLAGE)
    if persona:
        client.force_login(request.getfixturevalue(persona))
    for path in (
        url("sheet", running_night, poule_pk=poule.pk),
        url("seating", running_night, round=1),
    ):
        assert client.get(path).status_code == (403 if persona == "member" else 404)
    # The night's page: a member sees his own view of it (no sheet), the others nothing.
    night_page = client.get(url("tournament", running_night))
    assert night_page.status_code == (200 if persona == "member" else 404)
    if persona == "member":
        assert url("sheet", running_night, poule_pk=poule.pk).encode() not in night_page.content
    scoring_services.tournament_close(running_night, unfinished_ok=True)
    scoring_services.tournament_publish(running_night)
    response = client.get(url("sheet", running_night, poule_pk=poule.pk))
    assert response.status_code == 200
    assert response.context["form"] is None
    assert b"deal-form" not in response.content


def test_a_published_sheet_shows_a_members_initials_to_the_public(client, running_night):
    poule = table_of(running_night, 4)
    scoring_services.deal_record(poule, EMBALLAGE)
    player = poule.seats.get(number=2).player
    player.public_name = "initials"
    player.save()
    scoring_services.tournament_close(running_night, unfinished_ok=True)
    scoring_services.tournament_publish(running_night)
    page = client.get(url("sheet", running_night, poule_pk=poule.pk)).content.decode()
    assert player.initials in page
    assert player.display_name not in page
    room = client.get(url("room", running_night)).content.decode()
    assert player.initials in room and player.display_name not in room
    board = client.get(url("tournament", running_night)).content.decode()
    assert player.initials in board and player.display_name not in board
    seating = client.get(url("seating", running_night, round=1)).content.decode()
    assert player.initials in seating and player.display_name not in seating


def test_a_published_night_shows_initials_to_a_logged_in_player_of_another_club(
    client, running_night, outsider
):
    poule = table_of(running_night, 4)
    scoring_services.deal_record(poule, EMBALLAGE)
    player = poule.seats.get(number=2).player
    player.public_name = "initials"
    player.save()
    scoring_services.tournament_close(running_night, unfinished_ok=True)
    scoring_services.tournament_publish(running_night)
    client.force_login(outsider)

    for page in ("room", "tournament", "seating"):
        kwargs = {"round": 1} if page == "seating" else {}
        text = client.get(url(page, running_night, **kwargs)).content.decode()
        assert player.initials in text, page
        assert player.display_name not in text, page


def test_the_room_screen_is_for_club_members_while_the_night_runs(
    client, running_night, member, outsider
):
    assert client.get(url("room", running_night)).status_code == 404
    client.force_login(outsider)
    assert client.get(url("room", running_night)).status_code == 404
    client.force_login(member)
    assert client.get(url("room", running_night)).status_code == 200


def test_a_scorer_sets_up_a_night(client, club, season, point_table, scorer, club_members):
    client.force_login(scorer)
    response = client.post(
        reverse("games:tournament-create", kwargs={"slug": club.slug}),
        {
            "date": "2024-05-02",
            "name": "Soirée de mai",
            "rules": "rcwhist",
            "tournament_points": "rcwhist",
            "rounds": 3,
            "draw_method": "avoid_repeats",
        },
    )
    tournament = Tournament.objects.get(name="Soirée de mai")
    assert response["Location"] == url("presence", tournament)
    assert (tournament.season, tournament.game, tournament.point_table.name, tournament.rounds) == (
        season,
        "belgian_whist",
        "rcwhist",
        3,
    )
    page = client.get(url("presence", tournament)).content.decode()
    assert all(p.display_name in page for p in club_members)
    client.post(url("presence", tournament), {"present": [p.pk for p in club_members[:8]]})
    client.post(url("player-add", tournament), {"display_name": "Olivier Invité", "guest": "on"})
    assert tournament.present.count() == 9
    response = client.post(url("draw", tournament, round=1))
    assert response.status_code == 302
    assert sorted(p.seats.count() for p in tournament.poules.all()) == [4, 5]


def test_drawing_seven_players_shows_the_reason(client, tonight, scorer):
    services.presence_set(tonight, PlayerFactory.create_batch(7, club=tonight.club))
    client.force_login(scorer)
    response = client.post(url("draw", tonight, round=1), follow=True)
    text = response.content.decode()
    assert "7 joueurs" in text and "ajoutez" in text
    assert not tonight.poules.exists()


def test_a_deal_recorded_from_the_phone_returns_the_updated_sheet(client, running_night, scorer):
    poule = table_of(running_night, 4)
    client.force_login(scorer)
    response = client.post(
        url("sheet", running_night, poule_pk=poule.pk),
        deal_post(poule, EMBALLAGE),
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 200
    page = response.content.decode()
    assert page.lstrip().startswith('<div id="sheet" ')
    # The sheet says its own failures: the site's generic htmx error handler leaves it alone.
    assert "data-own-errors" in page.split(">", 1)[0]
    assert response["X-Sheet-Result"] == "recorded"
    assert "1/12" in page
    deal = poule.deals.get()
    assert deal.data == EMBALLAGE and deal.recorded_by == scorer
    # seat 2 deals the next deal at a table of 4
    dealer = poule.seats.get(number=2).player.display_name
    assert f"<strong data-next-dealer>{dealer}</strong>" in page


def test_an_impossible_deal_is_refused_and_the_form_keeps_what_was_typed(
    client, running_night, scorer
):
    poule = table_of(running_night, 5)  # seat 1 deals first and is the mort
    client.force_login(scorer)
    impossible = {"contract": "solo", "bid": 6, "declarers": ["1"], "tricks": 7}
    response = client.post(
        url("sheet", running_night, poule_pk=poule.pk),
        deal_post(poule, impossible),
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 200
    form = response.context["form"]
    mort = poule.seats.get(number=1).player.display_name
    assert any(mort in error and "mort" in error for error in form.non_field_errors())
    assert form.deal_data() == impossible  # what was typed is still there
    assert not poule.deals.exists()


def test_the_poule_standings_appear_when_the_poule_has_its_deals(client, running_night, scorer):
    poule = table_of(running_night, 4)
    scoring_services.deals_record(poule, [EMBALLAGE] * 11)
    client.force_login(scorer)
    assert client.get(url("sheet", running_night, poule_pk=poule.pk)).context["complete"] is False
    # Seats 2 and 4 made eleven emballages together; seat 2's solo breaks their tie.
    scoring_services.deal_record(poule, {**SOLO, "declarers": ["2"]})
    response = client.get(url("sheet", running_night, poule_pk=poule.pk))
    assert response.context["complete"] is True
    first = response.context["standings"][0]
    assert (first.seat, first.rank, first.tied, first.tournament_points) == (2, 1, False, 5)
    assert "Classement de la poule" in response.content.decode()


def test_a_corrected_deal_shows_its_history_and_the_standings_follow(client, running_night, scorer):
    poule = table_of(running_night, 4)
    deal = scoring_services.deal_record(poule, EMBALLAGE)
    client.force_login(scorer)
    before = list(poule.deals.get().points)
    response = client.post(
        url("deal-edit", running_night, deal_pk=deal.pk), deal_post(poule, SOLO), follow=True
    )
    page = response.content.decode()
    assert "corrigée" in page
    deal.refresh_from_db()
    assert deal.points != before
    standings = running_night.standings.order_by("rank")
    winner = poule.seats.get(number=3).player
    assert standings.first().player == winner


def test_a_deleted_deal_is_listed_under_removed_deals(client, running_night, scorer):
    poule = table_of(running_night, 4)
    deal = scoring_services.deal_record(poule, EMBALLAGE)
    client.force_login(scorer)
    # Without the confirmation, the scorer is sent back to the question and nothing changes.
    response = client.post(url("deal-delete", running_night, deal_pk=deal.pk))
    assert response["Location"] == url("deal-edit", running_night, deal_pk=deal.pk)
    assert poule.deals.exists()
    page = client.get(response["Location"]).content.decode()
    assert "Oui, supprimer cette donne" in page and "historique" in page
    response = client.post(
        url("deal-delete", running_night, deal_pk=deal.pk), {"confirm": "1"}, follow=True
    )
    assert not poule.deals.exists()
    assert "Donnes supprimées" in response.content.decode()


def test_closing_the_night_locks_the_sheets(
    client, running_night, scorer, django_capture_on_commit_callbacks
):
    poule = table_of(running_night, 4)
    scoring_services.deal_record(poule, EMBALLAGE)
    client.force_login(scorer)
    with django_capture_on_commit_callbacks(execute=True):
        client.post(url("close", running_night), {"confirm": "1"})
    running_night.refresh_from_db()
    assert running_night.status == Tournament.Status.CLOSED
    assert running_night.season.rankings.filter(published_at__isnull=True).exists()
    response = client.post(url("sheet", running_night, poule_pk=poule.pk), deal_post(poule, SOLO))
    assert response.status_code == 403


def count_queries(client, path: str, **headers) -> int:
    with CaptureQueriesContext(connection) as queries:
        assert client.get(path, **headers).status_code == 200
    return len(queries)


def test_the_sheet_makes_the_same_number_of_queries_for_1_or_12_deals(
    client, running_night, scorer
):
    poule = table_of(running_night, 4)
    client.force_login(scorer)
    first = scoring_services.deal_record(poule, EMBALLAGE)
    never_corrected = count_queries(client, url("sheet", running_night, poule_pk=poule.pk))
    scoring_services.deal_correct(first, SOLO)
    few = count_queries(client, url("sheet", running_night, poule_pk=poule.pk))
    scoring_services.deals_record(poule, [SOLO] * 11)
    scoring_services.deal_correct(poule.deals.last(), EMBALLAGE)
    many = count_queries(client, url("sheet", running_night, poule_pk=poule.pk))
    assert few == many
    # A sheet never corrected does not read a history it has not got.
    assert never_corrected == few - 1


def test_recording_a_deal_makes_the_same_number_of_queries_late_in_the_night(
    client, running_night, scorer
):
    poule = table_of(running_night, 4)
    client.force_login(scorer)

    def record() -> int:
        with CaptureQueriesContext(connection) as queries:
            response = client.post(
                url("sheet", running_night, poule_pk=poule.pk),
                deal_post(poule, EMBALLAGE),
                HTTP_HX_REQUEST="true",
            )
        assert response.status_code == 200
        return len(queries)

    record()
    second = record()
    scoring_services.deals_record(poule, [SOLO] * 8)
    assert record() == second


def test_the_night_board_and_room_queries_do_not_grow_with_the_players(
    client, tonight, scorer, club
):
    client.force_login(scorer)
    services.presence_set(tonight, PlayerFactory.create_batch(8, club=club))
    scoring_services.round_draw(tonight, 1, seed=1)
    small = [count_queries(client, url(name, tonight)) for name in ("tournament", "room")]
    services.presence_set(tonight, PlayerFactory.create_batch(24, club=club))
    scoring_services.round_draw(tonight, 2, seed=2)
    assert [count_queries(client, url(name, tonight)) for name in ("tournament", "room")] == small


def test_the_room_partial_is_polled_while_the_night_runs(client, running_night, member):
    scoring_services.deal_record(table_of(running_night, 4), EMBALLAGE)
    client.force_login(member)
    response = client.get(url("room", running_night), HTTP_HX_REQUEST="true")
    page = response.content.decode()
    assert page.lstrip().startswith('<section id="room-standings"')
    assert 'data-hx-trigger="every 10s"' in page
    poule = table_of(running_night, 4)
    assert all(seat.player.display_name in page for seat in poule.seats.all())


@pytest.mark.parametrize(
    ("rules", "deal"),
    [
        ("whist7", {"tricks": {"team": ["1", "3"], "tricks": 9}}),
        ("coeurs", {"hearts": {"1": 3, "2": 10, "3": 0, "4": 0}, "queen_of_spades": "2"}),
        (
            "a_quatre",
            {
                "declarations": {"1": {"marriage": 2}, "3": {"besigue": 1}},
                "brisques": {"1": 12, "2": 10, "3": 6, "4": 4},
                "last_trick": "1",
            },
        ),
    ],
)
def test_other_games_get_their_own_sheet(client, club, season, scorer, club_members, rules, deal):
    tournament = services.tournament_create(
        club=club,
        season=season,
        date=season.start,
        game=PRESET_GAME[rules],
        point_table=point_table_for_preset(rules),
    )
    services.presence_set(tournament, club_members[:4])
    scoring_services.round_draw(tournament, 1, seed=3)
    poule = tournament.poules.get()
    client.force_login(scorer)
    page = client.get(url("sheet", tournament, poule_pk=poule.pk)).content.decode()
    assert f'data-dealform="{tournament.game}"' in page
    response = client.post(
        url("sheet", tournament, poule_pk=poule.pk), deal_post(poule, deal), HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 200
    recorded = poule.deals.get()
    assert recorded.data == deal
    assert len(recorded.points) == 4  # the coup's points, one per seat, from the engine
    assert 'id="donne-1"' in response.content.decode()


def test_a_round_whose_only_deal_is_a_pass_is_not_offered_a_new_draw(client, running_night, scorer):
    scoring_services.deal_record(table_of(running_night, 4), {"contract": "pass"})
    client.force_login(scorer)
    page = client.get(url("tournament", running_night)).content.decode()
    assert url("draw", running_night, round=1) not in page
    assert url("draw", running_night, round=2) in page


# The night's traps closed: closing, redrawing and reopening say what will happen and act
# only once confirmed; rounds are drawn in order; closing is offered once round 1 is drawn and
# refused without a drawn round; a closed night with unfinished tables only when confirmed.


def tables(tournament: Tournament, round: int = 1) -> dict[int, Poule]:
    """The round's poules by their number of seats (a table of 4 and a table of 5)."""
    return {p.seats.count(): p for p in tournament.poules.filter(round=round)}


@pytest.fixture
def played(running_night: Tournament) -> Tournament:
    """Round 1 under way: 2 deals at the table of 4, 1 at the table of 5."""
    by_size = tables(running_night)
    scoring_services.deals_record(by_size[4], [EMBALLAGE, SOLO])
    scoring_services.deal_record(by_size[5], EMBALLAGE)
    return running_night


@pytest.fixture
def present_tonight(tonight: Tournament, club_members) -> Tournament:
    """Nine present, no round drawn yet."""
    games_services.presence_set(tonight, club_members[:9])
    return tonight


# --------------------------------------------------------------------------------------------
# Rounds drawn in order


def test_round_3_is_refused_while_round_2_is_not_drawn(running_night):
    with pytest.raises(ValidationError) as refused:
        scoring_services.round_draw(running_night, 3, seed=1)

    assert "Le tour 2 n'est pas encore tiré" in " ".join(refused.value.messages)
    assert not Poule.objects.filter(tournament=running_night, round=3).exists()
    assert not RoundDraw.objects.filter(tournament=running_night, round=3).exists()
    scoring_services.round_draw(running_night, 2, seed=1)
    scoring_services.round_draw(running_night, 3, seed=1)
    assert Poule.objects.filter(tournament=running_night, round=3).exists()


def test_round_2_is_refused_before_round_1(present_tonight):
    with pytest.raises(ValidationError, match="tirez d'abord le tour 1"):
        scoring_services.round_draw(present_tonight, 2, seed=1)


def test_the_night_page_offers_only_the_next_round(client, running_night, scorer):
    client.force_login(scorer)
    page = client.get(url("tournament", running_night)).content.decode()

    assert url("draw", running_night, round=2) in page
    assert url("draw", running_night, round=3) not in page
    assert "tirez d'abord le tour 2" in page


def test_drawing_round_3_from_a_forged_form_says_why(client, running_night, scorer):
    client.force_login(scorer)
    response = client.post(url("draw", running_night, round=3), follow=True)

    assert "Le tour 2 n&#x27;est pas encore tiré" in response.content.decode()
    assert not Poule.objects.filter(tournament=running_night, round=3).exists()


# --------------------------------------------------------------------------------------------
# Redrawing a round


def test_redrawing_a_round_asks_first_and_a_post_without_confirm_changes_nothing(
    client, running_night, scorer
):
    before = set(Poule.objects.filter(tournament=running_night).values_list("pk", flat=True))
    client.force_login(scorer)

    response = client.post(url("draw", running_night, round=1), {"seed": "77"})

    assert response.status_code == 200
    page = response.content.decode()
    assert "Les 2 tables du tour 1 seront tirées à nouveau" in page
    assert 'name="confirm" value="1"' in page
    assert 'name="seed" value="77"' in page  # the seed typed is kept for the confirmed POST
    assert set(Poule.objects.filter(tournament=running_night).values_list("pk", flat=True)) == (
        before
    )
    assert RoundDraw.objects.get(tournament=running_night, round=1).seed == DRAW_SEED


def test_a_confirmed_redraw_draws_the_round_again(client, running_night, scorer):
    before = set(Poule.objects.filter(tournament=running_night).values_list("pk", flat=True))
    client.force_login(scorer)

    response = client.post(url("draw", running_night, round=1), {"seed": "77", "confirm": "1"})

    assert response.status_code == 302
    assert RoundDraw.objects.get(tournament=running_night, round=1).seed == 77
    after = set(Poule.objects.filter(tournament=running_night).values_list("pk", flat=True))
    assert after and not after & before


def test_the_first_draw_of_a_round_needs_no_confirmation(client, present_tonight, scorer):
    client.force_login(scorer)

    assert client.post(url("draw", present_tonight, round=1)).status_code == 302
    assert Poule.objects.filter(tournament=present_tonight, round=1).count() == 2


def test_a_dealt_round_is_not_asked_about_but_refused(client, played, scorer):
    client.force_login(scorer)

    response = client.post(url("draw", played, round=1), follow=True)

    assert "déjà des donnes encodées" in response.content.decode()


# --------------------------------------------------------------------------------------------
# Closing the night


def test_closing_is_not_offered_before_round_1_is_drawn(client, present_tonight, scorer):
    client.force_login(scorer)

    page = client.get(url("tournament", present_tonight)).content.decode()

    assert url("close", present_tonight) not in page
    assert "Clôturer la soirée" not in page


def test_closing_is_offered_once_round_1_is_drawn(client, running_night, scorer):
    client.force_login(scorer)

    assert (
        url("close", running_night) in client.get(url("tournament", running_night)).content.decode()
    )


def test_a_night_without_a_drawn_round_cannot_be_closed(present_tonight):
    with pytest.raises(ValidationError, match="Aucun tour n'est tiré"):
        scoring_services.tournament_close(present_tonight, unfinished_ok=True)
    with pytest.raises(ValidationError, match="Aucun tour n'est tiré"):
        scoring_services.tournament_close_check(present_tonight)

    present_tonight.refresh_from_db()
    assert present_tonight.status == Tournament.Status.PLANNED


def test_closing_a_night_without_a_drawn_round_from_its_page_says_why(
    client, present_tonight, scorer
):
    client.force_login(scorer)

    response = client.post(url("close", present_tonight), {"confirm": "1"}, follow=True)

    assert "Aucun tour n&#x27;est tiré" in response.content.decode()
    present_tonight.refresh_from_db()
    assert present_tonight.status == Tournament.Status.PLANNED


def test_the_service_refuses_unfinished_tables_unless_confirmed(played):
    with pytest.raises(ValidationError) as refused:
        scoring_services.tournament_close(played)

    text = " ".join(refused.value.messages)
    assert "2 tables inachevées : tour 1 table" in text
    assert "2/12" in text and "1/15" in text
    assert "tours 2, 3 pas tirés" in text
    played.refresh_from_db()
    assert played.status == Tournament.Status.RUNNING

    scoring_services.tournament_close(played, unfinished_ok=True)
    played.refresh_from_db()
    assert played.status == Tournament.Status.CLOSED


def test_the_close_check_lists_each_unfinished_table_and_undrawn_round(played):
    check = scoring_services.tournament_close_check(played)
    by_size = tables(played)

    assert [(t.round, t.table, t.played, t.expected) for t in check.unfinished] == sorted(
        [(1, by_size[4].table, 2, 12), (1, by_size[5].table, 1, 15)]
    )
    assert check.undrawn_rounds == [2, 3]
    assert not check.finished


def test_a_night_played_to_the_end_closes_without_confirmation(club, season, point_table):
    """One round, two tables of 4 played to their 12 deals: nothing is left unplayed."""
    club.deals_per_poule_4 = 2
    club.save()
    night = games_services.tournament_create(
        club=club,
        season=season,
        date=season.start,
        game="belgian_whist",
        point_table=point_table,
        rounds=1,
    )
    players = [
        games_services.player_add_to_tournament(night, f"Joueur {n}", guest=True) for n in range(8)
    ]
    assert len(players) == 8
    scoring_services.round_draw(night, 1, seed=5)
    for poule in night.poules.all():
        scoring_services.deals_record(poule, [EMBALLAGE, SOLO])

    assert scoring_services.tournament_close_check(night).finished
    scoring_services.tournament_close(night)
    night.refresh_from_db()
    assert night.status == Tournament.Status.CLOSED


def test_closing_from_the_page_asks_first_listing_tables_and_e_mails(
    client, played, scorer, django_capture_on_commit_callbacks
):
    # Nine players in tonight's standings; two of them will not get the e-mail.
    players = [line.player for line in TournamentStanding.objects.filter(tournament=played)]
    for number, player in enumerate(players):
        player.email = f"joueur{number}@example.org"
        player.result_emails = number != 0  # opted out
        if number == 1:
            player.email = ""  # no address at all
        player.save()
    client.force_login(scorer)

    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(url("close", played))

    assert response.status_code == 200
    page = response.content.decode()
    assert "2 tables inachevées : tour 1 table" in page
    assert "2/12" in page and "1/15" in page
    assert "tours 2, 3 pas tirés" in page
    assert "les résultats seront envoyés par e-mail à 7 joueurs".lower() in page.lower()
    assert 'name="confirm" value="1"' in page
    played.refresh_from_db()
    assert played.status == Tournament.Status.RUNNING
    assert mail.outbox == []

    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(url("close", played), {"confirm": "1"})

    assert response.status_code == 302
    played.refresh_from_db()
    assert played.status == Tournament.Status.CLOSED
    assert len(mail.outbox) == 7  # exactly as many as the confirmation said


def test_the_confirmation_counts_only_players_not_yet_e_mailed(
    client, played, scorer, club_admin, django_capture_on_commit_callbacks
):
    for number, line in enumerate(TournamentStanding.objects.filter(tournament=played)):
        line.player.email = f"joueur{number}@example.org"
        line.player.save()
    with django_capture_on_commit_callbacks(execute=True):
        scoring_services.tournament_close(played, unfinished_ok=True)
    assert len(mail.outbox) == 9
    scoring_services.tournament_reopen(played)
    client.force_login(scorer)

    page = client.post(url("close", played)).content.decode()

    assert "Aucun joueur ne recevra de résultats par e-mail" in page


# --------------------------------------------------------------------------------------------
# Reopening the night


def test_reopening_asks_first_and_a_post_without_confirm_changes_nothing(
    client, played, club_admin
):
    scoring_services.tournament_close(played, unfinished_ok=True)
    client.force_login(club_admin)

    response = client.post(url("reopen", played))

    assert response.status_code == 200
    page = response.content.decode()
    assert "ne comptera plus dans le classement de la saison" in page
    assert 'name="confirm" value="1"' in page
    played.refresh_from_db()
    assert played.status == Tournament.Status.CLOSED

    assert client.post(url("reopen", played), {"confirm": "1"}).status_code == 302
    played.refresh_from_db()
    assert played.status == Tournament.Status.RUNNING


def test_reopening_a_running_night_is_refused_without_a_confirmation_step(
    client, running_night, club_admin
):
    client.force_login(club_admin)

    response = client.post(url("reopen", running_night), follow=True)

    assert "Seule une soirée clôturée peut être rouverte" in response.content.decode()
