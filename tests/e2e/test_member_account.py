"""A member's account in a real browser: the club admin publishes the ranking and invites a
player; the player sets his password from the e-mail's link, edits his profile on his phone
and finds himself in the ranking; a visitor reads him under the name he chose for the public."""

from __future__ import annotations

import io
import re

import pytest
from PIL import Image
from playwright.sync_api import Page, expect

from club.models import Player
from scoring.models import RankingSnapshot
from scoring.services import tournament_publish

from .conftest import PHONE, page_width
from .test_club_night import log_in, snap

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

NEW_PASSWORD = "as-de-pique-et-dame-de-coeur"
LINK = re.compile(r"https?://[^/\s]+(/compte/invitation/[^/\s]+/)")


def png_photo() -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (120, 160), (122, 31, 43)).save(buffer, format="PNG")
    return buffer.getvalue()


def page_never_scrolls_sideways(page: Page) -> None:
    width = page_width(page)
    assert width <= PHONE["width"], f"{page.url} is {width}px wide"


def test_an_invited_player_sets_his_password_edits_his_profile_and_sees_the_ranking(
    new_context, phone, live_server, club, club_admin, imported_night, mailoutbox
):
    tournament_publish(imported_night)
    base = live_server.url
    chloe = Player.objects.get(display_name="Chloé Martin")
    assert imported_night.standings.filter(player=chloe).exists()

    # The club admin, on his own computer, publishes the 2024 ranking and invites Chloé.
    admin_context = new_context(locale="fr-BE")
    admin = admin_context.new_page()
    log_in(admin, base, club_admin.username)
    admin.goto(f"{base}/clubs/{club.slug}/classement/2024/")
    admin.get_by_role("button", name="Publier le classement").click()
    expect(admin.get_by_text(re.compile("Publié le"))).to_be_visible()
    assert RankingSnapshot.objects.filter(
        season=imported_night.season, published_at__isnull=False
    ).exists()
    admin.goto(f"{base}/clubs/{club.slug}/membres/")
    card = admin.locator(f"#member-{chloe.pk}")
    card.locator("input[name=email]").fill("chloe.martin@example.org")
    card.get_by_role("button", name="Inviter").click()
    expect(admin.locator(f"#member-{chloe.pk}")).to_contain_text("Invitation envoyée")
    admin_context.close()

    # Chloé opens the link of the e-mail on her phone and chooses her password.
    assert [message.to for message in mailoutbox] == [["chloe.martin@example.org"]]
    link = LINK.search(mailoutbox[0].body).group(1)
    phone.goto(f"{base}{link}")
    expect(phone.locator("main")).to_contain_text("Chloé Martin")
    phone.fill("input[name=new_password1]", NEW_PASSWORD)
    phone.fill("input[name=new_password2]", NEW_PASSWORD)
    snap(phone, "member-1-set-password")
    phone.locator("main button[type=submit]").click()
    expect(phone).to_have_url(re.compile(r"/compte/profil/$"))
    expect(phone.locator(".messages")).to_contain_text("Bienvenue")
    page_never_scrolls_sideways(phone)

    # She edits her profile: a photo, her phone number, and her initials on public pages.
    phone.set_input_files(
        "input[type=file]",
        files=[{"name": "chloe.png", "mimeType": "image/png", "buffer": png_photo()}],
    )
    phone.fill("input[name=phone]", "+32 470 12 34 56")
    phone.locator("input[name=public_name][value=initials]").check()
    snap(phone, "member-2-profile")
    phone.locator("form.profile-form button[type=submit]").click()
    expect(phone.locator(".messages .success")).to_be_visible()
    chloe.refresh_from_db()
    assert chloe.user.email == "chloe.martin@example.org"
    assert (chloe.phone, chloe.public_name) == ("+32 470 12 34 56", "initials")
    assert chloe.photo.name

    # The published ranking: she reads her own name (club/names.py: a member reads his club's
    # names, and his own), with her line linked to her page.
    phone.goto(f"{base}/clubs/{club.slug}/classement/")
    expect(phone.locator("tr", has_text="Chloé Martin")).to_be_visible()
    # The site's own script runs under the Content-Security-Policy: it shows the print button.
    expect(phone.get_by_role("button", name="Imprimer")).to_be_visible()
    snap(phone, "member-3-ranking")
    page_never_scrolls_sideways(phone)

    # A visitor reads her under her initials, on the ranking and on her page.
    visitor = new_context(locale="fr-BE").new_page()
    visitor.goto(f"{base}/clubs/{club.slug}/classement/")
    line = visitor.locator("tr", has_text="C.M.")
    expect(line).to_be_visible()
    assert "Chloé Martin" not in visitor.locator("main").inner_text()
    line.get_by_role("link", name="C.M.").click()
    expect(visitor.locator("h1")).to_contain_text("C.M.")
    assert "Chloé Martin" not in visitor.locator("main").inner_text()
    visitor.context.close()

    # And she logs in again later with her address and new password.
    phone.context.clear_cookies()
    phone.goto(f"{base}/compte/login/")
    phone.fill("#id_username", "Chloe.Martin@example.org")
    phone.fill("#id_password", NEW_PASSWORD)
    phone.locator("main button[type=submit]").click()
    expect(phone.locator("form[action$='/logout/']")).to_be_attached()
    phone.goto(f"{base}/compte/resultats/")
    expect(phone.locator("main")).to_contain_text(imported_night.name)
    page_never_scrolls_sideways(phone)

    # Choosing another language in the header (under its menu on a phone) switches the page.
    phone.locator("[data-menu-toggle]").click()
    phone.select_option("#language", "en")
    expect(phone.locator("html")).to_have_attribute("lang", "en")
