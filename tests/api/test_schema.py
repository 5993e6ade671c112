"""The OpenAPI schema as the tools that read it see it: a valid OpenAPI 3.0 document, every
example valid against its schema, a 401 wherever a token is taken, a nullable enum that takes
null; the site's real answers (200, 201, 400, 401, 403, 404, 409) valid against it
(openapi-core); and a client generated from it (openapi-python-client) that sends the site's
own night export back."""

from __future__ import annotations

import importlib
import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from django.test import Client
from drf_spectacular.generators import SchemaGenerator
from drf_spectacular.renderers import OpenApiJsonRenderer
from openapi_core import OpenAPI
from openapi_core.testing import MockRequest, MockResponse
from openapi_schema_validator import OAS30Validator
from openapi_spec_validator import validate as validate_spec

from club.tokens import token_create
from games.models import Tournament
from scoring.services import ranking_publish, tournament_publish

pytestmark = pytest.mark.django_db

API = "/api/v1/clubs/rcwhist"


@pytest.fixture(scope="module")
def schema() -> dict[str, Any]:
    generated = SchemaGenerator().get_schema(request=None, public=True)
    return json.loads(OpenApiJsonRenderer().render(generated))


def operations(schema: dict[str, Any]) -> Iterator[tuple[str, str, dict[str, Any]]]:
    for path, methods in schema["paths"].items():
        for method, operation in methods.items():
            yield method, path, operation


def valid(schema: dict[str, Any], part: dict[str, Any], value: Any) -> list[str]:
    """What is wrong with ``value`` against ``part`` (a schema of the document, its
    ``$ref``s read in the document's components)."""
    validator = OAS30Validator({**part, "components": schema["components"]})
    return [error.message for error in validator.iter_errors(value)]


# The document --------------------------------------------------------------------------------


def test_the_schema_is_a_valid_openapi_3_0_document(schema):
    assert schema["openapi"].startswith("3.0.")
    validate_spec(schema)


def test_every_operation_that_takes_a_token_documents_its_401(schema):
    taking = [
        (method, path, operation)
        for method, path, operation in operations(schema)
        if any("personalToken" in way for way in operation.get("security", []))
    ]
    assert len(taking) > 25
    for method, path, operation in taking:
        assert "401" in operation["responses"], (method, path)
        assert operation["responses"]["401"]["content"]["application/json"]["schema"] == {
            "$ref": "#/components/schemas/Detail"
        }


def test_every_example_is_valid_against_its_schema(schema):
    checked = 0
    for method, path, operation in operations(schema):
        for parameter in operation.get("parameters", []):
            if "example" in parameter:
                assert not valid(schema, parameter["schema"], parameter["example"]), parameter
                checked += 1
        bodies = [operation.get("requestBody", {}), *operation["responses"].values()]
        for body in bodies:
            for media in body.get("content", {}).values():
                for name, example in media.get("examples", {}).items():
                    problems = valid(schema, media["schema"], example["value"])
                    assert not problems, (method, path, name, problems)
                    checked += 1

    def inline_examples(node: Any) -> Iterator[tuple[dict[str, Any], Any]]:
        if isinstance(node, dict):
            if "example" in node and "type" in node:
                yield node, node["example"]
            for value in node.values():
                yield from inline_examples(value)
        elif isinstance(node, list):
            for item in node:
                yield from inline_examples(item)

    for part, example in inline_examples(schema["components"]):
        assert not valid(schema, part, example), (part, example)
        checked += 1
    assert checked > 40


def test_a_nullable_enum_takes_null_as_openapi_3_0_reads_it(schema):
    reply = {"$ref": "#/components/schemas/ReplyRequest"}
    assert not valid(schema, reply, {"answer": None})
    assert not valid(schema, reply, {"answer": "maybe"})
    assert valid(schema, reply, {"answer": "perhaps"})
    assert "NullEnum" not in json.dumps(schema)


def test_the_night_import_body_describes_the_sites_own_export(
    schema, client, imported_night, scorer
):
    client.force_login(scorer)
    exported = client.get(f"{API}/nights/{imported_night.pk}/export/").json()
    body = schema["paths"]["/api/v1/clubs/{slug}/nights/import/"]["post"]["requestBody"]

    assert isinstance(exported["rules"], str) and "players" in exported
    assert not valid(schema, body["content"]["application/json"]["schema"], exported)
    assert not valid(schema, {"$ref": "#/components/schemas/NightFile"}, exported)


# The site's real answers against it (openapi-core) -----------------------------------------


def token_of(user: Any) -> str:
    return "Token " + token_create(user, "schéma")[1]


def answer_checked(openapi: OpenAPI, method: str, path: str, response: Any) -> None:
    request = MockRequest("http://testserver", method, path)
    content_type = response.get("Content-Type", "application/json").split(";")[0]
    openapi.validate_response(
        request, MockResponse(response.content, response.status_code, content_type=content_type)
    )


