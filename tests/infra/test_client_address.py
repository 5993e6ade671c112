"""One client address for the whole site: behind the site's own proxies, the address the first
of them saw (not the proxy's, which every visitor shares), counted alike by the login, the
password reset and the API; without a proxy, the connection's, whatever the client writes."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from infra import throttle
from infra.client_address import address_seen
from tests.api.test_urls import API
from tests.config.test_settings import SETUP, run_with
from tests.factories import PASSWORD

PROXY = "127.0.0.1"  # nginx on the same machine, as deploy/nginx.conf
ANNE = "198.51.100.1"
BRUNO = "198.51.100.2"


@pytest.mark.parametrize(
    ("remote", "forwarded", "proxies", "client"),
    [
        # No proxy trusted: the header is the client's own writing.
        ("192.0.2.9", "198.51.100.1", 0, "192.0.2.9"),
        # One proxy (nginx's $proxy_add_x_forwarded_for): the rightmost, what it saw.
        (PROXY, "198.51.100.1", 1, "198.51.100.1"),
        (PROXY, "10.0.0.1, 10.0.0.2,198.51.100.1", 1, "198.51.100.1"),
        # Two (compose's TLS proxy, then its balancer): the second from the right.
        ("172.18.0.5", "10.0.0.1, 198.51.100.1, 172.18.0.1", 2, "198.51.100.1"),
        # Fewer addresses than proxies: not through them all, the connection's own.
        (PROXY, "", 1, PROXY),
        ("172.18.0.5", "198.51.100.1", 2, "172.18.0.5"),
        # What is no address is not taken for one.
        (PROXY, "10.0.0.1, unknown", 1, PROXY),
        (PROXY, "198.51.100.1\x00", 1, PROXY),
        # One address, written one way (IPv6 has several).
        (PROXY, "2001:DB8:0:0::1", 1, "2001:db8::1"),
        ("", "", 0, "?"),
    ],
)
def test_the_client_is_the_address_the_first_trusted_proxy_saw(remote, forwarded, proxies, client):
    assert address_seen(remote, forwarded, proxies) == client


def through_proxy(client, forwarded):
    """A client behind deploy/nginx.conf: the connection is nginx's, the header its append."""
    client.defaults.update(REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR=forwarded)
    return client


def log_in(client, username, password):
    return client.post(reverse("login"), {"username": username, "password": password})


def signed_in(client) -> bool:
    return "_auth_user_id" in client.session


@pytest.mark.django_db
def test_two_clients_behind_one_proxy_are_locked_out_of_the_login_each_alone(member, settings):
    settings.TRUSTED_PROXY_COUNT = 1
    anne, bruno = Client(), through_proxy(Client(), BRUNO)
    # Anne guesses many accounts, writing a new address of her own before nginx's each time.
    for n in range(throttle.LOGIN_ADDRESS.attempts):
        through_proxy(anne, f"203.0.113.{n}, {ANNE}")
        assert log_in(anne, f"inconnu-{n}", "mauvais").status_code == 200

    log_in(anne, "membre", PASSWORD)
    log_in(bruno, "membre", PASSWORD)

    assert not signed_in(anne)
    assert signed_in(bruno)


@pytest.mark.django_db
def test_without_a_trusted_proxy_a_forged_x_forwarded_for_escapes_no_lock(member, settings):
    settings.TRUSTED_PROXY_COUNT = 0
    guesser = Client(REMOTE_ADDR="192.0.2.50")
    for n in range(throttle.LOGIN_ADDRESS.attempts):
        guesser.defaults["HTTP_X_FORWARDED_FOR"] = f"198.51.100.{n}"
        log_in(guesser, f"inconnu-{n}", "mauvais")

    guesser.defaults["HTTP_X_FORWARDED_FOR"] = "198.51.100.200"
    log_in(guesser, "membre", PASSWORD)

    assert not signed_in(guesser)


@pytest.mark.django_db
def test_password_reset_emails_are_rationed_per_client_behind_the_proxy(
    member, settings, mailoutbox
):
    settings.TRUSTED_PROXY_COUNT = 1
    anne, bruno = through_proxy(Client(), ANNE), through_proxy(Client(), BRUNO)
    for n in range(throttle.RESET_ADDRESS.attempts):
        anne.post(reverse("password_reset"), {"email": f"oubli{n}@example.org"})

    anne.post(reverse("password_reset"), {"email": member.email})
    bruno.post(reverse("password_reset"), {"email": member.email})

    assert [message.to for message in mailoutbox] == [[member.email]]  # Bruno's only


@pytest.fixture
def tight(settings) -> None:
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"anon": "3/min", "token": "3/min", "failed_token": "3/min"},
    }


@pytest.mark.django_db
def test_the_apis_public_budget_is_the_clients_behind_the_proxy_as_the_logins(
    club, settings, tight
):
    settings.TRUSTED_PROXY_COUNT = 1  # the one setting: DRF's NUM_PROXIES is left as it was
    anne = through_proxy(APIClient(), ANNE)
    assert [anne.get(f"{API}/clubs/").status_code for _ in range(4)] == [200, 200, 200, 429]

    assert through_proxy(APIClient(), BRUNO).get(f"{API}/clubs/").status_code == 200


@pytest.mark.django_db
def test_the_apis_refused_keys_are_counted_per_client_behind_the_proxy(club, settings, tight):
    settings.TRUSTED_PROXY_COUNT = 1
    anne, bruno = through_proxy(APIClient(), ANNE), through_proxy(APIClient(), BRUNO)
    for caller in (anne, bruno):
        caller.credentials(HTTP_AUTHORIZATION="Token cw_guessed")

    assert [anne.get(f"{API}/clubs/").status_code for _ in range(4)] == [401, 401, 401, 429]
    assert bruno.get(f"{API}/clubs/").status_code == 401  # refused, not yet throttled


def trusted_proxies_with(environment):
    code = SETUP + (
        "; from django.conf import settings; "
        "print(settings.TRUSTED_PROXY_COUNT, settings.REST_FRAMEWORK['NUM_PROXIES'])"
    )
    return run_with({"DJANGO_SECRET_KEY": "a-test-key", **environment}, code)


@pytest.mark.parametrize(
    ("environment", "read"),
    [
        ({}, "0 0"),
        ({"DJANGO_TRUSTED_PROXY_COUNT": "1"}, "1 1"),
        # The former name still works, and the new one wins over it.
        ({"API_NUM_PROXIES": "2"}, "2 2"),
        ({"DJANGO_TRUSTED_PROXY_COUNT": "1", "API_NUM_PROXIES": "2"}, "1 1"),
    ],
)
def test_one_setting_counts_the_trusted_proxies_for_the_site_and_the_api(environment, read):
    result = trusted_proxies_with(environment)

    assert result.stdout.split() == read.split(), result.stderr


def test_a_count_of_proxies_that_is_no_number_stops_the_site_in_words():
    result = trusted_proxies_with({"DJANGO_TRUSTED_PROXY_COUNT": "nginx"})

    assert result.returncode != 0
    assert "DJANGO_TRUSTED_PROXY_COUNT is a number of proxies" in result.stderr
