"""A secretary signs her club up from the home page, in steps she can leave and resume:

1. her address and name: a link is e-mailed to it (through the outbox), so a robot that never
   reads the mailbox gets no further, and a throttle counts the attempts of each address;
2. the link: she chooses her password, which opens her account (her e-mail confirmed);
3. the club: its name, town, game and point table, whether the home page lists it;
4. its first season and its ranking rules;
5. she sends it: the club opens at once ("open"), or waits for the operator ("approval").

Her answers are kept on the sign-up (server-side) as each step is sent; she resumes from the
link or by logging in. Each refusal says what to do; the club itself is made in one transaction
at the end (``signup_opening``)."""

from __future__ import annotations

import datetime
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model, password_validation
from django.contrib.auth.models import AbstractBaseUser, AbstractUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from infra.name_text import name_checked
from infra.outbox import TaskName, work_queue
from infra.throttle import Limit, spend

from ..invitations import clean_email, token_hash
from ..models import (
    RULES_CHOICES,
    Club,
    ClubSignup,
    Season,
    check_ranking_rules,
    dates_refused,
    tidy_name,
)
from .signup_opening import (
    LINK_DAYS,
    Status,
    club_name_refusal,
    signup_open,
    signup_purge,
    typed_name,
)

# Sign-ups started from one address: a club's secretary needs one, a family a few; a robot
# that fills the form in a loop gets no further than this.
SIGNUP_ADDRESS = Limit("signup-address", 5, datetime.timedelta(hours=1))
# Links e-mailed to one mailbox a day (the first one and the ones asked again).
SIGNUP_MAILBOX = Limit("signup-mailbox", 3, datetime.timedelta(days=1))
# The steps after the account, in order, by what each records in the answers.
STEPS = ("club", "season")
PRESETS = {name for _game, names in RULES_CHOICES for name, _label in names}


def signup_mode() -> str:
    """ "open", "approval" or "closed" (``settings.CLUB_SIGNUP``)."""
    return settings.CLUB_SIGNUP


def _not_closed() -> None:
    if signup_mode() == "closed":
        raise ValidationError(_("Ce site n'accueille pas de nouveaux clubs pour le moment."))


def _throttled(limit: Limit, key: str) -> None:
    if not spend(limit, key):
        raise ValidationError(
            _("Trop de demandes d'inscription : réessayez dans %(minutes)s minutes.")
            % {"minutes": limit.minutes}
        )


def _account_with(email: str) -> AbstractBaseUser | None:
    return (
        get_user_model().objects.filter(Q(email__iexact=email) | Q(username__iexact=email)).first()
    )


def _link_expired(signup: ClubSignup) -> bool:
    return signup.created <= timezone.now() - datetime.timedelta(days=LINK_DAYS)


def _link_resent(signup: ClubSignup) -> None:
    """A new link for a locked sign-up still waiting for its confirmation (the links sent
    before keep working: a stranger who types her address voids nothing of hers; all expire
    with the sign-up's link); past the mailbox's daily limit none goes, and nothing says so:
    the page reads the same whoever asked, so that it tells nobody who signed up."""
    if spend(SIGNUP_MAILBOX, signup.email):
        signup.link_sent_at = None
        signup.save(update_fields=["link_sent_at"])
        work_queue(TaskName.SIGNUP_LINK_EMAIL, signup.pk)


def signup_start(email: str, name: str, language: str, *, address: str) -> ClubSignup | None:
    """A stranger's sign-up: her address and name; the link to confirm it leaves by e-mail
    once this commits. ``address``: the client's, which the throttle counts.

    What the page says next is the same for every address, so that nobody learns from it
    whose address has an account or a sign-up: an address with an account gets nothing (None;
    the page tells such a secretary to log in first), one whose sign-up waits for its
    confirmation gets a new link (that sign-up, returned)."""
    _not_closed()
    _throttled(SIGNUP_ADDRESS, address)
    try:
        email = clean_email(email)
    except ValidationError as error:
        raise ValidationError({"email": error.messages}) from None
    name = typed_name(name, _("Donnez votre nom : il sera celui de l'administrateur."))
    with transaction.atomic():
        signup_purge()
        if _account_with(email) is not None:
            return None
        pending = (
            ClubSignup.objects.select_for_update()
            .filter(email=email, status=Status.UNCONFIRMED)
            .first()
        )
        if pending is not None and not _link_expired(pending):
            _link_resent(pending)
            return pending
        _throttled(SIGNUP_MAILBOX, email)
        signup = ClubSignup(email=email, name=name, language=language)
        signup.full_clean()
        signup.save()
        work_queue(TaskName.SIGNUP_LINK_EMAIL, signup.pk)
    return signup


