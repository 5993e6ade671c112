"""Each line of a members' table read by its columns, and refused in words: an empty name, a
telephone number with letters, an "initials only" that says neither yes nor no, a line that
repeats an earlier one (the same name, or the same address: an address opens one account).
An address that is not one does not cost the member his place: he is read without it, and the
line carries a note that says so. Every problem and note names its line; nothing is left out
silently."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from ..invitations import clean_email
from ..models import Player, hidden_characters, name_key, tidy_name
from ..profile import PHONE

NAME_LENGTH = Player._meta.get_field("display_name").max_length
PART_LENGTH = Player._meta.get_field("first_name").max_length
PHONE_LENGTH = Player._meta.get_field("phone").max_length
# What an "initials only" cell may say (French, English, Dutch; a ticked box exported as x).
YES = {"oui", "o", "yes", "y", "ja", "j", "x", "1", "vrai", "true", "initiales"}
NO = {"", "non", "n", "no", "nee", "0", "faux", "false"}


@dataclass(frozen=True)
class MemberLine:
    """One line of the table as read (``line``: its number in the table, 1 the first), with
    its own problems (empty: a good line)."""

    line: int
    name: str
    first_name: str
    last_name: str
    email: str
    phone: str
    initials: bool
    problems: tuple[str, ...] = ()
    # What was read differently from the table, the line kept (an address left out, and why).
    notes: tuple[str, ...] = ()


def columns_refusal(columns: Mapping[str, int | None]) -> str | None:
    """Why these columns cannot be read (None: they can): a name is needed, whole or in two
    parts, and a column is read for one thing only."""
    if columns.get("name") is None and columns.get("last_name") is None:
        return _("Choisissez la colonne du nom (ou celles du prénom et du nom de famille).")
    chosen = [index for index in columns.values() if index is not None]
    if len(chosen) != len(set(chosen)):
        return _("Une colonne est choisie deux fois.")
    return None


def _name_problems(name: str) -> list[str]:
    if not name:
        return [_("le nom est vide")]
    if hidden := hidden_characters(name):
        return [
            _("le nom contient un caractère invisible (%(codes)s)")
            % {"codes": ", ".join(dict.fromkeys(hidden))}
        ]
    if len(name) > NAME_LENGTH:
        return [_("nom trop long (%(max)s caractères au plus)") % {"max": NAME_LENGTH}]
    return []


def _email_problems(email: str) -> list[str]:
    """The site's one check of an address (``clean_email``: an invitation's, a sign-up's), its
    words as a line's problem."""
    if not email:
        return []
    try:
        clean_email(email)
    except ValidationError as refused:
        return [_as_problem(message) for message in refused.messages]
    return []


def _as_problem(sentence: str) -> str:
    """A refusal's sentence as one of a line's problems (« Ligne 4 : a ; b. »)."""
    sentence = sentence.rstrip(".")
    return sentence[:1].lower() + sentence[1:]


def _phone_problems(phone: str) -> list[str]:
    try:
        PHONE(phone)
    except ValidationError:
        return [_("« %(phone)s » n'est pas un numéro de téléphone") % {"phone": phone}]
    if len(phone) > PHONE_LENGTH:
        return [
            _("numéro de téléphone trop long (%(max)s caractères au plus)") % {"max": PHONE_LENGTH}
        ]
    return []


def member_lines_read(
    rows: Sequence[Sequence[str]], columns: Mapping[str, int | None], *, header: bool
) -> list[MemberLine]:
    """The table's lines read by ``columns`` (what each column is → its index). Blank lines
    and the header are left out; each line carries its problems, the repeats too."""
    if refusal := columns_refusal(columns):
        raise ValidationError(refusal)

    def cell(row: Sequence[str], key: str) -> str:
        index = columns.get(key)
        return str(row[index]).strip() if index is not None and index < len(row) else ""

    lines: list[MemberLine] = []
    seen_names: dict[str, int] = {}
    seen_emails: dict[str, int] = {}
    for number, row in enumerate(rows, start=1):
        if (header and number == 1) or not any(str(value).strip() for value in row):
            continue
        first, last = tidy_name(cell(row, "first_name")), tidy_name(cell(row, "last_name"))
        name = tidy_name(cell(row, "name")) or tidy_name(f"{first} {last}")
        email, phone = cell(row, "email").lower(), " ".join(cell(row, "phone").split())
        initials_text = cell(row, "initials").casefold().rstrip(".")
        notes = []
        if refused := _email_problems(email):
            # The member is imported without it: the club adds it later on his page.
            notes.append(
                _("adresse « %(email)s » laissée de côté : %(why)s")
                % {"email": email, "why": " ; ".join(refused)}
            )
            email = ""
        problems = _name_problems(name) + _phone_problems(phone)
        if max(len(first), len(last)) > PART_LENGTH:
            problems.append(
                _("prénom ou nom de famille trop long (%(max)s caractères au plus)")
                % {"max": PART_LENGTH}
            )
        if initials_text not in YES | NO:
            problems.append(
                _("« %(got)s » : écrivez oui ou non pour les initiales")
                % {"got": cell(row, "initials")}
            )
        if name and (earlier := seen_names.setdefault(name_key(name), number)) != number:
            problems.append(_("même nom que la ligne %(line)s") % {"line": earlier})
        if email and (earlier := seen_emails.setdefault(email, number)) != number:
            problems.append(
                _("même adresse e-mail que la ligne %(line)s (une adresse ouvre un seul compte)")
                % {"line": earlier}
            )
        if not first and not last:
            first, _sep, last = name.partition(" ")
        lines.append(
            MemberLine(
                line=number,
                name=name,
                first_name=first,
                last_name=last,
                email=email,
                phone=phone,
                initials=initials_text in YES,
                problems=tuple(problems),
                notes=tuple(notes),
            )
        )
    if not lines:
        raise ValidationError(_("Le tableau n'a aucune ligne à importer."))
    return lines


def problems_said(line: int, problems: Sequence[str]) -> str:
    """A line's problems in one sentence: « Ligne 7 : le nom est vide ; … »."""
    return _("Ligne %(line)s : %(problems)s.") % {"line": line, "problems": " ; ".join(problems)}
