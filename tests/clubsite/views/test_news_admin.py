"""A club's admins write, publish, take back and delete its news; a published night is
announced from a draft prefilled with its podium; nobody else may, another club's admin
learns nothing (404)."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from clubsite.models import NewsPost
from infra.models import PendingWork
from infra.outbox import TaskName
from scoring import services as scoring_services
from tests.clubsite.helpers import photo_upload, post_of
from tests.conftest import persona
from tests.factories import ClubFactory

pytestmark = pytest.mark.django_db


def form(**extra):
    return {"title": "Le souper", "date": "2025-03-01", "text": "Samedi **20 h**.", **extra}


def test_an_admin_writes_a_draft_then_publishes_it_with_its_email(client, club, club_admin):
    client.force_login(club_admin)
    response = client.post(reverse("news-new", args=[club.slug]), form(photo=photo_upload()))
    assert response.status_code == 302
    post = NewsPost.objects.get()
    assert post.status == NewsPost.Status.DRAFT and post.photo
    assert post.author == club_admin.player
    client.post(reverse("news-publish", args=[club.slug, post.pk]), {"email": "1"})
    post.refresh_from_db()
    assert post.is_published
    assert PendingWork.objects.filter(task=TaskName.NEWS_EMAIL, key=post.pk).exists()


def test_the_form_publishes_at_once(client, club, club_admin):
    client.force_login(club_admin)
    response = client.post(reverse("news-new", args=[club.slug]), form(action="publish"))
    post = NewsPost.objects.get()
    assert response["Location"] == reverse("news-post", args=[club.slug, post.pk])
    assert post.is_published and "<strong>20 h</strong>" in post.html


def test_a_bad_photo_is_refused_in_words_and_nothing_is_kept(client, club, club_admin):
    client.force_login(club_admin)
    bad = SimpleUploadedFile("x.jpg", b"pas une image", content_type="image/jpeg")
    response = client.post(reverse("news-new", args=[club.slug]), form(photo=bad))
    assert response.status_code == 200
    assert "pas une photo lisible" in response.content.decode()
    assert NewsPost.objects.count() == 0


def test_an_admin_edits_takes_back_and_deletes(client, club, club_admin):
    client.force_login(club_admin)
    post = post_of(club)
    client.post(reverse("news-edit", args=[club.slug, post.pk]), form(title="Nouveau titre"))
    post.refresh_from_db()
    assert post.title == "Nouveau titre" and post.is_published
    client.post(reverse("news-unpublish", args=[club.slug, post.pk]))
    post.refresh_from_db()
    assert not post.is_published
    page = client.get(reverse("news-delete", args=[club.slug, post.pk]))
    assert "Nouveau titre" in page.content.decode()
    client.post(reverse("news-delete", args=[club.slug, post.pk]))
    assert not NewsPost.objects.exists()


def test_the_management_page_lists_drafts_and_is_linked_from_the_clubs(client, club, club_admin):
    client.force_login(club_admin)
    post_of(club, "Mon brouillon", published=False)
    assert "Mon brouillon" in client.get(reverse("news-manage", args=[club.slug])).content.decode()
    admin_page = client.get(reverse("club-admin", args=[club.slug])).content.decode()
    assert reverse("news-manage", args=[club.slug]) in admin_page


def test_a_published_night_is_announced_from_a_prefilled_draft(client, club, imported_night):
    night = scoring_services.tournament_publish(imported_night)
    admin = persona(night.club, "secretaire", "admin")
    client.force_login(admin)
    night_page = client.get(reverse("games:tournament", args=[night.club.slug, night.pk]))
    announce = reverse("news-new", args=[night.club.slug]) + f"?soiree={night.pk}"
    assert announce in night_page.content.decode()
    response = client.get(announce)
    filled = response.context["form"].initial
    assert "podium" in filled["title"] and "**" in filled["text"]
    assert filled["date"] == night.date


def test_an_unpublished_or_other_clubs_night_is_not_announced(client, club, club_admin, tonight):
    client.force_login(club_admin)
    address = reverse("news-new", args=[club.slug]) + f"?soiree={tonight.pk}"
    assert client.get(address).status_code == 404


def test_another_clubs_admin_gets_404_and_a_member_403(client, club, member):
    post = post_of(club)
    other = persona(ClubFactory(name="Autre club"), "autre", "admin")
    for user, status in ((other, 404), (member, 403)):
        client.force_login(user)
        for name in ("news-edit", "news-delete"):
            assert client.get(reverse(name, args=[club.slug, post.pk])).status_code == status
        assert client.post(reverse("news-publish", args=[club.slug, post.pk])).status_code == status


def test_an_edit_keeps_the_photo_unless_it_is_taken_off(client, club, club_admin):
    client.force_login(club_admin)
    client.post(reverse("news-new", args=[club.slug]), form(photo=photo_upload()))
    post = NewsPost.objects.get()
    kept = post.photo.name
    client.post(reverse("news-edit", args=[club.slug, post.pk]), form(title="Autre"))
    post.refresh_from_db()
    assert post.photo.name == kept
    client.post(reverse("news-edit", args=[club.slug, post.pk]), form(**{"photo-clear": "on"}))
    post.refresh_from_db()
    assert not post.photo


def test_the_management_list_takes_the_same_queries_for_many_posts(
    client, club, club_admin, django_assert_num_queries
):
    client.force_login(club_admin)
    for day in range(1, 4):
        post_of(club, day=day)
    client.get(reverse("news-manage", args=[club.slug]))
    for day in range(4, 12):
        post_of(club, day=day, published=day % 2 == 0)
    # Session, user, club, role, posts, readers (wanting members).
    with django_assert_num_queries(6):
        response = client.get(reverse("news-manage", args=[club.slug]))
    assert len(response.context["posts"]) == 11
