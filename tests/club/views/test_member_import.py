"""A club admin brings his members from a spreadsheet through three pages: the table (Excel,
CSV or pasted), its columns, then each line as it will be stored. A table with a bad line is
refused whole, naming the lines, unless he ticks « importer les lignes correctes seulement »;
confirmed, the players, their memberships and their invitations are made in one go."""

from __future__ import annotations

import datetime
import io
import re
from smtplib import SMTPException

import pytest
from django.core import mail
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from openpyxl import Workbook

from club import invitations
from club.member_import.invitations import member_invitations_send
from club.member_import.lines import MemberLine
from club.member_import.store import MemberEntry, members_import
from club.models import Invitation, MemberImport, Membership, Player
from infra.models import PendingWork
from tests.conftest import persona
from tests.factories import PASSWORD, ClubFactory, PlayerFactory, UserFactory

HEADER = ["Prénom", "Nom", "E-mail", "GSM", "Initiales seulement"]
FIRST = ["Anne", "Bruno", "Chloé", "Didier", "Éva", "François", "Geneviève", "Henri"]
LAST = ["Maes", "Peeters", "Janssens", "Willems", "Claes"]


def members_rows(count: int) -> list[list[str]]:
    """``count`` members as a club's spreadsheet holds them: every fifth without an address,
    every seventh named by initials."""
    rows = [HEADER]
    for n in range(count):
        first, last = FIRST[n % len(FIRST)], f"{LAST[n % len(LAST)]}-{n // len(LAST)}"
        email = "" if n % 5 == 4 else f"membre{n}@example.org"
        rows.append([first, last, email, f"0470 00 {n:02d} 00", "oui" if n % 7 == 6 else ""])
    return rows


def xlsx_of(rows: list[list[str]]) -> bytes:
    workbook = Workbook()
    for row in rows:
        workbook.active.append(row)
    out = io.BytesIO()
    workbook.save(out)
    return out.getvalue()


def upload(client, club, name: str, data: bytes):
    return client.post(
        reverse("member-import", args=[club.slug]), {"file": SimpleUploadedFile(name, data)}
    )


def columns_confirmed(client, club):
    """The columns page as the headings propose it, confirmed."""
    url = reverse("member-import-columns", args=[club.slug])
    form = client.get(url).context["form"]
    data = {key: value for key, value in form.initial.items() if value is not None}
    data["header"] = "on" if data.pop("header") else ""
    return client.post(url, data)


def review(club) -> str:
    return reverse("member-import-review", args=[club.slug])


@pytest.fixture
def admin_client(client, club, club_admin):
    client.force_login(club_admin)
    return client


def test_forty_members_from_an_excel_file_are_members_and_invited_in_one_go(
    admin_client, club, django_capture_on_commit_callbacks
):
    assert upload(admin_client, club, "membres.xlsx", xlsx_of(members_rows(40))).status_code == 302
    assert columns_confirmed(admin_client, club).status_code == 302
    page = admin_client.get(review(club))
    assert page.context["counts"] == {"new": 40, "returns": 0, "member": 0, "ask": 0, "refused": 0}
    assert page.context["invited"] == 32
    with django_capture_on_commit_callbacks(execute=True):
        answer = admin_client.post(review(club))
    assert answer.status_code == 302 and answer.url == reverse("members", args=[club.slug])
    new = Player.objects.exclude(user__username="president")
    assert new.count() == 40
    assert Membership.objects.filter(club=club, player__in=new, end=None).count() == 40
    assert new.filter(public_name=Player.PublicName.INITIALS).count() == 5
    assert new.get(email="membre0@example.org").phone == "0470 00 00 00"
    # The invitations went through the outbox, each once, to those with an address.
    assert sorted(m.to[0] for m in mail.outbox) == sorted(
        f"membre{n}@example.org" for n in range(40) if n % 5 != 4
    )
    assert Invitation.objects.filter(club=club).count() == 32
    record = MemberImport.objects.get()
    assert (record.players_created, record.invitations, record.invitations_sent) == (40, [], 32)
    assert not PendingWork.objects.exists()
    members = admin_client.get(reverse("members", args=[club.slug]))
    assert "40 membres importés. 32 invitations partent par e-mail." in members.content.decode()


