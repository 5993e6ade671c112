"""Invitations: a club admin invites a player by e-mail, the member claims him with a password;
or, when the address has an account already, by signing in with it (``invitation_join``). The
admin is told the same whichever it is: only the address's owner learns it, from the e-mail.

Only the sha256 of a link's token is stored, so neither a database copy nor the admin can be
used to claim somebody's player. A player has at most one working link: a new invitation
replaces the pending ones.

An invitation speaks for the club that sent it only. A player another club also knows, or
whose e-mail on file is not the invited address, is not given to the new account at once: the
address on file confirms it by a link (``claim_confirm``), or the admin of each other club
approves (``claim_approve``). Until then the account has no player, and so no role anywhere.
"""

from __future__ import annotations

import datetime
import hashlib
import secrets
from collections.abc import Callable

from django import forms
from django.conf import settings
from django.contrib.auth import get_user_model, password_validation
from django.contrib.auth.models import AbstractBaseUser, AbstractUser
from django.core.exceptions import ValidationError
from django.core.mail import send_mail
from django.core.validators import validate_email
from django.db import transaction
from django.db.models import Prefetch, Q, QuerySet
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from infra.mail_text import plain_text, subject_line

from .models import Club, Invitation, Membership, Player, PlayerClaim
from .name_order import by_name

# Long enough for a member who reads his mail once a week, short enough that a forgotten
# mailbox does not keep a way into the club open.
INVITATION_DAYS = 14
# The address becomes the username, which Django's user model keeps to 150 characters.
USERNAME_LENGTH = 150


class InvitationForm(forms.Form):
    email = forms.EmailField(label=gettext_lazy("Adresse e-mail"), max_length=254)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def invitation_expires(invitation: Invitation) -> datetime.datetime:
    return invitation.created + datetime.timedelta(days=INVITATION_DAYS)


def clean_email(email: str) -> str:
    # Usernames are the lower-cased address: one spelling, whatever the member types.
    email = email.strip().lower()
    try:
        validate_email(email)
    except ValidationError:
        raise ValidationError(
            _("« %(email)s » n'est pas une adresse e-mail valable.") % {"email": email}
        ) from None
    if len(email) > USERNAME_LENGTH:
        raise ValidationError(
            _(
                "Cette adresse est trop longue pour servir d'identifiant "
                "(%(max)s caractères au plus)."
            )
            % {"max": USERNAME_LENGTH}
        )
    return email


def _account_exists(email: str) -> bool:
    return (
        get_user_model().objects.filter(Q(email__iexact=email) | Q(username__iexact=email)).exists()
    )


def account_of_address(email: str) -> AbstractUser | None:
    """The account whose login or address is ``email`` (its login first: the one he signs in
    with), or None."""
    accounts = get_user_model().objects.filter(Q(email__iexact=email) | Q(username__iexact=email))
    return accounts.filter(username__iexact=email).first() or accounts.order_by("pk").first()


def memberships_with_accounts(club: Club) -> QuerySet[Membership]:
    """The club's current memberships with each player's account and his pending invitation
    from this club (``player.pending_invitations``, newest first): a fixed number of queries."""
    pending = Invitation.objects.filter(club=club, accepted_at__isnull=True).order_by("-created")
    return (
        Membership.objects.current()
        .filter(club=club)
        .select_related("player__user")
        .prefetch_related(
            Prefetch("player__invitations", queryset=pending, to_attr="pending_invitations")
        )
        .order_by(*by_name("player__", club))
    )


def with_pending_invitations(club: Club, memberships: QuerySet[Membership]) -> QuerySet[Membership]:
    """The memberships with each player's account and his pending invitation from this club
    (``player.pending_invitations``, newest first): a fixed number of queries."""
    pending = Invitation.objects.filter(club=club, accepted_at__isnull=True).order_by("-created")
    return memberships.select_related("player__user").prefetch_related(
        Prefetch("player__invitations", queryset=pending, to_attr="pending_invitations")
    )


