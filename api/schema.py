"""The OpenAPI schema's finishing touches: each path parameter described once, with an example
from the demo club (manage.py demo_club), which the docs' "Try it out" and CI's schemathesis
run start from; the 401 of every operation that takes a token; nullable enums as OpenAPI 3.0
reads them."""

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
                    example = path_example_typed(known[1], parameter.get("schema", {}))
                    parameter.setdefault("example", example)
    return result


def path_example_typed(value: str, schema: dict[str, Any]) -> Any:
    # An example must be valid against its parameter's schema: "1" is not an integer.
    return int(value) if schema.get("type") == "integer" else value


TOKEN_REFUSED = {
    "description": (
        "The token is unknown, revoked or malformed (``Authorization: Token <key>``), or "
        "the operation needs a login and none was sent."
    ),
    "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Detail"}}},
}


def document_token_refusals(result: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    """A 401 on every operation that takes a personal token: a wrong or revoked token is
    refused before anything else, on the public reads too (``api.authentication``)."""
    for operations in result.get("paths", {}).values():
        for operation in operations.values():
            if any("personalToken" in way for way in operation.get("security", [])):
                operation["responses"].setdefault("401", TOKEN_REFUSED)
    return result


def nullable_enums_inlined(result: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    """OpenAPI 3.0 reads ``nullable`` only beside a ``type`` in the same schema object:
    spectacular's ``{"nullable": true, "oneOf": [{"$ref": AnswerEnum}, {"$ref": NullEnum}]}``
    refuses the null it means to allow (NullEnum has no type). Each such field becomes the
    enum inline, its values and null, ``nullable`` beside its ``type``, as 3.0.3 says."""
    schemas = result.get("components", {}).get("schemas", {})

    def inlined(node: Any) -> Any:
        if isinstance(node, list):
            return [inlined(item) for item in node]
        if not isinstance(node, dict):
            return node
        refs = [part.get("$ref", "") for part in node.get("oneOf", [])]
        if node.get("nullable") and refs and refs[-1].endswith("/NullEnum"):
            enum = schemas[refs[0].rsplit("/", 1)[1]]
            rest = {k: v for k, v in node.items() if k not in ("oneOf", "nullable")}
            return {**enum, **rest, "enum": [*enum["enum"], None], "nullable": True}
        return {key: inlined(value) for key, value in node.items()}

    result["paths"] = inlined(result.get("paths", {}))
    result["components"]["schemas"] = inlined(schemas)
    null_enum = result["components"]["schemas"].pop("NullEnum", None)
    if null_enum is not None and "/NullEnum" in str(result):
        result["components"]["schemas"]["NullEnum"] = null_enum  # still named somewhere
    return result
