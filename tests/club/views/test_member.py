"""The member's own space: his profile, his results and statistics, his data download.

The season used below is small enough to check by hand (rcwhist point table and tournament
points, scoring-rules.md §1.3 and §5). "Me" is the ``member`` persona's player.

- 10/01 night 1, me · Anne · Bruno · Chloé (seats 1-4):
  emballage 8 by me + Bruno, 9 tricks (+5 / −5); petite misère by me (0 tricks: made, +12 /
  −4 each) and Anne (1 trick: failed, −18 / +6 each); solo 6 by me, 5 tricks (−9 / +3 each).
  Game points: me 14, Bruno 10, Chloé 0, Anne −24 → tournament points 5, 3, 0, 0 (8 in all).
- 10/02 night 2, without me: Anne · Bruno · Chloé · Didier; solo 6 by Anne made (+9 / −3).
  Anne 5 (5 in all).
- 10/03 night 3, Anne · me · Eva · Bruno: trou 8 by Anne + me, 8 tricks (+8 / −8).
  Anne and me tied first: 4 each (8 in all).
- 10/04 night 4, still running: me and three others — not counted anywhere.
- 10/05 night 5, me · Eva · Chloé · Didier: emballage 8 by me + Eva, 6 tricks (−8 / +8).
  Chloé and Didier tied first, 4 each; me and Eva tied third, 0 (8 in all).

Club average after each closed night (points so far ÷ players so far): 8/4, 13/5, 21/6, 29/6.
My points so far: 5, 5, 9, 9.
"""

from __future__ import annotations

import datetime
import io
import json
import random
import re
from fractions import Fraction
from html.parser import HTMLParser

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.core.files.storage import default_storage
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import translation
from PIL import Image, ImageFile

from club.models import Membership, Player
from club.profile import MAX_PHOTO_BYTES
from club.views.ratings import signed
from games.models import Deal, Tournament
from games.services import poule_create
from infra.models import PendingWork, ThrottleEvent
from infra.outbox import TaskName
from scoring.models import PlayerNightStats, PlayerRating, PlayerSeasonStats, SeasonNights
from scoring.services import (
    deal_correct,
    deal_record,
    tournament_close,
    tournament_publish,
    tournament_reopen,
    tournament_unpublish,
)
from scoring.services.season_stats import season_stats_store
from scoring.statistics import member as member_results
from scoring.statistics.totals import player_statistics
from scoring.tasks import ratings_update as ratings_update_task
from tests.factories import (
    PASSWORD,
    PlayerFactory,
    SeasonFactory,
    TournamentFactory,
    UserFactory,
    night_started,
)

pytestmark = pytest.mark.django_db

MEMBER_URLS = ["profile", "my-results", "my-data"]
# Queries of "my results" beyond the login's own (session, user with his player): his seasons
# (with his season's summary listing his nights and keeping his cote, and the club's side of
# the chart, stored at each close), the season's nights (their names, which he played, which
# the chart shows), his partners' names of today.
MY_RESULTS_QUERIES = 2 + 3
# His cote read apart when a summary of his seasons at the club does not keep it.
COTE_READ_APART = 1
# The same page again, the club's results unchanged: his seasons, his partners.
MY_RESULTS_CACHED_QUERIES = 2 + 2
# With the cote written: the same, its lines written again as they were stored at the close.
MY_RESULTS_STORED_QUERIES = MY_RESULTS_QUERIES
# The data download: session, user with his player, then seats, night and poule standings, seat
# numbers, deals, memberships, invitations; then one a section of the rest (presence,
# rankings, federation rankings, cote, calendar settings and replies, e-mails of results and
# reminders, merges, account claims, e-mail changes, API keys, federation roles).
MY_DATA_QUERIES = 2 + 7 + 13


@pytest.fixture(autouse=True)
def restore_language():
    """A language chosen in a request must not leak into the tests that follow."""
    language = translation.get_language()
    yield
    translation.activate(language)


@pytest.fixture
def me(member) -> Player:
    # A name of his own: the factories' names come round again and would be the others'.
    player = member.player
    player.first_name, player.last_name = "Zacharie", "Membre"
    player.display_name = "Zacharie Membre"
    player.save()
    return player


def named(club, first: str, last: str, **kwargs) -> Player:
    return PlayerFactory(
        first_name=first, last_name=last, display_name=f"{first} {last}", club=club, **kwargs
    )


def night_with(
    season, day: int, seated: list[Player], deals: list[dict], *, close=True, publish=True
):
    """A night of ``season`` on its ``day``-th day: one poule of ``seated`` (seat 1 first);
    closed and published unless told otherwise."""
    tournament = TournamentFactory(
        club=season.club,
        season=season,
        date=season.start + datetime.timedelta(days=day),
        name=f"Soirée du jour {day}",
    )
    if not close:
        night_started(tournament)
    poule = poule_create(tournament, round=1, table=1, players=seated)
    for deal in deals:
        deal_record(poule, deal)
    if close:
        tournament_close(tournament, unfinished_ok=True)
        if publish:
            tournament_publish(tournament)
    return tournament


def my_solo_made(season, me, club):
    """A night of mine on the season's 80th day, closed and not published: a solo 6 I made."""
    return night_with(
        season,
        80,
        [me, *PlayerFactory.create_batch(3, club=club)],
        [{"contract": "solo", "bid": 6, "declarers": ["1"], "tricks": 7}],
        publish=False,
    )


@pytest.fixture
def others(club):
    return {
        "anne": named(club, "Anne", "Dupont", email="anne@example.org", phone="0470 11 22 33"),
        # Bruno chose initials: he is "B.L." wherever others see him.
        "bruno": named(club, "Bruno", "Lemaire", public_name=Player.PublicName.INITIALS),
        "chloe": named(club, "Chloé", "Martin"),
        "didier": named(club, "Didier", "Peeters"),
        "eva": named(club, "Eva", "Janssens"),
    }