def test_a_bad_line_refuses_the_whole_file_naming_it_unless_the_good_lines_are_asked_for(
    admin_client, club
):
    rows = members_rows(6)
    rows[3][2] = "chloe.example.org"  # line 4: imported without its address, with a note
    rows[5][0] = rows[5][1] = ""  # line 6: no name
    rows[6][3] = "04 70 / douze"  # line 7: a telephone with letters
    upload(admin_client, club, "membres.xlsx", xlsx_of(rows))
    columns_confirmed(admin_client, club)
    refused = admin_client.post(review(club))
    assert refused.status_code == 400
    problems = refused.context["problems"]
    assert problems[0].startswith("Le fichier est refusé : les lignes 6, 7 ne peuvent pas")
    assert problems[1] == "Ligne 6 : le nom est vide."
    assert problems[2] == "Ligne 7 : « 04 70 / douze » n'est pas un numéro de téléphone."
    # The review says already what happens to the address.
    assert "adresse « chloe.example.org » laissée de côté" in refused.content.decode()
    assert Player.objects.count() == 1  # the admin only: nothing was written
    answer = admin_client.post(review(club), {"good_only": "1"})
    assert answer.url == reverse("member-import-done", args=[club.slug])
    assert Player.objects.count() == 1 + 4
    chloe = Player.objects.get(first_name="Chloé")
    assert chloe.email == ""

    # The confirmation names each line left out and why, and the member stored without.
    done = admin_client.get(answer.url)
    page = done.content.decode()
    assert "4 membres importés." in page
    assert "Ligne 6 : le nom est vide." in page
    assert "Ligne 7 : « 04 70 / douze » n&#x27;est pas un numéro de téléphone." in page
    assert "Ligne 4 (Chloé Janssens-0)" in page and "laissée de côté" in page

    # The lines left out come back as a table to fix: the table's columns, then why.
    table = admin_client.get(reverse("member-import-left", args=[club.slug]))
    assert table["Content-Type"].startswith("text/csv")
    lines = table.content.decode("utf-8-sig").splitlines()
    assert lines[0] == "Prénom;Nom;E-mail;GSM;Initiales seulement;Problème"
    assert lines[1] == ";;;0470 00 04 00;;Ligne 6 : le nom est vide."
    assert lines[2].startswith("François;Maes-1;membre5@example.org;04 70 / douze;;Ligne 7 : ")

    # Fixed, the file imports again: the problem column is left alone.
    fixed = table.content.decode("utf-8-sig").replace(";;;0470", "Éva;Claes-0;;0470")
    fixed = fixed.replace("04 70 / douze", "0470 00 05 00")
    upload(admin_client, club, "a-corriger.csv", fixed.encode("utf-8-sig"))
    columns_confirmed(admin_client, club)
    again = admin_client.post(review(club))
    assert again.url == reverse("members", args=[club.slug])
    assert Player.objects.count() == 1 + 6


def test_the_confirmation_and_its_table_are_the_club_admins_only(club, admin_client):
    member = PlayerFactory(club=club, user=UserFactory())
    client = Client()
    client.force_login(member.user)
    for name in ("member-import-done", "member-import-left"):
        assert client.get(reverse(name, args=[club.slug])).status_code == 403
        # Nothing waiting: the admin is sent to the members' list.
        assert admin_client.get(reverse(name, args=[club.slug])).status_code == 302


