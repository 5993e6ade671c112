"""The OpenAPI schema's finishing touch: each path parameter described once, with an example
from the demo club (manage.py demo_club), which the docs' "Try it out" and CI's schemathesis
run start from."""

from __future__ import annotations

from typing import Any

PATH_PARAMETERS = {
    "slug": ("The club's identifier (``slug`` of GET /api/v1/clubs/).", "rcwhist-la-chevalerie"),
    "season": ("The season's identifier (``slug`` of its seasons' list).", "2025"),
    "federation": (
        "The federation's identifier (``slug`` of GET /api/v1/federations/).",
        "ligue-belge-de-whist",
    ),
    "id": ("The number on the site of the night (or player) named by the path.", "1"),
    "round": ("The round's number (1 …).", "2"),
    "poule_pk": ("The poule's number on the site (``id`` in the night's ``poules``).", "1"),
    "deal_pk": ("The deal's number on the site (``id`` in its poule's ``deals``).", "1"),
}


def describe_path_parameters(result: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    for operations in result.get("paths", {}).values():
        for operation in operations.values():
            for parameter in operation.get("parameters", []):
                known = PATH_PARAMETERS.get(parameter["name"])
                if parameter.get("in") == "path" and known is not None:
                    parameter.setdefault("description", known[0])
                    parameter.setdefault("example", known[1])
    return result