def invitation_send(
    club: Club,
    player: Player,
    email: str,
    by: AbstractBaseUser | None,
    link_for: Callable[[str], str],
) -> Invitation:
    """Invite ``player`` of ``club`` to open his account; ``link_for(token)`` is the absolute
    address of the link. Nothing is kept if the e-mail cannot be sent."""
    email = clean_email(email)
    with transaction.atomic():
        # Locked so that two admins inviting at once leave one working link, not two.
        player = Player.objects.select_for_update().get(pk=player.pk)
        if not Membership.objects.current().filter(club=club, player=player).exists():
            raise ValidationError(
                _("%(player)s n'est pas membre du club %(club)s.")
                % {"player": player, "club": club}
            )
        if player.user_id is not None:
            raise ValidationError(_("%(player)s a déjà un compte.") % {"player": player})
        # The old links stop working: only the latest e-mail opens the account.
        replaced = Invitation.objects.filter(player=player, accepted_at__isnull=True)
        on_file = player.email
        if on_file and on_file in {i.email for i in replaced}:
            # The address on file was only the club's previous invitation (a typo since
            # corrected): the new one takes its place.
            player.email = ""
        replaced.delete()
        token = secrets.token_urlsafe(32)
        invitation = Invitation(
            club=club, player=player, email=email, token_hash=token_hash(token), invited_by=by
        )
        invitation.full_clean()
        invitation.save()
        # A player without an address gets the invited one; but not a player another club
        # also knows: that address would then confirm its own claim (see claim_needed); nor
        # an address another club's member has: it is his once he accepts (_player_link).
        if (
            not player.email
            and not _other_clubs(player, club)
            and not _address_elsewhere(email, club)
        ):
            player.email = email
        if player.email != on_file:
            player.save(update_fields=["email"])
        context = {
            "club": club,
            "player": player,
            "link": link_for(token),
            "days": INVITATION_DAYS,
            "expires": invitation_expires(invitation),
            # Told to the address's owner only (the admin hears the same of every address):
            # he signs in to accept rather than choosing a password (``invitation_join``).
            "has_account": account_of_address(email) is not None,
        }
        with translation.override(player.language or settings.LANGUAGE_CODE):
            subject = subject_line("email/invitation_subject.txt", context)
            body = plain_text("email/invitation.txt", context)
        send_mail(subject, body, None, [email], fail_silently=False)
    return invitation


def invitation_for_token(token: str) -> Invitation | None:
    """The invitation a link opens: not used yet, not expired, its player still without an
    account."""
    if not token:
        return None
    oldest = timezone.now() - datetime.timedelta(days=INVITATION_DAYS)
    return (
        Invitation.objects.select_related("club", "player")
        .filter(
            token_hash=token_hash(token),
            accepted_at__isnull=True,
            created__gt=oldest,
            player__user__isnull=True,
        )
        .first()
    )


def account_for(invitation: Invitation) -> AbstractUser:
    """The account an invitation opens, not saved: the password validators compare the
    password with its name and address."""
    email = invitation.email.lower()
    player = invitation.player
    return get_user_model()(
        username=email,
        email=email,
        first_name=player.first_name[:150],
        last_name=player.last_name[:150],
    )


def _other_clubs(player: Player, club: Club) -> list[Club]:
    """The clubs other than ``club`` where the player is a member now."""
    return list(
        Club.objects.filter(Membership.objects.current_q("memberships"), memberships__player=player)
        .exclude(pk=club.pk)
        .distinct()
        .order_by("name")
    )


def _address_elsewhere(email: str, club: Club) -> bool:
    """Whether ``email`` is the address of a current member of a club other than ``club``
    (on file, or his login's)."""
    return (
        Player.objects.filter(Membership.objects.current_q("memberships"))
        .exclude(memberships__club=club)
        .filter(Q(email__iexact=email) | Q(user__email__iexact=email))
        .exists()
    )


def claim_needed(invitation: Invitation) -> bool:
    """Whether accepting ``invitation`` must wait for the player's confirmation: another club
    knows him, or his address on file is not the invited one."""
    on_file = invitation.player.email.strip().lower()
    other_address = bool(on_file) and on_file != invitation.email.lower()
    return other_address or bool(_other_clubs(invitation.player, invitation.club))


def invitation_accept(
    invitation: Invitation,
    password: str,
    confirm_link_for: Callable[[str], str] | None = None,
) -> AbstractUser:
    """Open the member's account with ``password`` and give him his player; or, when the
    player must confirm first (``claim_needed``), ask him: a link to the address on file
    (``confirm_link_for(token)`` is its absolute address), else the other clubs' approval."""
    with transaction.atomic():
        invitation = _unused(invitation)
        user = account_for(invitation)
        if _account_exists(user.email):
            raise ValidationError(
                _(
                    "L'adresse %(email)s appartient déjà à un autre compte : connectez-vous ou "
                    "demandez une invitation à une autre adresse."
                )
                % {"email": user.email}
            )
        password_validation.validate_password(password, user)
        user.set_password(password)
        user.full_clean()
        user.save()
        _accepted(invitation, user, confirm_link_for)
    return user


def _unused(invitation: Invitation) -> Invitation:
    """The invitation locked, or refused when used, expired or its player linked meanwhile:
    the lock makes a second, simultaneous use of the link wait, then see it used."""
    used = ValidationError(
        _(
            "Ce lien d'invitation a déjà servi ou a expiré : "
            "demandez une nouvelle invitation au club."
        )
    )
    try:
        invitation = (
            Invitation.objects.select_for_update()
            .select_related("player", "club")
            .get(pk=invitation.pk)
        )
    except Invitation.DoesNotExist:
        raise used from None
    if (
        invitation.accepted_at is not None
        or invitation_expires(invitation) <= timezone.now()
        or invitation.player.user_id is not None
    ):
        raise used
    return invitation


def _accepted(
    invitation: Invitation, user: AbstractUser, confirm_link_for: Callable[[str], str] | None
) -> None:
    invitation.accepted_at = timezone.now()
    invitation.save(update_fields=["accepted_at"])
    if claim_needed(invitation):
        _claim_open(invitation, user, confirm_link_for)
    else:
        _player_link(invitation.player, user)