def test_an_unsure_name_is_asked_then_taken_as_the_admin_says(admin_client, club):
    aurore = PlayerFactory(
        first_name="Aurore", last_name="Vandamme", display_name="Aurore Vandamme", club=club
    )
    table = "Nom\tE-mail\nA. Vandamme\t\nBruno Lemaire\tbruno@example.org\n"
    admin_client.post(reverse("member-import", args=[club.slug]), {"pasted": table})
    columns_confirmed(admin_client, club)
    page = admin_client.get(review(club))
    assert "↔ Aurore Vandamme ?" in page.content.decode()
    unanswered = admin_client.post(review(club))
    assert unanswered.context["problems"] == [
        "Ligne 2 : « A. Vandamme » est-il Aurore Vandamme, ou un nouveau joueur ?"
    ]
    answer = admin_client.post(review(club), {"line-2": str(aurore.pk)})
    assert answer.status_code == 302
    # Aurore stays as she was; Bruno is new; nobody is called "A. Vandamme".
    assert not Player.objects.filter(display_name="A. Vandamme").exists()
    assert Player.objects.in_club(club).filter(display_name="Bruno Lemaire").exists()
    assert MemberImport.objects.get().players_created == 1


def test_an_answer_that_is_no_players_id_leaves_the_name_asked(admin_client, club):
    """« ² » is a digit to Python but no id: the line stays asked (never a 500)."""
    PlayerFactory(
        first_name="Aurore", last_name="Vandamme", display_name="Aurore Vandamme", club=club
    )
    table = "Nom\tE-mail\nA. Vandamme\t\nBruno Lemaire\tbruno@example.org\n"
    admin_client.post(reverse("member-import", args=[club.slug]), {"pasted": table})
    columns_confirmed(admin_client, club)
    for answer in ("²", "9" * 40):
        page = admin_client.post(review(club), {"line-2": answer})
        assert page.status_code == 400
        assert page.context["problems"] == [
            "Ligne 2 : « A. Vandamme » est-il Aurore Vandamme, ou un nouveau joueur ?"
        ]
    assert not MemberImport.objects.exists()


def test_a_french_excel_csv_is_read_as_the_ranking_import_reads_it(admin_client, club):
    data = "Nom;E-mail\r\nZoé Lefèvre;zoe@example.org\r\n".encode("cp1252")
    assert upload(admin_client, club, "membres.csv", data).status_code == 302
    columns_confirmed(admin_client, club)
    assert admin_client.post(review(club)).status_code == 302
    assert Player.objects.get(display_name="Zoé Lefèvre").email == "zoe@example.org"


def test_a_file_that_is_no_workbook_is_refused_by_the_workbook_budget(admin_client, club):
    answer = upload(admin_client, club, "membres.xlsx", b"PK\x03\x04 not a zip at all")
    assert answer.status_code == 400
    assert answer.context["form"].errors["__all__"] == ["Ce fichier Excel ne s'ouvre pas."]


def test_a_name_taken_meanwhile_refuses_the_whole_import_naming_the_line(club):
    entries = [
        MemberEntry(MemberLine(2, "Zoé Lefèvre", "Zoé", "Lefèvre", "", "", False)),
        MemberEntry(MemberLine(3, "Bruno Peeters", "Bruno", "Peeters", "", "", False)),
    ]
    PlayerFactory(display_name="BRUNO PEETERS", club=club)  # another admin, meanwhile
    with pytest.raises(ValidationError) as refused:
        members_import(club, entries, by=None, start=datetime.date(2025, 9, 1))
    assert refused.value.messages == ["Ligne 3 : BRUNO PEETERS est déjà dans la liste du club."]
    assert not Player.objects.filter(display_name="Zoé Lefèvre").exists()


def confirm_queries(client, club, count: int) -> int:
    upload(client, club, "membres.xlsx", xlsx_of(members_rows(count)))
    columns_confirmed(client, club)
    with CaptureQueriesContext(connection) as queries:
        assert client.post(review(club)).status_code == 302
    return len(queries)


