"""The cache is an optimisation, never a dependency (infra/cache.py): with the cache's Redis
gone, every published page and API answer is drawn from the database, and /healthz says
"cache down" without failing."""

from __future__ import annotations

import socket

import pytest
from django.core.cache import cache
from django.urls import reverse

from infra import cache as fail_safe
from scoring.services import ranking_publish, tournament_publish

pytestmark = pytest.mark.django_db


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture
def dead_redis(settings):
    """A Redis cache at an address where nothing listens, as when Redis has stopped."""
    settings.CACHES = {
        "default": {
            "BACKEND": "infra.cache.FailSafeRedisCache",
            "LOCATION": f"redis://127.0.0.1:{free_port()}/1",
            "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5},
        }
    }
    fail_safe._outage.update(since=None, retry_at=0.0)
    yield
    fail_safe._outage.update(since=None, retry_at=0.0)


@pytest.fixture
def published_night(imported_night):
    tournament_publish(imported_night)
    ranking_publish(imported_night.season)
    imported_night.refresh_from_db()
    return imported_night


def published_pages(night):
    club = night.club.slug
    player = night.standings.first().player_id
    return [
        reverse("ranking", args=[club]),
        reverse("ranking-season", args=[club, night.season.slug]),
        reverse("ranking-archive", args=[club]),
        reverse("games:results", args=[club, night.pk]),
        reverse("player", args=[club, player]),
        reverse("api:ranking", kwargs={"slug": club, "season": night.season.slug}),
        reverse("api:player", kwargs={"slug": club, "pk": player}),
    ]


def test_published_pages_are_drawn_from_the_database_when_the_cache_is_gone(
    client, published_night, dead_redis, caplog
):
    for path in published_pages(published_night):
        for _visit in range(2):  # the first finds the outage, the second skips the cache
            response = client.get(path)
            assert response.status_code == 200, path
    assert fail_safe.cache_down_since() is not None
    # Logged once for the whole outage, not once per page.
    outages = [r for r in caplog.records if r.name == "infra.cache" and "down" in r.getMessage()]
    assert len(outages) == 1


def test_a_members_own_results_are_drawn_without_the_cache(
    client, published_night, member, dead_redis
):
    client.force_login(member)
    assert client.get(reverse("my-results")).status_code == 200
    api = client.get(reverse("api:my-results"))
    assert api.status_code == 200


def test_the_throttles_of_the_api_let_requests_through_without_the_cache(
    client, published_night, dead_redis
):
    path = reverse("api:ranking", kwargs={"slug": published_night.club.slug, "season": "2024"})
    assert all(client.get(path).status_code in {200, 404} for _ in range(3))


def test_healthz_says_the_cache_is_down_and_still_answers_200(client, db, dead_redis):
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json()["cache"] == "down"
    assert response.json()["database"] == "ok"


def test_a_cache_that_answers_again_is_used_again(settings, dead_redis, monkeypatch):
    cache.set("k", 1)
    assert fail_safe.cache_down_since() is not None
    monkeypatch.setattr(fail_safe, "RETRY_SECONDS", 0.0)
    fail_safe._outage.update(retry_at=0.0)
    settings.CACHES = {
        "default": {
            "BACKEND": "infra.cache.FailSafeRedisCache",
            "LOCATION": "redis://127.0.0.1:6379/9",
        }
    }
    try:
        cache.set("k", 1)
    except Exception:  # pragma: no cover - no Redis on this machine
        pytest.skip("no Redis at 127.0.0.1:6379")
    if fail_safe.cache_down_since() is not None:
        pytest.skip("no Redis at 127.0.0.1:6379")
    assert cache.get("k") == 1
    cache.delete("k")