@pytest.fixture
def my_season(season, me, others):
    anne, bruno, chloe, didier, eva = others.values()
    night_with(
        season,
        9,
        [me, anne, bruno, chloe],
        [
            {"contract": "emballage", "bid": 8, "declarers": ["1", "3"], "tricks": 9},
            {"contract": "petite_misere", "declarers": ["1", "2"], "tricks": {"1": 0, "2": 1}},
            {"contract": "solo", "bid": 6, "declarers": ["1"], "tricks": 5},
        ],
    )
    night_with(
        season,
        40,
        [anne, bruno, chloe, didier],
        [{"contract": "solo", "bid": 6, "declarers": ["1"], "tricks": 7}],
    )
    night_with(
        season,
        69,
        [anne, me, eva, bruno],
        [{"contract": "trou", "bid": 8, "declarers": ["1", "2"], "tricks": 8}],
    )
    night_with(
        season,
        100,
        [me, anne, bruno, chloe],
        [{"contract": "abondance", "bid": 9, "declarers": ["1"], "tricks": 9}],
        close=False,
    )
    night_with(
        season,
        130,
        [me, eva, chloe, didier],
        [{"contract": "emballage", "bid": 8, "declarers": ["1", "2"], "tricks": 6}],
    )
    return season


class Tables(HTMLParser):
    """The text of every body row of every table, by the table's first class."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: dict[str, list[list[str]]] = {}
        self.current: list[list[str]] | None = None
        self.in_body = self.in_cell = False

    def handle_starttag(self, tag, attrs):
        if tag == "table":
            classes = (dict(attrs).get("class") or "").split()
            self.current = self.tables.setdefault(classes[-1] if classes else "", [])
        elif tag == "tbody":
            self.in_body = True
        elif self.in_body and tag == "tr":
            self.current.append([])
        elif self.in_body and tag in ("td", "th"):
            self.in_cell = True
            self.current[-1].append("")

    def handle_endtag(self, tag):
        if tag == "tbody":
            self.in_body = False
        elif tag in ("td", "th"):
            self.in_cell = False

    def handle_data(self, data):
        if self.in_body and self.in_cell:
            cell = self.current[-1]
            cell[-1] = " ".join(f"{cell[-1]} {data}".split())


def tables_of(response) -> dict[str, list[list[str]]]:
    parser = Tables()
    parser.feed(response.content.decode())
    return parser.tables


def chart_data_of(response) -> dict:
    """The numbers the page's chart draws (an SVG the server draws from them)."""
    assert b'<svg class="line-chart" id="season-chart"' in response.content
    return response.context["results"].chart_data()


def image_file(fmt: str, name: str, size=(40, 30)) -> SimpleUploadedFile:
    buffer = io.BytesIO()
    Image.new("RGB", size, (122, 31, 43)).save(buffer, format=fmt)
    return SimpleUploadedFile(name, buffer.getvalue(), content_type=f"image/{fmt.lower()}")


def stored_photos() -> set[str]:
    try:
        return set(default_storage.listdir("players")[1])
    except FileNotFoundError:
        return set()


EMAIL_CHANGE_LINK = re.compile(r"https?://testserver(/compte/adresse/[^/\s]+/)")


def email_change_link(message) -> str:
    return EMAIL_CHANGE_LINK.search(message.body).group(1)


def profile_post(me: Player, **changes) -> dict:
    """The profile form as the member's browser sends it, with ``changes``."""
    data = {
        "display_name": me.display_name,
        "email": me.email or me.user.email,
        "phone": me.phone,
        "language": me.language,
        "public_name": me.public_name,
        "result_emails": "on" if me.result_emails else "",
    }
    data.update(changes)
    return {key: value for key, value in data.items() if value != ""}


# --------------------------------------------------------------------------------------------
# Who gets in


@pytest.mark.parametrize("name", MEMBER_URLS)
def test_an_anonymous_visitor_is_sent_to_the_login_page(client, name):
    response = client.get(reverse(name))

    assert response.status_code == 302
    assert response.url == f"{reverse('login')}?next={reverse(name)}"


@pytest.mark.parametrize("name", MEMBER_URLS)
def test_an_account_without_a_player_is_told_to_ask_the_club_for_an_invitation(
    client, name, my_season, others
):
    client.force_login(UserFactory(username="sans-joueur"))

    response = client.get(reverse(name))

    assert response.status_code == 200
    page = response.content.decode()
    assert "relié à aucun joueur" in page
    assert "invitation" in page
    assert "Anne Dupont" not in page
    assert "anne@example.org" not in page


def test_an_anonymous_post_to_the_profile_changes_nothing(client, me):
    response = client.post(reverse("profile"), profile_post(me, display_name="Pirate"))

    assert response.status_code == 302
    me.refresh_from_db()
    assert me.display_name != "Pirate"


# --------------------------------------------------------------------------------------------
# The profile


def test_the_profile_page_shows_his_details_his_initials_and_links_to_his_other_pages(
    client, member, me
):
    client.force_login(member)

    page = client.get(reverse("profile")).content.decode()

    assert f'value="{me.display_name}"' in page
    assert me.initials in page
    assert reverse("password_change") in page
    assert reverse("my-results") in page
    assert reverse("my-data") in page
    assert "Pas encore de photo." in page


