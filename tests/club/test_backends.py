"""A member's session read by a query compiled once (``club.backends.SessionStore``): the
site's session engine; the same sessions as Django's database store reads, in one query, an
expired or an unknown one read as none."""

from __future__ import annotations

import datetime

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.sessions.backends.db import SessionStore as DjangoStore
from django.contrib.sessions.models import Session
from django.utils import timezone

from club.backends import SessionStore

pytestmark = pytest.mark.django_db


def _saved(**data: object) -> str:
    store = SessionStore()
    store.update(data)
    store.save()
    return store.session_key


def test_the_site_reads_its_sessions_by_this_store():
    assert settings.SESSION_ENGINE == "club.backends"


def test_a_session_reads_as_django_reads_it_in_one_query(django_assert_num_queries):
    keys = [_saved(n=n, name=f"membre {n}") for n in range(3)]
    for key in [*keys, keys[0]]:
        with django_assert_num_queries(1):
            data = dict(SessionStore(key).items())
        assert data == dict(DjangoStore(key).items())
        assert data["name"] == f"membre {data['n']}"


def test_an_expired_session_reads_as_none_and_a_new_one_is_made():
    key = _saved(n=1)
    past = timezone.now() - datetime.timedelta(seconds=1)
    Session.objects.filter(pk=key).update(expire_date=past)
    store = SessionStore(key)
    assert dict(store.items()) == {}
    assert store.session_key is None
    assert dict(DjangoStore(key).items()) == {}


def test_an_unknown_session_reads_as_none():
    store = SessionStore("x" * 32)
    assert dict(store.items()) == {}
    assert store.session_key is None


def test_a_logged_in_member_stays_logged_in_and_is_out_once_his_session_expires(client):
    user = get_user_model().objects.create_user("membre-session")
    client.force_login(user)
    assert client.get("/compte/resultats/").status_code == 200
    Session.objects.update(expire_date=timezone.now() - datetime.timedelta(seconds=1))
    response = client.get("/compte/resultats/")
    assert response.status_code == 302


@pytest.mark.parametrize("key", ["abc\x00defghij", "ABCDEFGHIJKL", "abc def ghij"])
def test_a_cookie_django_never_wrote_names_no_session(client, key):
    client.cookies[settings.SESSION_COOKIE_NAME] = key
    store = SessionStore(key)
    assert dict(store.items()) == {}
    assert store.session_key is None
    assert client.get("/").status_code == 200
    assert client.get("/compte/resultats/").status_code == 302