def test_the_confirmation_reads_and_writes_in_the_same_queries_for_ten_lines_or_forty(
    admin_client, club
):
    ten = confirm_queries(admin_client, club, 10)
    other = ClubFactory(name="Whist Club de Wavre")
    other_admin = persona(other, "admin-wavre", Membership.Role.ADMIN)
    admin_client.force_login(other_admin)
    assert confirm_queries(admin_client, other, 40) == ten


@pytest.mark.parametrize("name", ["member-import", "member-import-columns", "member-import-review"])
def test_only_the_clubs_admin_imports(client, club, member, scorer, outsider, name):
    other_admin = persona(ClubFactory(name="Cercle de Namur"), "admin-namur", "admin")
    url = reverse(name, args=[club.slug])
    for user, status in ((member, 403), (scorer, 403), (outsider, 404), (other_admin, 404)):
        client.force_login(user)
        assert client.get(url).status_code == status
        assert client.post(url, {"pasted": "Nom\nZoé"}).status_code == status
    assert Player.objects.filter(display_name="Zoé").count() == 0


def test_invitations_wait_in_the_outbox_while_the_mail_server_is_down(club, monkeypatch):
    zoe_line = MemberLine(2, "Zoé Lefèvre", "Zoé", "Lefèvre", "zoe@example.org", "", False)
    entries = [
        MemberEntry(zoe_line, invite=True),
        MemberEntry(MemberLine(3, "Bruno Peeters", "Bruno", "Peeters", "", "", False)),
    ]
    record = members_import(club, entries, by=None, start=datetime.date(2025, 9, 1))
    assert PendingWork.objects.filter(key=record.pk).exists()

    def down(*args, **kwargs):
        raise SMTPException("the mail server is down")

    monkeypatch.setattr(invitations, "send_mail", down)
    with pytest.raises(SMTPException):
        member_invitations_send(record.pk)
    record.refresh_from_db()
    zoe = Player.objects.get(display_name="Zoé Lefèvre")
    # Nothing half-done: no invitation kept, the line put back for the next try.
    assert record.invitations == [[zoe.pk, "zoe@example.org"]]
    assert not Invitation.objects.exists()
    monkeypatch.undo()
    assert member_invitations_send(record.pk) == 1
    assert member_invitations_send(record.pk) == 0  # run again: nobody is invited twice
    assert [m.to for m in mail.outbox] == [["zoe@example.org"]]


def test_an_address_with_an_account_is_reviewed_invited_and_linked_as_any_address(
    admin_client, club, django_capture_on_commit_callbacks
):
    account = UserFactory(username="zoe@example.org", email="zoe@example.org")
    rows = [HEADER, ["Zoé", "Lefèvre", "zoe@example.org", "", ""]]
    rows.append(["Bruno", "Peeters", "bruno@example.org", "", ""])
    upload(admin_client, club, "membres.xlsx", xlsx_of(rows))
    columns_confirmed(admin_client, club)

    page = admin_client.get(review(club))

    # The admin reads the same of both addresses: each gets its invitation.
    assert page.context["invited"] == 2
    said = re.findall(r'<small class="meta">([^<]*)</small>', page.content.decode())
    assert said == ["invitation par e-mail", "invitation par e-mail"]
    with django_capture_on_commit_callbacks(execute=True):
        admin_client.post(review(club))
    assert sorted(m.to[0] for m in mail.outbox) == ["bruno@example.org", "zoe@example.org"]
    # Zoé signs in with her account and accepts: her account gets the club's new player.
    (to_zoe,) = [m for m in mail.outbox if m.to == ["zoe@example.org"]]
    path = re.search(r"(/compte/invitation/[^/\s]+/)", to_zoe.body)[1]
    zoe_client = Client()
    assert zoe_client.login(username="zoe@example.org", password=PASSWORD)
    assert zoe_client.post(path).url == reverse("profile")
    zoe = Player.objects.get(display_name="Zoé Lefèvre")
    assert zoe.user == account
    assert Membership.objects.current().filter(club=club, player=zoe).exists()
    assert zoe_client.get(reverse("my-results")).context["player"] == zoe