def signup_link_again(email: str, *, address: str) -> ClubSignup | None:
    """A new link for a sign-up still waiting for its confirmation (the first e-mail was lost);
    the old link keeps working too. None: no such sign-up (the page says the same either way, so
    that nobody learns from it who signed up)."""
    _not_closed()
    _throttled(SIGNUP_ADDRESS, address)
    try:
        email = clean_email(email or "")
    except ValidationError:
        return None
    with transaction.atomic():
        signup = (
            ClubSignup.objects.select_for_update()
            .filter(email=email, status=Status.UNCONFIRMED)
            .first()
        )
        if signup is None or _link_expired(signup):
            return None
        _link_resent(signup)
    return signup


def signup_for_token(token: str) -> ClubSignup | None:
    """The sign-up a link opens; an unconfirmed one only while its link works."""
    if not token:
        return None
    hashed = token_hash(token)
    signup = (
        ClubSignup.objects.filter(token_hash=hashed).first()
        or ClubSignup.objects.filter(earlier_links__token_hash=hashed).first()
    )
    if signup is None or (signup.status == Status.UNCONFIRMED and _link_expired(signup)):
        return None
    return signup


def signup_account_for(signup: ClubSignup) -> AbstractUser:
    """The account the sign-up opens, not saved: the password validators compare the password
    with its name and address."""
    first, _sep, last = signup.name.partition(" ")
    return get_user_model()(
        username=signup.email, email=signup.email, first_name=first[:150], last_name=last[:150]
    )


@transaction.atomic
def signup_confirm(signup: ClubSignup, password: str) -> AbstractUser:
    """The link's owner chooses her password: her account opens, her address confirmed."""
    signup = ClubSignup.objects.select_for_update().get(pk=signup.pk)
    if signup.status != Status.UNCONFIRMED or _link_expired(signup):
        raise ValidationError(
            _("Ce lien a déjà servi ou a expiré : connectez-vous, ou recommencez l'inscription.")
        )
    if _account_with(signup.email) is not None:
        raise ValidationError(
            _("L'adresse %(email)s a déjà un compte : connectez-vous pour continuer.")
            % {"email": signup.email}
        )
    user = signup_account_for(signup)
    password_validation.validate_password(password, user)
    user.set_password(password)
    user.full_clean()
    user.save()
    signup.user = user
    signup.status = Status.DRAFT
    signup.confirmed_at = timezone.now()
    signup.save(update_fields=["user", "status", "confirmed_at"])
    return user


def signup_of(user: AbstractBaseUser) -> ClubSignup | None:
    """The account's sign-up in progress (a draft, or waiting for the operator), else its
    latest one."""
    signups = ClubSignup.objects.filter(user=user)
    return signups.filter(status__in=ClubSignup.OPEN_STATES).first() or signups.first()


@transaction.atomic
def signup_begin(user: AbstractUser, language: str) -> ClubSignup:
    """A logged-in account signs a club up (a member of another club, a secretary whose first
    club is open): its address is confirmed already. A sign-up in progress is resumed."""
    _not_closed()
    current = ClubSignup.objects.filter(
        user=user, status__in=[Status.DRAFT, Status.WAITING]
    ).first()
    if current is not None:
        return current
    email = (user.email or user.username).strip().lower()
    player = getattr(user, "player", None)
    name = player.display_name if player else (user.get_full_name() or email.split("@")[0])
    # A stranger's sign-up of this address, never confirmed, is this account's from now on.
    ClubSignup.objects.filter(email=email, status=Status.UNCONFIRMED).delete()
    signup = ClubSignup(
        email=email,
        name=tidy_name(name)[:120],
        language=language,
        user=user,
        status=Status.DRAFT,
        confirmed_at=timezone.now(),
    )
    signup.full_clean()
    signup.save()
    return signup


