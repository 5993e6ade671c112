"""A members' table read line by line: its columns proposed from the headings, each bad line
refused in words with its number, and each name matched against the club's players whatever
its accents, its case and its initials, asking when unsure."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from club.member_import.columns import columns_guess
from club.member_import.lines import member_lines_read
from club.member_import.review import ASK, MEMBER, NEW, NEW_PLAYER, REFUSED, RETURNS, members_review
from club.models import Membership, Player
from tests.factories import PlayerFactory

COLUMNS = {"name": 0, "first_name": None, "last_name": None, "email": 1, "phone": 2, "initials": 3}
HEADER = ["Nom", "E-mail", "Téléphone", "Initiales seulement"]


def read(*rows: list[str]):
    return member_lines_read([HEADER, *rows], COLUMNS, header=True)


def only_problems(*rows: list[str]) -> list[tuple[str, ...]]:
    return [line.problems for line in read(*rows)]


def test_the_headings_propose_each_column_in_french_english_or_dutch():
    assert columns_guess([HEADER, ["Anne Dupont", "a@x.be", "", ""]]) == (True, COLUMNS)
    assert columns_guess([["Voornaam", "Achternaam", "E-mailadres", "GSM"]]) == (
        True,
        {"name": None, "first_name": 0, "last_name": 1, "email": 2, "phone": 3, "initials": None},
    )
    # "Nom" beside "Prénom" is the family name; alone it is the whole name. The same in Dutch
    # (a Flemish club's « Voornaam ; Naam ») and in English.
    for first, family in (("Voornaam", "Naam"), ("First name", "Name"), ("Prénom", "Nom")):
        header, columns = columns_guess([[first, family, "E-mail", "Telefoon"]])
        assert (columns["first_name"], columns["last_name"], columns["name"]) == (0, 1, None)
    for alone in ("Naam", "Name", "Nom"):
        assert columns_guess([[alone, "E-mail"]])[1]["name"] == 0
    header, columns = columns_guess([["Prénom", "NOM", "Courriel"]])
    assert (header, columns["first_name"], columns["last_name"], columns["name"]) == (
        True,
        0,
        1,
        None,
    )


def test_a_first_line_of_members_is_no_header():
    header, columns = columns_guess([["Anne Dupont", "anne@example.org"]])
    assert header is False and set(columns.values()) == {None}


def test_a_good_line_is_read_tidied_with_its_initials_choice():
    (line,) = read(["  Zoé   Lambert ", "ZOE@Example.org", "0470 12 34 56", "oui"])
    assert (line.name, line.first_name, line.last_name) == ("Zoé Lambert", "Zoé", "Lambert")
    assert (line.email, line.phone, line.initials, line.problems) == (
        "zoe@example.org",
        "0470 12 34 56",
        True,
        (),
    )


def test_first_and_family_names_make_the_name():
    columns = {"name": None, "first_name": 0, "last_name": 1, "email": None}
    (line,) = member_lines_read([["Jean-Pierre", "Van Damme"]], columns, header=False)
    assert (line.name, line.first_name, line.last_name) == (
        "Jean-Pierre Van Damme",
        "Jean-Pierre",
        "Van Damme",
    )


@pytest.mark.parametrize(
    ("row", "problem"),
    [
        (["", "x@example.org", "", ""], "le nom est vide"),
        (["Anne Dupont", "", "04 70 / douze", ""], "« 04 70 / douze » n'est pas un numéro"),
        (["Anne Dupont", "", "", "peut-être"], "« peut-être » : écrivez oui ou non"),
        (["Anne\u200bDupont", "", "", ""], "le nom contient un caractère invisible (U+200B)"),
        (["A" * 121, "", "", ""], "nom trop long (120 caractères au plus)"),
    ],
)
def test_each_bad_line_is_refused_in_words(row, problem):
    (problems,) = only_problems(row)
    assert len(problems) == 1 and problems[0].startswith(problem), problems


@pytest.mark.parametrize(
    ("email", "note"),
    [
        ("anne.example.org", "« anne.example.org » n'est pas une adresse"),
        # The site's one check of an address, as an invitation and a sign-up say it.
        (
            "a" * 140 + "@example.org",
            "cette adresse est trop longue pour servir d'identifiant (150 caractères au plus)",
        ),
        ("anne@example\x00.org", "« anne@example\x00.org » n'est pas"),
    ],
)
def test_a_bad_address_is_left_out_and_said_the_member_kept(email, note):
    """An address that is not one costs the member his address, never his place."""
    (line,) = read(["Anne Dupont", email, "", ""])
    assert (line.name, line.email, line.problems) == ("Anne Dupont", "", ())
    (said,) = line.notes
    assert said.startswith(f"adresse « {email} » laissée de côté : {note}"), said


def test_a_repeated_name_or_address_is_refused_naming_the_first_line():
    problems = only_problems(
        ["Anne Dupont", "anne@example.org", "", ""],
        ["ANNE DUPONT", "", "", ""],
        ["Bruno Lemaire", "Anne@Example.org", "", ""],
    )
    assert problems[0] == ()
    # Line numbers are the table's: the header is line 1.
    assert problems[1] == ("même nom que la ligne 2",)
    assert problems[2][0].startswith("même adresse e-mail que la ligne 2")


def test_blank_lines_are_left_out_and_an_empty_table_refused():
    lines = read(["", "", "", ""], ["Anne Dupont", "", "", ""])
    assert [line.line for line in lines] == [3]
    with pytest.raises(ValidationError, match="aucune ligne"):
        read(["", "", "", ""])


def test_columns_without_a_name_or_chosen_twice_are_refused():
    with pytest.raises(ValidationError, match="colonne du nom"):
        member_lines_read([["x"]], {"email": 0}, header=False)
    with pytest.raises(ValidationError, match="deux fois"):
        member_lines_read([["x"]], {"name": 0, "email": 0}, header=False)


# -- matched against the club ----------------------------------------------------------------


@pytest.fixture
def anne(club):
    return PlayerFactory(
        first_name="Anne", last_name="Dupont", display_name="Anne Dupont", club=club
    )


def test_a_name_whatever_its_accents_case_and_order_is_the_member_the_club_has(club, anne):
    PlayerFactory(first_name="Zoé", last_name="Lefèvre", display_name="Zoé Lefèvre", club=club)
    rows = members_review(club, read(["DUPONT anne", "", "", ""], ["zoe lefevre", "", "", ""]))
    assert [(row.kind, row.player.display_name) for row in rows] == [
        (MEMBER, "Anne Dupont"),
        (MEMBER, "Zoé Lefèvre"),
    ]


def test_initials_ask_the_club_admin_then_follow_his_answer(club, anne):
    lines = read(["A. Dupont", "", "", ""])
    (unsure,) = members_review(club, lines)
    assert (unsure.kind, unsure.unsure, unsure.candidates) == (ASK, True, [anne])
    (same,) = members_review(club, lines, {2: str(anne.pk)})
    assert (same.kind, same.player) == (MEMBER, anne)
    (new,) = members_review(club, lines, {2: NEW_PLAYER})
    assert (new.kind, new.player) == (NEW, None)


def test_a_name_two_players_could_have_is_never_chosen(club, anne):
    PlayerFactory(first_name="Albert", last_name="Dupont", display_name="Albert Dupont", club=club)
    (row,) = members_review(club, read(["A. Dupont", "", "", ""]))
    assert row.kind == ASK and len(row.candidates) == 2


def test_a_former_member_or_a_guest_becomes_a_member_again(club, anne):
    Membership.objects.filter(player=anne).update(end="2024-06-30")
    guest = PlayerFactory(display_name="Invité Dubois", club=club, club__status="guest")
    rows = members_review(club, read(["Anne Dupont", "", "", ""], ["Invité Dubois", "", "", ""]))
    assert [(row.kind, row.player) for row in rows] == [(RETURNS, anne), (RETURNS, guest)]


def test_another_members_address_is_refused(club, anne):
    anne.email = "anne@example.org"
    anne.save()
    (row,) = members_review(club, read(["Bruno Lemaire", "Anne@example.org", "", ""]))
    assert row.kind == REFUSED
    assert row.refusal == (
        "Ligne 2 : l'adresse anne@example.org est celle d'Anne Dupont, un autre membre du club."
    )


def test_the_review_reads_the_same_queries_for_five_lines_or_fifty(
    club, anne, django_assert_max_num_queries
):
    for count in (5, 50):
        lines = read(*[[f"Joueur {n}", f"j{n}@example.org", "", ""] for n in range(count)])
        with django_assert_max_num_queries(3):
            members_review(club, lines)
    assert Player.objects.count() == 1
