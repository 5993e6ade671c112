"""A signed-up club opens: its name checked once more, then the club, its secretary as its
first admin and its first season, in one transaction (nothing half-made when any of it is
refused). At once in the "open" mode; in the "approval" mode when the site's operator approves
(Django's admin), or he refuses in words. Also: the steps of the new club's checklist its admin
confirms by hand, and the sign-ups and join requests deleted when their time is up."""

from __future__ import annotations

import datetime

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from infra.name_text import name_checked
from infra.outbox import TaskName, work_queue
from infra.slugs import slug_of

from ..models import (
    Club,
    ClubSignup,
    JoinRequest,
    Membership,
    Player,
    name_key,
    tidy_name,
)
from .seasons import season_create

# A confirmation link works this long; a sign-up never confirmed is deleted after it.
LINK_DAYS = 7
# A refused sign-up and an answered join request are kept this long (a question about the
# answer can still be looked up), then deleted.
DECIDED_KEPT_DAYS = 30
# The steps of the checklist an admin may tick by hand: the preset point table and the room
# screen's default colours may suit a club as they are.
CONFIRMABLE_STEPS = ("point_table", "colours")

Status = ClubSignup.Status


def club_slug(name: str) -> str:
    """The address a new club's name gives it (as ``free_slug`` makes it, unnumbered)."""
    return slug_of(name, 50)


def typed_name(name: str, empty: str) -> str:
    """A person's name as a stranger typed it (the secretary's, a newcomer's): as the one
    name rule stores it (``name_checked``); refused on the form's field "name" when ``empty``,
    holding a character no page shows, or too long."""
    try:
        name = name_checked(name, ClubSignup._meta.get_field("name").max_length)
    except ValidationError as refused:
        raise ValidationError({"name": refused.messages}) from None
    if not name:
        raise ValidationError({"name": empty})
    return name


def club_name_refusal(name: str, signup: ClubSignup | None = None) -> str | None:
    """Why a new club cannot take this name, in words, or None: a club has it (whatever its
    case and accents), or the address it makes, or another sign-up waiting for the operator's
    answer asked for it first."""
    name = tidy_name(name)
    if not name:
        return _("Donnez le nom du club.")
    slug = club_slug(name)
    if not slug:
        return _("Le nom du club doit contenir des lettres ou des chiffres.")
    key = name_key(name)
    # Whatever the accents: every club's name is read (a site has a few hundred at most).
    for taken, taken_slug in Club.objects.values_list("name", "slug"):
        if name_key(taken) == key:
            return _(
                "Le club « %(name)s » existe déjà sur ce site : si c'est le vôtre, demandez à "
                "son administrateur de vous inviter, sinon choisissez un autre nom (avec la "
                "ville, par exemple)."
            ) % {"name": taken}
        if taken_slug == slug:
            return _(
                "Ce nom donnerait au club l'adresse /clubs/%(slug)s/, déjà celle du club "
                "« %(name)s » : choisissez un nom qui s'en distingue (avec la ville, par exemple)."
            ) % {"slug": slug, "name": taken}
    waiting = ClubSignup.objects.filter(status=Status.WAITING)
    if signup is not None and signup.pk:
        waiting = waiting.exclude(pk=signup.pk)
    for other in waiting.only("answers"):
        if name_key(other.club_name) == key or club_slug(other.club_name) == slug:
            return _(
                "Un club de ce nom attend déjà l'accord de l'exploitant du site : choisissez-en "
                "un autre (avec la ville, par exemple)."
            )
    return None