def test_an_invited_member_logs_in_with_his_new_address_after_changing_it(client, me, mailoutbox):
    user = me.user
    user.username = user.email = me.email = "zacharie@example.org"
    user.save()
    me.save()
    client.force_login(user)

    client.post(
        reverse("profile"),
        profile_post(me, email="Zach.Membre@example.org", current_password=PASSWORD),
    )
    client.post(email_change_link(mailoutbox[-1]))
    client.logout()

    user.refresh_from_db()
    assert user.username == "zach.membre@example.org"
    assert client.login(username="zach.membre@example.org", password=PASSWORD)
    assert not client.login(username="zacharie@example.org", password=PASSWORD)


def test_an_address_that_is_another_accounts_login_is_refused(client, member, me):
    UserFactory(username="deja@example.org", email="")
    client.force_login(member)

    response = client.post(reverse("profile"), profile_post(me, email="Deja@example.org"))

    assert "autre compte du site" in response.content.decode()
    me.refresh_from_db()
    assert me.email != "Deja@example.org"


def test_a_member_saves_his_profile_and_his_account_email_follows(client, member, me, mailoutbox):
    client.force_login(member)

    response = client.post(
        reverse("profile"),
        profile_post(
            me,
            display_name="Le Président",
            email="nouvelle@example.org",
            phone="+32 470 12 34 56",
            public_name="initials",
            result_emails="",
            current_password=PASSWORD,
        ),
        follow=True,
    )

    assert response.redirect_chain == [(reverse("profile"), 302)]
    assert "Votre profil est enregistré." in response.content.decode()
    me.refresh_from_db()
    member.refresh_from_db()
    assert me.display_name == "Le Président"
    assert member.email == "membre@example.org"  # the new address waits for its link
    assert mailoutbox[-1].to == ["nouvelle@example.org"]
    client.post(email_change_link(mailoutbox[-1]))
    me.refresh_from_db()
    member.refresh_from_db()
    assert me.email == "nouvelle@example.org"
    assert me.phone == "+32 470 12 34 56"
    assert me.public_name == Player.PublicName.INITIALS
    assert me.result_emails is False
    assert member.email == "nouvelle@example.org"


def test_a_player_registered_without_email_starts_from_his_accounts_address(client, member):
    assert member.player.email == ""
    client.force_login(member)

    page = client.get(reverse("profile")).content.decode()

    assert f'value="{member.email}"' in page


def test_the_email_cannot_be_left_empty_since_it_is_the_accounts_too(client, member, me):
    client.force_login(member)

    response = client.post(reverse("profile"), profile_post(me, display_name="Moi", email=""))

    assert "elle sert aussi à retrouver votre mot de passe" in response.content.decode()
    member.refresh_from_db()
    me.refresh_from_db()
    assert member.email == "membre@example.org"
    assert me.display_name != "Moi"


def test_posting_extra_fields_changes_nothing_but_his_own_profile(client, member, me, outsider):
    other = outsider.player
    other_before = Player.objects.filter(pk=other.pk).values().get()
    client.force_login(member)

    client.post(
        reverse("profile"),
        profile_post(
            me,
            display_name="Moi",
            id=other.pk,
            pk=other.pk,
            player=other.pk,
            user=outsider.pk,
            user_id=outsider.pk,
            first_name="Usurpé",
            last_name="Usurpé",
            memberships=other.memberships.get().pk,
            created="2000-01-01",
        ),
    )

    me.refresh_from_db()
    assert me.display_name == "Moi"
    assert me.user == member
    assert me.first_name != "Usurpé"
    assert me.last_name != "Usurpé"
    assert Player.objects.filter(pk=other.pk).values().get() == other_before
    assert get_user_model().objects.get(pk=outsider.pk).player == other
    assert list(me.memberships.values_list("role", flat=True)) == [Membership.Role.MEMBER]


def test_an_email_already_used_by_another_account_is_refused(client, member, me, outsider):
    client.force_login(member)

    response = client.post(
        reverse("profile"), profile_post(me, display_name="Moi", email=outsider.email.upper())
    )

    assert response.status_code == 200
    assert "déjà celle d&#x27;un autre compte" in response.content.decode()
    me.refresh_from_db()
    assert me.display_name != "Moi"


@pytest.mark.parametrize(
    ("upload", "message"),
    [
        pytest.param(
            lambda: SimpleUploadedFile(
                "photo.png",
                # Random pixels do not compress: a real PNG over the limit.
                _noise_png(),
                content_type="image/png",
            ),
            "La photo pèse",
            id="too-large",
        ),
        pytest.param(
            lambda: SimpleUploadedFile(
                "photo.jpg", b"Ceci n'est pas une photo.\n" * 20, content_type="image/jpeg"
            ),
            "Ce fichier n&#x27;est pas une image lisible",
            id="text-named-jpg",
        ),
        pytest.param(
            lambda: image_file("GIF", "photo.gif"),
            "Les images GIF ne sont pas acceptées",
            id="gif",
        ),
    ],
)
def test_a_refused_photo_says_why_and_nothing_of_the_form_is_saved(
    client, member, me, upload, message
):
    client.force_login(member)
    before = Player.objects.filter(pk=me.pk).values().get()
    files_before = stored_photos()

    response = client.post(
        reverse("profile"),
        {**profile_post(me, display_name="Nom jamais enregistré"), "photo": upload()},
    )

    assert response.status_code == 200
    page = response.content.decode()
    assert message in page
    assert "Rien n'a été enregistré" in page
    assert Player.objects.filter(pk=me.pk).values().get() == before
    assert stored_photos() == files_before


def _noise_png() -> bytes:
    side = 1000
    pixels = random.Random(5).randbytes(side * side * 3)
    buffer = io.BytesIO()
    Image.frombytes("RGB", (side, side), pixels).save(buffer, format="PNG")
    assert len(buffer.getvalue()) > MAX_PHOTO_BYTES
    return buffer.getvalue()


