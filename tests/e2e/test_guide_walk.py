"""The guide walked as a new secretary walks it, in a real browser: she signs her club up,
adds a player and invites him, imports her members, plans a night, starts it, draws the
tables, scores, closes, publishes, reads the cote and her results, and on each page the guide
names finds every button and link it quotes there (``{% ui %}``, read from the guide itself).
Only what another road shows is left out, said below."""

from __future__ import annotations

import datetime
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from django.core import mail
from django.urls import reverse
from playwright.sync_api import BrowserContext, Page, expect

from games.models import Tournament
from scoring import services as scoring
from tests.club.views.test_member_import import members_rows, xlsx_of
from tests.front.templatetags.test_guide import quoted_names

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
LINK = re.compile(r"https?://\S+(/inscription/confirmer/[^/\s]+/)")
PASSWORD = "trefle-carreau-pique-coeur"
# Quoted on a page the walk does not reach this way: the sign-up sent for approval (this
# site opens clubs at once).
ELSEWHERE = {("signup-review", "Envoyer la demande")}
DEALS = [
    {"contract": "emballage", "bid": 8, "declarers": ["1", "3"], "tricks": 9},
    {"contract": "solo", "bid": 6, "declarers": ["2"], "tricks": 7},
]


class Walk:
    """The secretary's browser, and the names of the guide found on each page so far."""

    def __init__(self, page: Page, base: str) -> None:
        self.page, self.base = page, base
        self.guide = quoted_names("fr")
        self.found: set[tuple[str, str]] = set()

    def go(self, address: str) -> None:
        response = self.page.goto(self.base + address)
        assert response is not None and response.status == 200, address

    def on(self, key: str, *only: str) -> None:
        """Every name the guide quotes on the page ``key`` is on the page in front of her
        (``only`` these when the page shows the others in another state)."""
        for name in only or sorted(self.guide.get(key, ())):
            assert name in self.guide.get(key, ()), f"the guide does not quote {name} on {key}"
            expect(self.page.get_by_text(name, exact=False).first).to_be_attached()
            self.found.add((key, name))

    def click(self, name: str, role: str = "link") -> None:
        self.page.get_by_role(role, name=name, exact=True).first.click()