def _draft(signup: ClubSignup) -> ClubSignup:
    locked = ClubSignup.objects.select_for_update().get(pk=signup.pk)
    if locked.status != Status.DRAFT:
        raise ValidationError(_("Cette inscription est envoyée : elle ne change plus."))
    return locked


def _club_name_checked(field: str, value: str) -> str:
    try:
        return name_checked(value or "", Club._meta.get_field(field).max_length)
    except ValidationError as refused:
        raise ValidationError({field: refused.messages}) from None


@transaction.atomic
def signup_club_set(
    signup: ClubSignup, *, name: str, town: str, default_rules: str, listed: bool
) -> ClubSignup:
    """The club's step: its name (refused when taken, in words), town, point table (a preset,
    which says the game; the club edits it later) and whether the home page lists it."""
    signup = _draft(signup)
    # The club's name and town follow the rule of every stored name: the operator's e-mail
    # and the club's pages show them as typed.
    name = _club_name_checked("name", name)
    town = _club_name_checked("town", town)
    if why := club_name_refusal(name, signup):
        raise ValidationError({"name": why})
    if default_rules not in PRESETS:
        raise ValidationError({"default_rules": _("Choisissez un tableau des points.")})
    signup.answers = {
        **signup.answers,
        "club": {
            "name": name,
            "town": town,
            "default_rules": default_rules,
            "listed": bool(listed),
        },
    }
    signup.save(update_fields=["answers"])
    return signup


@transaction.atomic
def signup_season_set(
    signup: ClubSignup,
    *,
    name: str,
    start: datetime.date,
    end: datetime.date,
    ranking_best_n: int | None,
    ranking_min_tournaments: int | None,
    ranking_precedence: list[str],
) -> ClubSignup:
    """The first season (its name and dates) and the club's ranking rules (the best N nights,
    the minimum to be ranked, the order of the criteria), checked by the engine's rules."""
    signup = _draft(signup)
    try:
        name = name_checked(name or "", Season._meta.get_field("name").max_length)
    except ValidationError as refused:
        raise ValidationError({"name": refused.messages}) from None
    if not name:
        raise ValidationError({"name": _("Donnez un nom à la saison.")})
    if why := dates_refused(start, end):
        raise ValidationError({"start": why})
    if end < start:
        raise ValidationError({"end": _("La saison se termine avant de commencer.")})
    check_ranking_rules(ranking_best_n, ranking_min_tournaments or 0, ranking_precedence)
    signup.answers = {
        **signup.answers,
        "season": {
            "name": name,
            "start": start.isoformat(),
            "end": end.isoformat(),
            "ranking_best_n": ranking_best_n,
            "ranking_min_tournaments": ranking_min_tournaments or 0,
            "ranking_precedence": list(ranking_precedence),
        },
    }
    signup.save(update_fields=["answers"])
    return signup


def signup_next_step(signup: ClubSignup) -> str:
    """The first step not answered yet, or "review" when all are."""
    return next((step for step in STEPS if step not in signup.answers), "review")


def signup_submit(signup: ClubSignup) -> Club | None:
    """The secretary sends her sign-up: the club opens at once (returned), or waits for the
    operator's approval (None; he is e-mailed once this commits)."""
    _not_closed()
    if signup_next_step(signup) != "review":
        raise ValidationError(_("Une étape n'est pas encore remplie."))
    if signup_mode() == "open":
        return signup_open(signup)
    with transaction.atomic():
        signup = _draft(signup)
        if why := club_name_refusal(signup.club_name, signup):
            raise ValidationError({"name": why})
        signup.status = Status.WAITING
        signup.submitted_at = timezone.now()
        signup.save(update_fields=["status", "submitted_at"])
        work_queue(TaskName.SIGNUP_OPERATORS_EMAIL, signup.pk)
    return None


def signup_answers(signup: ClubSignup, step: str) -> dict[str, Any]:
    """A step's answers as its form shows them again (dates as dates)."""
    answers = dict(signup.answers.get(step, {}))
    for field in ("start", "end"):
        if isinstance(answers.get(field), str):
            answers[field] = datetime.date.fromisoformat(answers[field])
    return answers