@pytest.mark.parametrize(
    ("fmt", "stored_as"), [("PNG", ".png"), ("JPEG", ".jpg"), ("WEBP", ".webp")]
)
def test_a_small_photo_is_accepted_and_shown(client, member, me, fmt, stored_as):
    client.force_login(member)

    client.post(
        reverse("profile"), {**profile_post(me), "photo": image_file(fmt, f"moi.{fmt.lower()}")}
    )

    me.refresh_from_db()
    assert me.photo.name.startswith("players/")
    assert me.photo.name.endswith(stored_as)
    page = client.get(reverse("profile")).content.decode()
    assert f'src="{me.photo.url}"' in page


def test_a_phone_photo_loses_its_location_and_is_stored_upright_and_smaller(client, member, me):
    exif = Image.Exif()
    exif[0x0112] = 6  # orientation: the phone was held upright, turn 90° to show it
    exif[0x8825] = {1: "N", 2: (50.0, 50.0, 0.0)}  # GPS: where the picture was taken
    buffer = io.BytesIO()
    Image.new("RGB", (1600, 1200), (122, 31, 43)).save(buffer, format="JPEG", exif=exif)
    client.force_login(member)

    photo = SimpleUploadedFile("moi.jpg", buffer.getvalue(), content_type="image/jpeg")
    client.post(reverse("profile"), {**profile_post(me), "photo": photo})

    me.refresh_from_db()
    with Image.open(me.photo.open("rb")) as stored:
        assert stored.format == "JPEG"
        assert stored.size == (600, 800)
        assert not stored.getexif()


def test_a_photo_is_known_by_its_content_not_by_its_name(client, member, me):
    client.force_login(member)

    client.post(reverse("profile"), {**profile_post(me), "photo": image_file("PNG", "moi.jpg")})

    me.refresh_from_db()
    assert me.photo.name.endswith(".png")


def test_a_replaced_photo_leaves_no_old_file_behind(
    client, member, me, django_capture_on_commit_callbacks
):
    client.force_login(member)
    client.post(reverse("profile"), {**profile_post(me), "photo": image_file("PNG", "a.png")})
    me.refresh_from_db()
    old = me.photo.name

    with django_capture_on_commit_callbacks(execute=True):
        client.post(reverse("profile"), {**profile_post(me), "photo": image_file("JPEG", "b.jpg")})

    me.refresh_from_db()
    assert me.photo.name != old
    assert default_storage.exists(me.photo.name)
    assert not default_storage.exists(old)


def test_a_member_removes_his_photo(client, member, me):
    client.force_login(member)
    client.post(reverse("profile"), {**profile_post(me), "photo": image_file("PNG", "moi.png")})

    client.post(reverse("profile"), profile_post(me, **{"photo-clear": "on"}))

    me.refresh_from_db()
    assert not me.photo


def test_choosing_a_language_switches_the_site_to_it(client, member, me):
    client.force_login(member)

    response = client.post(reverse("profile"), profile_post(me, language="nl"), follow=True)

    assert client.cookies[settings.LANGUAGE_COOKIE_NAME].value == "nl"
    assert '<html lang="nl">' in response.content.decode()
    me.refresh_from_db()
    assert me.language == "nl"


# --------------------------------------------------------------------------------------------
# My results


def test_my_results_list_my_closed_nights_with_rank_and_points(client, member, my_season):
    client.force_login(member)

    response = client.get(reverse("my-results"))

    rows = tables_of(response)["my-nights"]
    assert [row[:5] for row in rows] == [
        ["10/01/2024", "Soirée du jour 9", "1", "5", "14"],
        ["10/03/2024", "Soirée du jour 69", "1 ex aequo", "4", "8"],
        ["10/05/2024", "Soirée du jour 130", "3 ex aequo", "0", "\u22128"],  # the minus sign
    ]
    page = response.content.decode()
    assert "Soirée du jour 100" not in page  # still running
    assert "Soirée du jour 40" not in [row[1] for row in rows]  # played without me


def test_the_chart_ends_on_my_season_total_against_the_club_average(client, member, my_season):
    client.force_login(member)

    data = chart_data_of(client.get(reverse("my-results")))

    assert data["labels"] == ["10/01", "10/02", "10/03", "10/05"]
    assert data["mine"] == [5, 5, 9, 9]
    assert data["mine"][-1] == 5 + 4 + 0
    averages = [Fraction(8, 4), Fraction(13, 5), Fraction(21, 6), Fraction(29, 6)]
    assert data["average"] == [round(float(a), 2) for a in averages]


def test_two_nights_of_one_date_count_their_newcomers_in_their_own_order(
    client, member, me, others, season
):
    """Each player counts in the average from his first night on, in the nights' order (date,
    then name): a newcomer of the second night of a date is not in the first one's average."""
    anne, bruno, chloe, didier, eva = others.values()
    solo = [{"contract": "solo", "bid": 6, "declarers": ["1"], "tricks": 7}]
    later = night_with(
        season, 3, [didier, eva, *PlayerFactory.create_batch(2, club=season.club)], solo
    )
    Tournament.objects.filter(pk=later.pk).update(name="Soirée du jour 3, la suite")
    night_with(season, 3, [me, anne, bruno, chloe], solo)
    client.force_login(member)

    data = chart_data_of(client.get(reverse("my-results")))

    # The newcomers' night was recorded first but comes second by its name; 5 points a night:
    # its four newcomers are not in the first night's average (5 / 8 if they were).
    assert data["labels"] == ["04/01", "04/01"]
    assert data["average"] == [5 / 4, 10 / 8]


