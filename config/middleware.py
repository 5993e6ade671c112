"""What the site adds to every answer of its pages, and how it answers when its database
connection drops."""

from __future__ import annotations

import contextlib
import logging
import sys
import threading
from collections.abc import Callable
from typing import Any

from django.core.signals import got_request_exception
from django.db import Error, InterfaceError, OperationalError, connection, transaction
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.translation import gettext as _

from front.views.errors import bad_request, database_unreachable, method_not_allowed
from infra.login_stamp import login_stamp
from infra.site_address import origin_of, served_from

logger = logging.getLogger(__name__)


class SiteOrigin:
    """Links written while a request is answered (its e-mails, feeds, QR codes, and the work
    it queues) go where that request came to, not to ``SITE_URL`` (``infra.site_address``)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        with served_from(origin_of(request)):
            return self.get_response(request)


class NotAllowedPage:
    """A page's POST-only address reached by GET answers the site's page with a way back
    (Django's own 405 is blank). The API keeps its JSON answers."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if (
            response.status_code == 405
            and not request.path.startswith("/api/")
            and not response.content
        ):
            return method_not_allowed(request, response.get("Allow", ""))
        return response


class LoginStampHeader:
    """Each page says who it was made for (header ``X-Viewer``): the service worker keeps a
    score sheet for that viewer only, and drops it when another login shows up on the phone
    (templates/front/offline/sw.js)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if response.get("Content-Type", "").startswith("text/html"):
            response["X-Viewer"] = login_stamp(request)
        return response


class KeptCopyLeavesCookies:
    """The service worker fetching a sheet to keep its copy (header ``X-Sheet-Copy``) must not
    change the phone's cookies behind the page's back: a new CSRF cookie would no longer match
    the token of the page the scorer is using. Placed first, so it sees the cookies the other
    middleware set."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if request.headers.get("X-Sheet-Copy") == "1":
            response.cookies.clear()
        return response


def nul_in_query(request: HttpRequest) -> str | None:
    """The name of the first query parameter whose name or value holds a NUL character, or
    None. (The path is the URL converters': a NUL matches no slug nor number, a 404, and the
    tokens of links are hashed before any query.)"""
    for name, values in request.GET.lists():
        if "\x00" in name or any("\x00" in value for value in values):
            return name
    return None


class NulInQueryRefused:
    """No name, search or filter of the site holds a NUL character, and PostgreSQL refuses one
    in text (a search with ``?q=%00`` was a 500): a query parameter holding one, in its name
    or its value, is answered 400 in words before any view reads it — the site's page in the
    reader's language, the API's ``detail`` and ``problems`` under ``/api/``. Decided here
    once for every page and every list's filter; a form's body stays its form's, whose
    fields refuse NUL in their own words. Placed last, so the answer gets every header."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        place = nul_in_query(request)
        if place is None:
            return self.get_response(request)
        shown = place.replace("\x00", "\u2400")[:40]  # ␀: the NUL made visible
        message = _(
            "Le caractère nul n’est pas autorisé dans l’adresse : le paramètre "
            "« %(name)s » en contient un."
        ) % {"name": shown}
        if request.path.startswith("/api/"):
            problem = {"code": "nul_character", "place": place, "message": message}
            body = {"detail": message, "problems": [problem]}
            # As the API writes its answers: UTF-8 text, not \u escapes.
            return JsonResponse(body, status=400, json_dumps_params={"ensure_ascii": False})
        return bad_request(request, message).render()


class _RequestWrites:
    """An execute wrapper for one request's statements: whether a write of the request is
    committed already (a statement outside a transaction, or a transaction's once it
    commits): answering the request again would write it twice."""

    def __init__(self) -> None:
        self.committed = False

    def _commit_seen(self) -> None:
        self.committed = True

    def __call__(self, execute: Callable, sql: Any, params: Any, many: bool, context: dict) -> Any:
        result = execute(sql, params, many, context)
        if not str(sql).lstrip()[:6].upper() == "SELECT":
            db = context["connection"]
            if db.in_atomic_block:  # written only if the transaction commits
                transaction.on_commit(self._commit_seen, using=db.alias)
            else:
                self.committed = True
        return result


# The request of this thread that failed on the database's connection (a statement, a cursor,
# a commit, a connection refused), noted as Django handles its exception: by the time the
# middleware sees the answer, it is a 500 page and the exception is gone.
_connection_failed = threading.local()


def _connection_failure_noted(
    sender: Any, request: HttpRequest | None = None, **kwargs: Any
) -> None:
    if isinstance(sys.exc_info()[1], (OperationalError, InterfaceError)):
        _connection_failed.request = request


got_request_exception.connect(_connection_failure_noted, dispatch_uid="connection-failure-noted")


def database_answers() -> bool:
    """Whether the database answers now: the thread's connection if it still works, else a new
    one (the dead one dropped)."""
    if connection.connection is not None and connection.is_usable():
        return True
    with contextlib.suppress(Error):
        connection.close()
    try:
        connection.ensure_connection()
    except Error:
        return False
    return connection.is_usable()


class DatabaseDropRetried:
    """A connection PostgreSQL dropped in the middle of a request (a restart, a failover, an
    administrator's ``pg_terminate_backend``) is not the reader's failure: the request is
    answered again once on a new connection, when nothing of it was committed (its
    transaction was rolled back with the connection; a deal's key keeps it once anyway).
    While the database does not answer at all, the answer is 503 with ``Retry-After``, not
    500. (A connection dropped between requests is replaced before the next one:
    ``CONN_HEALTH_CHECKS`` in the settings.) Placed before the middleware that read the
    database (the session, the user), so that they are run again too."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        for attempt in (1, 2):
            writes = _RequestWrites()
            _connection_failed.request = None
            with connection.execute_wrapper(writes):
                response = self.get_response(request)
            failed = _connection_failed.request is request
            _connection_failed.request = None
            if response.status_code != 500 or not failed:
                return response  # not the database's connection
            if not database_answers():
                return database_unreachable(request)
            if attempt == 2 or writes.committed:
                return response
            logger.warning(
                "database connection dropped during %s %s: answered again",
                request.method,
                request.path,
            )
        return response
