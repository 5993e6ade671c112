"""Albums and photos as stored: who sees which album, what a photo shows, what a club's photos
take, and that a photo said ready has its copies."""

from __future__ import annotations

import datetime

import pytest
from django.db import IntegrityError

from clubsite.models import Album, Photo
from tests.factories import ClubFactory

pytestmark = pytest.mark.django_db
DAY = datetime.date(2025, 3, 13)


def test_members_see_every_album_and_the_public_the_open_ones(club):
    open_album = Album.objects.create(club=club, title="Ouvert", slug="ouvert", date=DAY)
    Album.objects.create(club=club, title="Privé", slug="prive", date=DAY, members_only=True)
    assert Album.objects.seen_by(is_member=True).count() == 2
    assert list(Album.objects.seen_by(is_member=False)) == [open_album]


def test_a_photo_is_shown_once_ready_and_while_nobody_asks_it_down(club, member):
    album = Album.objects.create(club=club, title="A", slug="a", date=DAY)
    Photo.objects.create(album=album)  # waiting for its copies
    ready = Photo.objects.create(album=album, status=Photo.Status.READY, thumb_name="t.jpg")
    assert list(Photo.objects.shown()) == [ready]
    Photo.objects.filter(pk=ready.pk).update(takedown_asked_at=datetime.datetime.now(datetime.UTC))
    assert not Photo.objects.shown().exists()


def test_a_clubs_photos_are_summed_apart_from_another_clubs(club):
    mine = Album.objects.create(club=club, title="A", slug="a", date=DAY)
    theirs = Album.objects.create(club=ClubFactory(name="Autre"), title="B", slug="b", date=DAY)
    Photo.objects.create(album=mine, bytes=1000)
    Photo.objects.create(album=mine, bytes=500)
    Photo.objects.create(album=theirs, bytes=7)
    assert Photo.objects.club_bytes(club) == 1500
    assert Photo.objects.club_bytes(ClubFactory(name="Vide")) == 0


def test_a_photo_said_ready_without_its_copies_is_refused(club):
    album = Album.objects.create(club=club, title="A", slug="a", date=DAY)
    with pytest.raises(IntegrityError):
        Photo.objects.create(album=album, status=Photo.Status.READY)


def test_two_albums_of_a_club_never_share_an_address(club):
    Album.objects.create(club=club, title="A", slug="a", date=DAY)
    Album.objects.create(club=ClubFactory(name="Autre"), title="A", slug="a", date=DAY)
    with pytest.raises(IntegrityError):
        Album.objects.create(club=club, title="A bis", slug="a", date=DAY)