def test_the_chart_leaves_out_a_closed_night_the_club_has_not_published(
    client, member, me, others, my_season
):
    night_with(
        my_season,
        150,
        [me, others["anne"], others["bruno"], others["chloe"]],
        [{"contract": "solo", "bid": 6, "declarers": ["2"], "tricks": 9}],
        publish=False,
    )
    client.force_login(member)

    data = chart_data_of(client.get(reverse("my-results")))

    assert data["labels"] == ["10/01", "10/02", "10/03", "10/05"]


def test_the_chart_reads_the_club_average_as_stored_and_counts_it_alike_when_it_is_not(
    client, member, my_season, django_assert_num_queries
):
    """The club's side of the chart is stored with the season's summaries at each close; a
    night published without it (its row gone, or of other nights) is counted now: each
    night's sums and each player's first night, two queries more, the same page."""
    client.force_login(member)
    assert SeasonNights.objects.filter(season=my_season).exists()
    stored = client.get(reverse("my-results"))
    SeasonNights.objects.filter(season=my_season).update(nights=[[0, 1, 1]])
    cache.clear()

    with django_assert_num_queries(MY_RESULTS_QUERIES + 2):
        counted = client.get(reverse("my-results"))

    assert chart_data_of(counted) == chart_data_of(stored)
    assert tables_of(counted) == tables_of(stored)


def test_the_chart_numbers_are_also_a_table_for_readers_without_javascript(
    client, member, my_season
):
    client.force_login(member)

    response = client.get(reverse("my-results"))

    rows = tables_of(response)["results"]
    chart_rows = [row for row in rows if len(row) == 4 and row[0].count("/") == 2]
    assert [(row[0], row[2], row[3]) for row in chart_rows][-4:] == [
        ("10/01/2024", "5", "2,00"),
        ("10/02/2024", "5", "2,60"),
        ("10/03/2024", "9", "3,50"),
        ("10/05/2024", "9", "4,83"),
    ]
    assert "<details" in response.content.decode()


def test_my_contracts_count_what_i_declared_and_what_i_made(client, member, my_season):
    client.force_login(member)

    rows = tables_of(client.get(reverse("my-results")))["contracts"]

    assert rows == [
        ["Emballage", "2", "1", "50 %"],
        ["Solo", "1", "0", "0 %"],
        # Anne failed her misère in the same deal; mine counts with my own tricks.
        ["Petite misère", "1", "1", "100 %"],
        ["Trou", "1", "1", "100 %"],
    ]


def test_my_partners_are_ranked_by_our_points_and_named_as_my_club_knows_them(
    client, member, my_season
):
    """Bruno chose initials: his own club's members read his name all the same."""
    client.force_login(member)

    rows = tables_of(client.get(reverse("my-results")))["partners"]

    assert rows == [
        ["Anne Dupont", "1", "1", "8"],
        ["Bruno Lemaire", "1", "1", "5"],
        ["Eva Janssens", "1", "0", "-8"],
    ]


def test_my_results_shown_again_from_the_cache_name_partners_as_they_are_named_today(
    client, member, my_season, others
):
    client.force_login(member)
    client.get(reverse("my-results"))
    others["anne"].display_name = "Anne Dupont-Maes"
    others["anne"].save()

    rows = tables_of(client.get(reverse("my-results")))["partners"]

    assert rows[0] == ["Anne Dupont-Maes", "1", "1", "8"]


def test_a_night_closed_after_my_results_were_shown_is_on_them_at_once(
    client, member, me, my_season, season, club
):
    client.force_login(member)
    before = tables_of(client.get(reverse("my-results")))["my-nights"]

    my_solo_made(season, me, club)

    after = tables_of(client.get(reverse("my-results")))["my-nights"]
    assert len(after) == len(before) + 1


def test_a_correction_of_a_closed_night_shows_on_my_results_at_once(
    client, member, me, my_season, season, club
):
    client.force_login(member)
    tournament = my_solo_made(season, me, club)
    before = tables_of(client.get(reverse("my-results")))["contracts"]
    deal = Deal.objects.get(poule__tournament=tournament)

    deal_correct(
        deal, {"contract": "solo", "bid": 6, "declarers": ["1"], "tricks": 5}, closed_ok=True
    )

    after = tables_of(client.get(reverse("my-results")))["contracts"]
    assert ["Solo", "2", "1", "50 %"] in before
    assert ["Solo", "2", "0", "0 %"] in after


def test_only_my_five_best_partners_are_listed(client, member, me, season, club):
    partners = [named(club, f"Partenaire{n}", "Test") for n in range(6)]
    for day, partner in enumerate(partners):
        tricks = 8 + day % 3
        night_with(
            season,
            day + 1,
            [me, partner, *PlayerFactory.create_batch(2, club=club)],
            [{"contract": "emballage", "bid": 8, "declarers": ["1", "2"], "tricks": tricks}],
        )
    client.force_login(member)

    rows = tables_of(client.get(reverse("my-results")))["partners"]

    assert len(rows) == 5
    assert [int(row[3]) for row in rows] == sorted((int(row[3]) for row in rows), reverse=True)


def test_my_results_show_the_latest_season_unless_another_is_chosen(
    client, member, me, club, my_season, others
):
    earlier = SeasonFactory(club=club, year=2023)
    night_with(
        earlier,
        20,
        [me, others["anne"], others["chloe"], others["didier"]],
        [{"contract": "solo", "bid": 6, "declarers": ["1"], "tricks": 7}],
    )
    client.force_login(member)

    latest = client.get(reverse("my-results"))
    by_name = client.get(reverse("my-results"), {"saison": "2023"})
    by_id = client.get(reverse("my-results"), {"saison": str(earlier.pk)})

    assert len(tables_of(latest)["my-nights"]) == 3
    for chosen in (by_name, by_id):
        assert [row[:5] for row in tables_of(chosen)["my-nights"]] == [
            ["21/01/2023", "Soirée du jour 20", "1", "5", "9"]
        ]
    assert 'href="?saison=2023"' in latest.content.decode()


