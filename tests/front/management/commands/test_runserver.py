"""``runserver`` says at start when it listens at another address than SITE_URL (the links
of work without a request go there), and nothing when they agree."""

from __future__ import annotations

import pytest
from django.core.management import get_commands

from front.management.commands.runserver import site_url_warning


def test_the_sites_runserver_is_the_one_run():
    assert get_commands()["runserver"] == "front"


@pytest.mark.parametrize(
    ("site_url", "addr", "port", "warned"),
    [
        ("http://127.0.0.1:8000", "127.0.0.1", "8000", False),
        ("http://127.0.0.1:8000", "localhost", "8000", False),
        ("http://127.0.0.1:8000", "0.0.0.0", "8000", False),
        ("http://127.0.0.1:8000", "127.0.0.1", "8001", True),
        ("http://127.0.0.1:8000", "192.168.1.10", "8000", True),
        ("http://club.example", "192.168.1.10", "80", True),
        ("https://club.example", "club.example", "443", False),
    ],
)
def test_a_word_when_the_server_listens_elsewhere(settings, site_url, addr, port, warned):
    settings.SITE_URL = site_url
    warning = site_url_warning(addr, port)
    assert (warning is not None) == warned
    if warned:
        assert f"SITE_URL is {site_url}, but this server listens at {addr}:{port}" in warning