def test_the_sites_answers_are_valid_against_the_schema(
    schema, imported_night, scorer, club_admin, member, outsider
):
    openapi = OpenAPI.from_dict(schema)
    night = f"{API}/nights/{imported_night.pk}"
    exported = Client(HTTP_AUTHORIZATION=token_of(scorer)).get(f"{night}/export/").json()
    tournament_publish(imported_night)
    ranking_publish(imported_night.season)
    body = json.dumps(exported)
    asked = [
        # (who, method, path, body, the status the site answers)
        (None, "get", "/api/v1/clubs/", None, 200),
        (None, "get", f"{API}/", None, 200),
        (None, "get", f"{API}/nights/", None, 200),
        (None, "get", f"{night}/", None, 200),
        (None, "get", f"{night}/export/", None, 200),
        (None, "get", f"{API}/seasons/", None, 200),
        (None, "get", f"{API}/seasons/2024/ranking/", None, 200),
        (None, "get", f"{API}/players/", None, 200),
        (member, "get", "/api/v1/me/", None, 200),
        (member, "get", "/api/v1/me/results/", None, 200),
        ("Token cw_not-a-key", "get", "/api/v1/clubs/", None, 401),
        (None, "post", f"{API}/nights/import/", body, 401),
        (None, "get", "/api/v1/me/", None, 401),
        (member, "post", f"{API}/nights/import/", body, 403),
        (member, "post", f"{night}/close/", "{}", 403),
        (outsider, "post", f"{API}/nights/import/", body, 404),
        (None, "get", f"{API}/nights/{imported_night.pk + 1000}/", None, 404),
        (None, "get", "/api/v1/clubs/no-such-club/", None, 404),
        (club_admin, "post", f"{API}/nights/import/", body, 409),
        (club_admin, "post", f"{API}/nights/import/", json.dumps({**exported, "club": "X"}), 400),
    ]
    for who, method, path, data, status in asked:
        headers = {}
        if who is not None:
            headers["HTTP_AUTHORIZATION"] = who if isinstance(who, str) else token_of(who)
        kwargs = {"data": data, "content_type": "application/json"} if data is not None else {}
        response = getattr(Client(**headers), method)(path, **kwargs)
        assert response.status_code == status, (method, path, response.content[:300])
        answer_checked(openapi, method, path, response)


# A client generated from it (openapi-python-client) -----------------------------------------


META = ("--meta", "none")  # the package alone, no pyproject of its own


def generated_client(schema: dict[str, Any], folder: Path) -> Any:
    """The client openapi-python-client generates from the schema, imported."""
    (folder / "schema.json").write_text(json.dumps(schema))
    command = Path(sys.executable).with_name("openapi-python-client")
    package = folder / "whist_api_client"
    subprocess.run(
        [command, "generate", "--path", folder / "schema.json", "--output-path", package, *META],
        check=True,
        capture_output=True,
    )
    sys.path.insert(0, str(folder))
    try:
        return importlib.import_module("whist_api_client")
    finally:
        sys.path.remove(str(folder))


def through_django(request: httpx.Request) -> httpx.Response:
    """The generated client's requests answered by the site in this test's database."""
    headers = {key: value for key, value in request.headers.items() if key != "content-type"}
    response = Client().generic(
        request.method,
        str(request.url.raw_path, "ascii"),
        data=request.content,
        content_type=request.headers.get("content-type", ""),
        headers=headers,
    )
    return httpx.Response(
        response.status_code, headers=dict(response.items()), content=b"".join(response)
    )


def test_a_client_generated_from_the_schema_sends_the_sites_export_back(
    schema, tmp_path, imported_night, club_admin
):
    generated = generated_client(schema, tmp_path)
    api = importlib.import_module("whist_api_client.api.nights.clubs_nights_export_retrieve")
    importing = importlib.import_module("whist_api_client.api.scoring.clubs_nights_import_create")
    models = importlib.import_module("whist_api_client.models")
    client = generated.AuthenticatedClient(
        base_url="http://testserver",
        token=token_of(club_admin).split()[1],
        prefix="Token",
        httpx_args={"transport": httpx.MockTransport(through_django)},
    )

    answer = api.sync_detailed(client=client, slug="rcwhist", id=imported_night.pk)
    assert answer.status_code == 200, answer.content
    exported = answer.parsed
    assert isinstance(exported, models.NightFile)
    assert exported.rules == "rcwhist" and exported.players
    # The export read by the client is sent back as the import's body, as it is.
    body = models.NightFileRequest.from_dict(exported.to_dict())
    again = importing.sync_detailed(client=client, slug="rcwhist", body=body)
    assert again.status_code == 409  # the same night, already there
    poules = imported_night.poules.count()
    Tournament.objects.filter(pk=imported_night.pk).delete()

    created = importing.sync_detailed(client=client, slug="rcwhist", body=body)

    assert created.status_code == 201, created.content
    assert created.parsed.date == imported_night.date
    restored = Tournament.objects.get(pk=created.parsed.id)
    assert restored.poules.count() == poules == 6
    back = api.sync(client=client, slug="rcwhist", id=restored.pk)
    assert back.standings == exported.standings