def test_a_member_without_a_closed_night_is_told_so(client, member):
    client.force_login(member)

    response = client.get(reverse("my-results"))

    assert "aucune soirée clôturée" in response.content.decode()


@pytest.mark.parametrize("tournaments", [1, 4])
def test_my_results_need_as_many_queries_for_4_nights_as_for_1(
    client, member, me, season, club, tournaments, django_assert_num_queries
):
    for day in range(tournaments):
        night_with(
            season,
            day + 1,
            [me, *PlayerFactory.create_batch(3, club=club)],
            [{"contract": "emballage", "bid": 8, "declarers": ["1", "2"], "tricks": 9}],
        )
    client.force_login(member)

    with django_assert_num_queries(MY_RESULTS_QUERIES):
        response = client.get(reverse("my-results"))
    with django_assert_num_queries(MY_RESULTS_CACHED_QUERIES):
        again = client.get(reverse("my-results"))

    assert len(tables_of(response)["my-nights"]) == tournaments
    assert tables_of(again) == tables_of(response)


def test_partners_who_chose_initials_cost_no_query_more_and_keep_their_name_for_a_clubmate(
    client, member, me, season, club, django_assert_num_queries
):
    partner = PlayerFactory(club=club, first_name="Hélène", last_name="Vandenberghe")
    partner.public_name = "initials"
    partner.save()
    night_with(
        season,
        1,
        [me, partner, *PlayerFactory.create_batch(2, club=club)],
        [{"contract": "emballage", "bid": 8, "declarers": ["1", "2"], "tricks": 9}],
    )
    client.force_login(member)
    client.get(reverse("my-results"))

    # Whether he knows each partner is read with the partners' names (club.names.annotate).
    with django_assert_num_queries(MY_RESULTS_CACHED_QUERIES):
        page = client.get(reverse("my-results")).content.decode()

    assert partner.display_name in page and "H.V." not in page


def cote_written() -> None:
    """What the worker does after each close or correction: the pending cote work run (it
    stores every night's statistics with the cote and takes its row off the outbox)."""
    for key in PendingWork.objects.filter(task=TaskName.RATINGS_UPDATE).values_list(
        "key", flat=True
    ):
        ratings_update_task(key)


def test_with_the_cote_written_my_contracts_and_partners_are_read_from_my_stored_nights(
    client, member, my_season, django_assert_num_queries
):
    """The same figures counted from the deals and read as the cote stored them: one source
    (``night_statistics``), in fewer queries (no seat, point table or deal read)."""
    client.force_login(member)
    counted = tables_of(client.get(reverse("my-results")))
    cote_written()

    with django_assert_num_queries(MY_RESULTS_STORED_QUERIES):
        stored = tables_of(client.get(reverse("my-results")))

    assert not PendingWork.objects.filter(task=TaskName.RATINGS_UPDATE).exists()
    for table in ("my-nights", "contracts", "partners"):
        assert stored[table] == counted[table]


def test_my_results_give_my_cote_and_its_change_linked_to_my_last_nights_cote(
    client, member, me, my_season, club
):
    cote_written()
    latest = (
        PlayerRating.objects.filter(player=me, tournament__club=club)
        .order_by("-tournament__date", "-tournament_id")
        .first()
    )
    client.force_login(member)

    page = client.get(reverse("my-results")).content.decode()

    address = reverse("night-ratings", args=[club.slug, latest.tournament_id])
    assert f"<strong>{latest.mu:.2f}</strong>".replace(".", ",") in page
    assert f'<a href="{address}">{signed(latest.change, ",")} à la soirée du ' in page
    assert client.get(address).status_code == 200


def test_my_cote_read_with_my_seasons_is_my_cote_read_alone(me, my_season, club):
    cote_written()

    [season] = member_results.seasons_played(me)

    read_alone = member_results.cote_now(me, club.pk)
    assert read_alone is not None
    assert member_results.season_cote(me, season) == read_alone
    assert member_results.season_cote(me, my_season) == read_alone


def test_my_cote_kept_by_my_seasons_summaries_is_my_cote_read_alone(me, my_season, club):
    """His season's summary keeps his cote after its latest rated night (written with the
    cote): the page gives it without asking for his latest rating, the same cote."""
    cote_written()
    seasons = member_results.seasons_played(me)

    read_alone = member_results.cote_now(me, club.pk)
    summary = PlayerSeasonStats.objects.get(player=me, season=my_season, published_only=False)
    assert summary.data["cote"] == [
        read_alone.mu,
        read_alone.change,
        read_alone.tournament_id,
        read_alone.date.isoformat(),
    ]
    assert member_results.season_cote(me, seasons[0], seasons) == read_alone


def test_my_results_read_my_cote_apart_while_a_summary_does_not_keep_it(
    client, member, me, my_season, django_assert_num_queries
):
    """A summary written before it kept his cote: the page asks for his latest rating (one
    query more), the same page."""
    cote_written()
    client.force_login(member)
    kept = client.get(reverse("my-results"))
    summary = PlayerSeasonStats.objects.get(player=me, season=my_season, published_only=False)
    del summary.data["cote"]
    summary.save()
    cache.clear()

    with django_assert_num_queries(MY_RESULTS_QUERIES + COTE_READ_APART):
        read_apart = client.get(reverse("my-results"))

    def cote_of(response) -> str:
        found = re.search(r'<p class="my-cote">.*?</p>', response.content.decode(), re.S)
        assert found is not None
        return found.group(0)

    assert cote_of(read_apart) == cote_of(kept)
    assert tables_of(read_apart) == tables_of(kept)


