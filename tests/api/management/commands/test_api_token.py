"""``manage.py api_token`` prints a key that signs API requests in."""

import io

import pytest
from django.core.management import CommandError, call_command
from rest_framework.test import APIClient


@pytest.mark.django_db
def test_api_token_prints_a_working_key(member):
    out = io.StringIO()
    call_command("api_token", member.username, "--name", "outil", stdout=out)
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {out.getvalue().strip()}")
    assert api.get("/api/v1/me/").status_code == 200
    with pytest.raises(CommandError):
        call_command("api_token", "personne", stdout=io.StringIO())
