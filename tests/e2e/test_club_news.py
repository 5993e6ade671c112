"""The club's news on a 390 px phone, in a real browser: its admin writes a post with a photo
from the club's page and publishes it; a visitor finds it on the club's page and reads it,
its photo within the screen."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from clubsite.models import NewsPost
from tests.clubsite.helpers import photo_upload
from tests.e2e.conftest import page_width

from .test_club_night import log_in

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}


def test_an_admin_posts_news_and_a_visitor_reads_it_on_the_clubs_page(
    live_server, new_context, club, club_admin, settings, tmp_path
):
    # The photo served as uploads are (front/views/media.py reads them from the media folder).
    settings.MEDIA_ROOT = tmp_path
    settings.STORAGES = {
        **settings.STORAGES,
        "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    }
    base = live_server.url
    page = new_context(locale="fr-BE", **PHONE).new_page()
    log_in(page, base, club_admin.username)
    page.goto(f"{base}/clubs/{club.slug}/")
    page.click("text=Gestion du club")
    page.click(".admin-index >> text=Actualités")
    page.click("text=Écrire une actualité")
    page.fill("#id_title", "Souper annuel du club")
    page.fill("#id_text", "Rendez-vous **samedi 14 février** à 19 h.\n\n- apéritif\n- repas")
    upload = photo_upload((2400, 1600))
    page.set_input_files(
        "#id_photo",
        files=[{"name": upload.name, "mimeType": "image/jpeg", "buffer": upload.read()}],
    )
    page.click("button[value=publish]")
    expect(page.locator(".messages")).to_contain_text("Actualité publiée")
    assert NewsPost.objects.get().is_published

    visitor = new_context(locale="fr-BE", **PHONE).new_page()
    visitor.goto(f"{base}/clubs/{club.slug}/")
    news = visitor.locator(".club-news")
    expect(news).to_contain_text("Souper annuel du club")
    assert page_width(visitor) <= 390
    news.locator("text=Souper annuel du club").click()
    expect(visitor.locator("h1")).to_have_text("Souper annuel du club")
    expect(visitor.locator(".news-text strong")).to_have_text("samedi 14 février")
    photo = visitor.locator("img.news-photo")
    expect(photo).to_be_visible()
    assert visitor.evaluate("document.querySelector('img.news-photo').naturalWidth") > 0
    box = photo.bounding_box()
    assert box and box["x"] + box["width"] <= 390
    assert page_width(visitor) <= 390