def invitation_taken(invitation: Invitation, user: AbstractUser) -> Invitation:
    """The invitation, locked and marked used by ``user``, the invited address's own account
    signed in; the caller, in the same transaction, links the two records of one person
    (``scoring.services.merge_from_invitation``). Refused to any other account."""
    invitation = _unused(invitation)
    _check_holder(invitation, user)
    invitation.accepted_at = timezone.now()
    invitation.save(update_fields=["accepted_at"])
    return invitation


def _check_holder(invitation: Invitation, user: AbstractUser) -> None:
    holder = account_of_address(invitation.email)
    if holder is None or holder.pk != user.pk:
        raise ValidationError(
            _("Cette invitation est pour l'adresse %(email)s : connectez-vous avec son compte.")
            % {"email": invitation.email}
        )


def invitation_join(
    invitation: Invitation,
    user: AbstractUser,
    confirm_link_for: Callable[[str], str] | None = None,
) -> None:
    """The invited address's own account, signed in, accepts: it gets the player as a new
    account would (``claim_needed`` asks the same confirmations). An account that has a player
    already is never given a second one: its two records are one person's, merged as the site
    merges them (``scoring.services.merge_from_invitation``)."""
    with transaction.atomic():
        invitation = _unused(invitation)
        _check_holder(invitation, user)
        if Player.objects.filter(user=user).exists():
            raise ValidationError(_("Ce compte est déjà relié à un joueur."))
        _accepted(invitation, user, confirm_link_for)


def _player_link(player: Player, user: AbstractUser) -> None:
    """The account gets its player. The e-mail on file is the member's own: it is filled when
    empty, never overwritten."""
    player.user = user
    fields = ["user"]
    if not player.email:
        player.email = user.email
        fields.append("email")
    player.save(update_fields=fields)


def _claim_open(
    invitation: Invitation, user: AbstractUser, confirm_link_for: Callable[[str], str] | None
) -> PlayerClaim:
    player = invitation.player
    token = secrets.token_urlsafe(32) if player.email else ""
    claim = PlayerClaim.objects.create(
        user=user,
        player=player,
        club=invitation.club,
        email=invitation.email,
        token_hash=token_hash(token) if token else "",
    )
    if token:
        if confirm_link_for is None:
            raise ValueError("a claim confirmed by e-mail needs confirm_link_for")
        context = {
            "club": invitation.club,
            "player": player,
            "email": invitation.email,
            "link": confirm_link_for(token),
            "days": INVITATION_DAYS,
        }
        with translation.override(player.language or settings.LANGUAGE_CODE):
            subject = subject_line("email/claim_confirm_subject.txt", context)
            body = plain_text("email/claim_confirm.txt", context)
        send_mail(subject, body, None, [player.email], fail_silently=False)
    return claim


def _claims_pending() -> QuerySet[PlayerClaim]:
    oldest = timezone.now() - datetime.timedelta(days=INVITATION_DAYS)
    return PlayerClaim.objects.filter(
        confirmed_at__isnull=True, created__gt=oldest, player__user__isnull=True
    )


def claim_for_token(token: str) -> PlayerClaim | None:
    """The pending claim a confirmation link opens."""
    if not token:
        return None
    return (
        _claims_pending()
        .select_related("player", "club", "user")
        .filter(token_hash=token_hash(token))
        .first()
    )


def _claim_grant(claim: PlayerClaim) -> None:
    claim = PlayerClaim.objects.select_for_update().get(pk=claim.pk)
    player = Player.objects.select_for_update().get(pk=claim.player_id)
    if claim.confirmed_at is not None or player.user_id is not None:
        raise ValidationError(_("Ce joueur est déjà relié à un compte."))
    if Player.objects.filter(user_id=claim.user_id).exists():
        raise ValidationError(_("Ce compte est déjà relié à un joueur."))
    _player_link(player, claim.user)
    claim.confirmed_at = timezone.now()
    claim.save(update_fields=["confirmed_at"])


@transaction.atomic
def claim_confirm(claim: PlayerClaim) -> None:
    """The player confirms from his address on file: the account gets him."""
    _claim_grant(claim)


def claims_to_approve(club: Club) -> QuerySet[PlayerClaim]:
    """Pending claims, opened by another club's invitation, for players of ``club``."""
    return (
        _claims_pending()
        .filter(Membership.objects.current_q("player__memberships"), player__memberships__club=club)
        .exclude(club=club)
        .exclude(approved_by=club)
        .select_related("player", "club")
        .distinct()
        .order_by("created")
    )


@transaction.atomic
def claim_approve(claim: PlayerClaim, club: Club) -> bool:
    """``club``'s admin approves that the account is his player's. The account gets the
    player once every other club of the player has approved; returns whether it has."""
    if not claims_to_approve(club).filter(pk=claim.pk).exists():
        raise ValidationError(_("Cette demande n'attend pas l'approbation de votre club."))
    claim.approved_by.add(club)
    waiting = {other.pk for other in _other_clubs(claim.player, claim.club)}
    if waiting - set(claim.approved_by.values_list("pk", flat=True)):
        return False
    _claim_grant(claim)
    return True