def test_my_results_and_my_statistics_page_count_my_contracts_and_partners_alike(
    me, my_season, club
):
    cote_written()

    mine = member_results.season_results(me, my_season)
    page = player_statistics(me, club, own=True)

    assert {(line.code, line.played, line.made) for line in mine.contracts} == {
        (code, played, made) for code, played, made, _rate in page.contract_lines()
    }
    assert {(p.player.pk, p.deals, p.made, p.points) for p in mine.partners} == {
        (p.player_id, p.deals, p.made, p.points)
        for p in [*page.best_partners, *page.worst_partners]
    }


def test_a_correction_shows_on_my_results_before_the_cote_is_written_again(
    client, member, me, my_season, season, club
):
    """A correction stores the night's statistics again at once: the page shows it before the
    worker writes the cote again, which finds the same lines."""
    tournament = my_solo_made(season, me, club)
    cote_written()
    client.force_login(member)
    before = tables_of(client.get(reverse("my-results")))["contracts"]

    deal_correct(
        Deal.objects.get(poule__tournament=tournament),
        {"contract": "solo", "bid": 6, "declarers": ["1"], "tricks": 5},
        closed_ok=True,
    )
    waiting = tables_of(client.get(reverse("my-results")))["contracts"]
    cote_written()
    written = tables_of(client.get(reverse("my-results")))["contracts"]

    assert ["Solo", "2", "1", "50 %"] in before
    assert ["Solo", "2", "0", "0 %"] in waiting
    assert written == waiting


def test_a_night_without_its_stored_line_is_counted_from_its_deals_alike(
    client, member, me, my_season, django_assert_num_queries
):
    """An imported night has its statistics written with its batch's cote: until then the page
    reads his nights from his standings, the chart's nights apart (two queries more), and
    counts that night from the deals (its seats, point table and deals: three more)."""
    client.force_login(member)
    stored = tables_of(client.get(reverse("my-results")))
    line = PlayerNightStats.objects.filter(player=me).order_by("tournament__date").first()
    line.delete()
    # As an import leaves it: no line yet, nor in his season's summary.
    season_stats_store([line.tournament.season_id], [me.pk])
    cache.clear()

    with django_assert_num_queries(MY_RESULTS_QUERIES + 5):
        counted = tables_of(client.get(reverse("my-results")))

    assert counted == stored


def test_my_nights_listed_by_my_season_summary_are_the_ones_my_standings_give(
    client, member, me, my_season, django_assert_num_queries
):
    """His nights are read from his season's summary, stored at each close: the same page as
    from his standings (the summary without its list, as a line stored before it had one)."""
    client.force_login(member)
    with django_assert_num_queries(MY_RESULTS_QUERIES):
        listed = client.get(reverse("my-results"))
    summaries = PlayerSeasonStats.objects.filter(player=me, season=my_season)
    for summary in summaries:
        summary.data["listed"] = None
        summary.save()
    cache.clear()

    from_standings = client.get(reverse("my-results"))

    assert tables_of(from_standings) == tables_of(listed)
    assert chart_data_of(from_standings) == chart_data_of(listed)
    assert from_standings.content.count(b"<tr") == listed.content.count(b"<tr")


def test_a_night_renamed_after_its_close_is_listed_by_its_new_name(client, member, my_season):
    night = Tournament.objects.get(name="Soirée du jour 69")
    Tournament.objects.filter(pk=night.pk).update(name='Soirée <b>d\'été</b> & "co"')
    client.force_login(member)

    response = client.get(reverse("my-results"))

    page = response.content.decode()
    # Escaped as Django's escape writes it, in his nights and in the chart's table.
    assert page.count("Soirée &lt;b&gt;d&#x27;été&lt;/b&gt; &amp; &quot;co&quot;") == 2
    assert "<b>d'été</b>" not in page
    assert "Soirée du jour 69" not in page


def test_a_reopened_night_leaves_my_results_until_it_is_closed_again(client, member, my_season):
    night = Tournament.objects.get(name="Soirée du jour 69")
    tournament_unpublish(night)
    tournament_reopen(night)
    client.force_login(member)

    reopened = tables_of(client.get(reverse("my-results")))["my-nights"]
    tournament_close(night, unfinished_ok=True)
    closed = tables_of(client.get(reverse("my-results")))["my-nights"]

    assert "Soirée du jour 69" not in [row[1] for row in reopened]
    assert "Soirée du jour 69" in [row[1] for row in closed]


# --------------------------------------------------------------------------------------------
# My data


def test_my_data_is_a_json_file_of_my_account_profile_nights_and_deals(
    client, member, me, my_season
):
    client.force_login(member)

    response = client.get(reverse("my-data"))

    assert response["Content-Type"].startswith("application/json")
    assert re.fullmatch(
        r'attachment; filename="mes-donnees-\d{4}-\d{2}-\d{2}\.json"',
        response["Content-Disposition"],
    )
    data = json.loads(response.content)
    assert data["account"]["username"] == "membre"
    assert data["account"]["email"] == member.email
    assert "password" not in json.dumps(data["account"])
    assert data["player"]["display_name"] == me.display_name
    assert data["memberships"] == [
        {
            "club": "RCWhist La Chevalerie",
            "role": "member",
            "status": "active",
            "start": "2024-01-01",
            "end": None,
        }
    ]
    tournaments = data["nights"]
    assert [
        (n["date"], n["status"], n["rank"], n["tied"], n["tournament_points"]) for n in tournaments
    ] == [
        ("2024-01-10", "published", 1, False, "5"),
        ("2024-03-10", "published", 1, True, "4"),
        ("2024-04-10", "running", 1, False, "5"),
        ("2024-05-10", "published", 3, True, "0"),
    ]
    first = tournaments[0]["poules"][0]
    assert (first["seat"], first["rank"], first["game_points"]) == (1, 1, 14)
    assert [(d["number"], d["seat"], d["points"]) for d in first["deals"]] == [
        (1, 1, 5),
        (2, 1, 18),
        (3, 1, -9),
    ]
    assert first["deals"][1]["data"] == {
        "contract": "petite_misere",
        "declarers": ["1", "2"],
        "tricks": {"1": 0, "2": 1},
    }
    assert tournaments[1]["poules"][0]["deals"][0]["seat"] == 2


