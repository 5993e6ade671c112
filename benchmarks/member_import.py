"""``manage.py bench members``: a club admin brings 40 members from an Excel file, through the
site's three pages and its confirmation, as the browser does it: each step's wall time and
queries (median of the runs, each into a new club). The confirmation's request stores the
members and queues their invitations; the outbox's task then sends them (on a worker, or in
the request's process on a site without a broker): timed apart."""

from __future__ import annotations

import io
import statistics
from collections.abc import Callable
from typing import Any
from unittest import mock

from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.test.utils import override_settings
from django.urls import reverse
from openpyxl import Workbook

from club.member_import.invitations import member_invitations_send
from club.models import MemberImport

from . import data
from .timing import timed

FIRST = ["Anne", "Bruno", "Chloé", "Didier", "Éva", "François", "Geneviève", "Henri"]


def workbook(count: int) -> bytes:
    """A club's members sheet: name, family name, address (every fifth has none), phone,
    initials only (every seventh)."""
    book = Workbook()
    sheet = book.active
    sheet.append(["Prénom", "Nom", "E-mail", "GSM", "Initiales seulement"])
    for n in range(count):
        email = "" if n % 5 == 4 else f"membre{n}@example.org"
        sheet.append([FIRST[n % 8], f"Membre {n:03d}", email, f"0470 {n:06d}", n % 7 == 6])
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def _steps(client: Client, slug: str, file: bytes) -> list[tuple[str, Callable[[], Any]]]:
    def post(name: str, payload: dict[str, Any]) -> Callable[[], Any]:
        return lambda: client.post(reverse(name, args=[slug]), payload)

    columns = {"header": "on", "first_name": 0, "last_name": 1, "email": 2, "phone": 3}
    return [
        ("the file read", post("member-import", {"file": SimpleUploadedFile("m.xlsx", file)})),
        ("its columns", post("member-import-columns", {**columns, "initials": 4})),
        ("the lines to check", lambda: client.get(reverse("member-import-review", args=[slug]))),
        ("confirmed (one transaction)", post("member-import-review", {})),
    ]


def members(write: Callable[[str], None], count: int = 40, runs: int = 5) -> None:
    file = workbook(count)
    measured: dict[str, list[tuple[float, int]]] = {}
    with override_settings(EMAIL_BACKEND="django.core.mail.backends.locmem.EmailBackend"):
        for run in range(runs):
            club, user, _members = data.scorer_club(players=1, slug=f"import-{run}")
            club.memberships.update(role="admin")
            client = Client()
            client.force_login(user)
            # The task is left to its own line: the request only queues it.
            with mock.patch("infra.outbox._send", return_value=False):
                for step, call in _steps(client, club.slug, file):
                    elapsed, queries, answer = timed(call)
                    if answer.status_code not in (200, 302):
                        raise RuntimeError(f"{step}: status {answer.status_code}")
                    measured.setdefault(step, []).append((elapsed, queries))
            record = MemberImport.objects.get(club=club)
            elapsed, queries, sent = timed(lambda r=record: member_invitations_send(r.pk))
            measured.setdefault(f"the task: {sent} invitations", []).append((elapsed, queries))
            if club.memberships.count() != count + 1:
                raise RuntimeError("the members were not all imported")
    write(f"{count} members from an Excel file, median of {runs} runs:")
    total = 0.0
    for step, values in measured.items():
        median = statistics.median(value[0] for value in values)
        total += median
        write(f"  {step:<30} {median:8.1f} ms  {values[-1][1]:4d} queries")
    write(f"  {'all of it':<30} {total:8.1f} ms")