def test_a_new_secretary_follows_the_guide_and_finds_every_button_it_names(
    live_server, new_context: Callable[..., BrowserContext], settings, tmp_path: Path
):
    settings.CLUB_SIGNUP = "open"
    context = new_context(viewport=PHONE, locale="fr-BE")
    walk = Walk(context.new_page(), live_server.url)
    page = walk.page

    # « Inscrire un club »: from the home page to her club's first steps.
    walk.go("/")
    walk.on("home")
    walk.click("Créer un club")
    walk.on("signup-start")
    page.fill("#id_email", "marie@example.org")
    page.fill("#id_name", "Marie Lambert")
    walk.click("Recevoir le lien de confirmation", "button")
    (letter,) = [m for m in mail.outbox if m.to == ["marie@example.org"]]
    walk.go(LINK.search(letter.body).group(1))
    page.fill("#id_new_password1", PASSWORD)
    page.fill("#id_new_password2", PASSWORD)
    page.click("main button.primary")
    page.fill("#id_name", "Whist Club de Ciney")
    page.fill("#id_town", "Ciney")
    page.select_option("#id_default_rules", "rcwhist")
    page.click("main button.primary")
    page.click("main button.primary")
    walk.on("signup-review", "Créer le club")
    walk.click("Créer le club", "button")
    expect(page.locator(".club-start")).to_be_visible()
    club_page = page.url.removeprefix(live_server.url)
    walk.on("club-detail")

    # « Importer les membres »: one player by hand, invited, then the spreadsheet.
    walk.click("Membres et invitations")
    walk.on("members", "Ajouter un joueur", "Importer des membres d'un tableur")
    if not page.locator("details.member-add").get_attribute("open") == "":
        page.get_by_text("Ajouter un joueur", exact=True).click()
    page.fill("details.member-add [name=display_name]", "Anne Peeters")
    page.locator("details.member-add button[type=submit]").click()
    row = page.locator(".members li", has_text="Anne Peeters")
    row.locator("input[name=email]").fill("anne@example.org")
    walk.on("members", "Inviter")
    row.get_by_role("button", name="Inviter", exact=True).click()
    expect(page.get_by_role("button", name="Inviter à nouveau")).to_be_visible()
    walk.on("members", "Inviter à nouveau")
    walk.click("Importer des membres d'un tableur")
    workbook = tmp_path / "membres.xlsx"
    workbook.write_bytes(xlsx_of(members_rows(12)))
    page.set_input_files("#id_file", str(workbook))
    page.click("main button[type=submit]")
    walk.on("member-import-columns")
    walk.click("Continuer", "button")
    walk.on("member-import-review")
    walk.click("Importer les membres", "button")

    # The club's management: join requests (with the room screen in its menu), settings.
    walk.go(club_page)
    walk.click("Gestion du club")
    walk.on("club-admin")
    walk.click("Demandes d'adhésion")
    walk.on("join-requests")
    walk.click("Réglages du club")
    walk.on("club-settings")

    # « Préparer le calendrier »: a night planned, answered.
    walk.go(club_page)
    walk.click("Le calendrier : répondre")
    walk.on("games:calendar", "Planifier des soirées")
    walk.click("Planifier des soirées")
    # Planned for tomorrow: « Nouvelle soirée » would offer tonight's planned night instead.
    tonight = datetime.date.today() + datetime.timedelta(days=1)
    night_form = page.locator("form", has=page.locator("input[name=form][value=night]"))
    night_form.locator("[name$=date]").fill(tonight.isoformat())
    night_form.get_by_role("button", name="Ajouter la soirée").click()
    walk.go(club_page)
    walk.click("Le calendrier : répondre")
    walk.on("games:calendar")
    walk.click("Réponses")
    walk.on("games:calendar-replies")

    # « Mener une soirée »: the night, who is present, the tables drawn.
    walk.go(club_page)
    walk.click("Nouvelle soirée")
    walk.on("games:tournament-create")
    walk.click("Créer la soirée", "button")
    # The new night opens on its players present.
    night_page = page.url.removeprefix(live_server.url).removesuffix("presents/")
    walk.on("games:presence")
    # She plays too: her results and her cote follow.
    page.locator("#member-list label", has_text="Marie Lambert").locator("input").check()
    for box in page.locator("#member-list input[name=present]").all()[:7]:
        box.check()
    walk.click("Enregistrer les présents", "button")
    walk.go(night_page)
    walk.on("games:tournament", "Tirer les tables", "Feuilles de marque vierges")
    walk.click("Tirer les tables", "button")
    walk.on("games:tournament", "Placement (à imprimer)", "Feuilles de marque (à imprimer)")
    walk.on("games:tournament", "Saisir la feuille papier")

    # « Noter à la table » and « Encoder une feuille papier ».
    night = Tournament.objects.get(pk=int(night_page.rstrip("/").rsplit("/", 1)[-1]))
    # Her own table is played on the phone (the draw is random): her cote then moves.
    poules = list(night.poules.order_by("table"))
    on_phone = next(p for p in poules if p.seats.filter(player__display_name="Marie Lambert"))
    on_paper = next(p for p in poules if p != on_phone)
    scoring.deals_record(on_phone, DEALS)
    walk.go(f"{night_page}poules/{on_phone.pk}/")
    walk.on("games:sheet")
    walk.go(f"{night_page}poules/{on_paper.pk}/saisie/")
    walk.on("games:sheet-entry")

    # Closing with unfinished tables, as the guide says, then « Publier ».
    walk.go(night_page)
    walk.on("games:tournament", "Clôturer la soirée")
    walk.click("Clôturer la soirée", "button")
    page.locator("main form button.primary").click()
    walk.on("games:tournament", "Publier les feuilles", "Rouvrir")
    walk.click("Publier les feuilles", "button")
    walk.on("games:tournament", "Dépublier les feuilles")
    walk.go(club_page.rstrip("/") + "/classement/")
    walk.on("ranking")

    # « Lire la cote »: the club's, the night's, and her own results.
    walk.go(club_page)
    walk.on("club-detail", "Cote")
    walk.go(f"{night_page}resultats/")
    walk.on("games:results")
    walk.click("Attendu et obtenu (cote)")
    walk.on("night-ratings")
    walk.go(reverse("my-results"))
    walk.on("my-results")

    quoted = {(key, name) for key, names in walk.guide.items() for name in names}
    assert quoted - walk.found == ELSEWHERE