def _open(signup: ClubSignup) -> Club:
    """The club of a locked sign-up, its secretary as its admin and its first season."""
    answers, season = signup.answers.get("club"), signup.answers.get("season")
    if not answers or not season or signup.user is None:
        raise ValidationError(_("L'inscription n'est pas complète : reprenez-la à son début."))
    if why := club_name_refusal(answers["name"], signup):
        raise ValidationError({"name": why})
    name = tidy_name(answers["name"])
    club = Club(
        name=name,
        slug=club_slug(name),
        town=answers.get("town", ""),
        default_rules=answers["default_rules"],
        listed=answers.get("listed", False),
        language=signup.language,
        ranking_best_n=season.get("ranking_best_n"),
        ranking_min_tournaments=season.get("ranking_min_tournaments") or 0,
        ranking_precedence=season["ranking_precedence"],
    )
    club.full_clean()
    club.save()
    user = signup.user
    # A member of another club who signs his own up stays one person: his player runs both.
    player = Player.objects.select_for_update().filter(user=user).first()
    if player is None:
        first, _sep, last = signup.name.partition(" ")
        player = Player(
            display_name=signup.name,
            first_name=first,
            last_name=last,
            email=user.email,
            user=user,
            language=signup.language,
        )
        player.full_clean()
        player.save()
    admin = Membership(
        club=club, player=player, start=timezone.localdate(), role=Membership.Role.ADMIN
    )
    admin.full_clean()
    admin.save()
    season_create(
        club,
        season["name"],
        datetime.date.fromisoformat(season["start"]),
        datetime.date.fromisoformat(season["end"]),
    )
    signup.club = club
    signup.status = Status.OPENED
    signup.decided_at = timezone.now()
    signup.save(update_fields=["club", "status", "decided_at"])
    return club


def _locked(signup: ClubSignup, status: str) -> ClubSignup:
    locked = (
        ClubSignup.objects.select_for_update(of=("self",)).select_related("user").get(pk=signup.pk)
    )
    if locked.status != status:
        raise ValidationError(
            _("Cette inscription n'est plus %(expected)s : elle est « %(now)s ».")
            % {
                "expected": Status(status).label.lower(),
                "now": locked.get_status_display(),
            }
        )
    return locked


@transaction.atomic
def signup_open(signup: ClubSignup) -> Club:
    """The "open" mode: the secretary's finished sign-up opens her club at once."""
    return _open(_locked(signup, Status.DRAFT))


@transaction.atomic
def signup_approve(signup: ClubSignup, by: AbstractBaseUser | None) -> Club:
    """The operator approves a waiting sign-up: the club opens and its secretary is told."""
    signup = _locked(signup, Status.WAITING)
    club = _open(signup)
    signup.decided_by = by
    signup.save(update_fields=["decided_by"])
    work_queue(TaskName.SIGNUP_DECISION_EMAIL, signup.pk)
    return club


@transaction.atomic
def signup_refuse(signup: ClubSignup, by: AbstractBaseUser | None, note: str = "") -> ClubSignup:
    """The operator refuses a waiting sign-up (``note``: his word to the secretary, else the
    one already on it); nothing of the club was made. She is told by e-mail."""
    signup = _locked(signup, Status.WAITING)
    signup.status = Status.REFUSED
    signup.decided_at = timezone.now()
    signup.decided_by = by
    signup.note = note.strip() or signup.note
    signup.save(update_fields=["status", "decided_at", "decided_by", "note"])
    work_queue(TaskName.SIGNUP_DECISION_EMAIL, signup.pk)
    return signup


@transaction.atomic
def club_step_confirm(club: Club, step: str) -> None:
    """The club's admin ticks a checklist step himself: the preset table or the default colours
    suit the club as they are."""
    if step not in CONFIRMABLE_STEPS:
        raise ValidationError(_("Cette étape se coche d'elle-même, une fois faite."))
    signup = ClubSignup.objects.select_for_update().filter(club=club).first()
    if signup is None:
        raise ValidationError(_("Ce club n'a pas de liste de démarrage."))
    if step not in signup.steps_confirmed:
        signup.steps_confirmed = [*signup.steps_confirmed, step]
        signup.save(update_fields=["steps_confirmed"])


def signup_purge(now: datetime.datetime | None = None) -> int:
    """Delete what the privacy page says is deleted: sign-ups never confirmed once their link
    expired, refused ones and answered join requests after ``DECIDED_KEPT_DAYS``. Returns how
    many rows went."""
    now = now or timezone.now()
    expired = now - datetime.timedelta(days=LINK_DAYS)
    decided = now - datetime.timedelta(days=DECIDED_KEPT_DAYS)
    signups, _detail = ClubSignup.objects.filter(
        Q(status=Status.UNCONFIRMED, created__lt=expired)
        | Q(status=Status.REFUSED, decided_at__lt=decided)
    ).delete()
    requests, _detail = (
        JoinRequest.objects.exclude(status=JoinRequest.Status.PENDING)
        .filter(decided_at__lt=decided)
        .delete()
    )
    return signups + requests