def test_my_data_tells_nothing_about_the_other_players(client, member, my_season, others):
    client.force_login(member)

    text = client.get(reverse("my-data")).content.decode()

    for player in others.values():
        assert player.display_name not in text
        assert player.last_name not in text
    assert "anne@example.org" not in text
    assert "0470 11 22 33" not in text
    data = json.loads(text)
    deal = data["nights"][0]["poules"][0]["deals"][0]
    assert isinstance(deal["points"], int)  # his own, not the table's


@pytest.mark.parametrize("tournaments", [1, 4])
def test_my_data_needs_as_many_queries_for_4_nights_as_for_1(
    client, member, me, season, club, tournaments, django_assert_num_queries
):
    for day in range(tournaments):
        night_with(
            season,
            day + 1,
            [me, *PlayerFactory.create_batch(3, club=club)],
            [{"contract": "solo", "bid": 6, "declarers": ["1"], "tricks": 7}] * 2,
        )
    client.force_login(member)

    with django_assert_num_queries(MY_DATA_QUERIES):
        response = client.get(reverse("my-data"))

    assert len(json.loads(response.content)["nights"]) == tournaments


def _one_colour_png(width: int, height: int) -> bytes:
    buffer = io.BytesIO()
    Image.new("1", (width, height)).save(buffer, format="PNG")
    return buffer.getvalue()


@pytest.mark.parametrize("side", [9400, 13000])
def test_a_photo_of_too_many_pixels_is_refused_before_it_is_decoded(
    client, member, me, monkeypatch, side
):
    bomb = _one_colour_png(side, side)
    assert len(bomb) < MAX_PHOTO_BYTES  # small on disk, gigabytes once decoded

    def never_decoded(*args, **kwargs):
        raise AssertionError("the photo was decoded")

    monkeypatch.setattr(ImageFile.ImageFile, "load", never_decoded)
    client.force_login(member)
    before = Player.objects.filter(pk=me.pk).values().get()

    response = client.post(
        reverse("profile"),
        {**profile_post(me), "photo": SimpleUploadedFile("photo.png", bomb, "image/png")},
    )

    assert response.status_code == 200
    assert "La photo a trop de pixels : 25 mégapixels au plus" in response.content.decode()
    assert Player.objects.filter(pk=me.pk).values().get() == before


def test_pillows_decompression_bomb_warning_refuses_the_photo(client, member, me, monkeypatch):
    # Pillow warns above MAX_IMAGE_PIXELS (and fails above twice as many): with its limit
    # lowered, an ordinary 40 × 40 photo sets the warning off.
    monkeypatch.setattr(Image, "MAX_IMAGE_PIXELS", 1000)
    client.force_login(member)

    response = client.post(
        reverse("profile"),
        {**profile_post(me), "photo": image_file("PNG", "photo.png", size=(40, 40))},
    )

    assert "La photo a trop de pixels" in response.content.decode()
    me.refresh_from_db()
    assert not me.photo


# Changing the address or the name


def test_a_new_address_needs_the_current_password(client, member, me, mailoutbox):
    name_before = me.display_name
    client.force_login(member)

    response = client.post(
        reverse("profile"), profile_post(me, display_name="Moi", email="pirate@example.net")
    )

    assert "indiquez votre mot de passe actuel" in response.content.decode()
    me.refresh_from_db()
    member.refresh_from_db()
    assert me.display_name == name_before  # a refused form saves nothing
    assert member.email == "membre@example.org"
    assert mailoutbox == []


def test_a_wrong_current_password_changes_nothing_and_counts_as_a_wrong_password(
    client, member, me, mailoutbox
):
    client.force_login(member)

    response = client.post(
        reverse("profile"),
        profile_post(me, email="pirate@example.net", current_password="devine-le"),
    )

    assert "Ce n&#x27;est pas votre mot de passe actuel" in response.content.decode()
    assert mailoutbox == []
    assert ThrottleEvent.objects.filter(key=f"user:{member.pk}").count() == 1


def test_opening_the_link_is_not_enough_the_member_confirms_it(client, member, me, mailoutbox):
    client.force_login(member)
    client.post(
        reverse("profile"),
        profile_post(me, email="nouvelle@example.org", current_password=PASSWORD),
    )
    link = email_change_link(mailoutbox[-1])

    assert client.get(link).status_code == 200
    member.refresh_from_db()
    assert member.email == "membre@example.org"
    client.post(link)
    member.refresh_from_db()
    assert member.email == "nouvelle@example.org"
    assert client.post(link).status_code == 404  # once


def test_the_same_address_in_another_case_is_no_change(client, member, me, mailoutbox):
    client.force_login(member)

    client.post(reverse("profile"), profile_post(me, email="MEMBRE@example.org"))

    assert mailoutbox == []


@pytest.mark.parametrize("taken", ["anne dupont", "ANNE DUPONT", "Anné Dupont", "Anne  Dupont"])
def test_a_member_cannot_take_the_name_of_another_player_of_his_club(
    client, member, me, others, taken
):
    client.force_login(member)

    response = client.post(reverse("profile"), profile_post(me, display_name=taken))

    assert "est déjà le nom d&#x27;un autre joueur de votre club" in response.content.decode()
    me.refresh_from_db()
    assert me.display_name != taken
