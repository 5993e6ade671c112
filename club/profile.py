"""The member's profile: the form he fills in and the one service that saves it."""

from __future__ import annotations

import datetime
import io
import secrets
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from django import forms
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile, UploadedFile
from django.core.mail import send_mail
from django.core.validators import RegexValidator
from django.db import transaction
from django.db.models import Q
from django.template.defaultfilters import filesizeformat
from django.utils import timezone, translation
from django.utils.translation import gettext_lazy as _
from PIL import Image, ImageOps

from infra import throttle
from infra.mail_text import plain_text, subject_line

from .invitations import token_hash
from .language import LanguageSelect
from .models import EmailChange, Membership, Player, name_key
from .services import player_pages_changed

# A member's photo is shown small; 2 MB is plenty for a phone picture and keeps the media
# folder of a club's small server in check.
MAX_PHOTO_BYTES = 2 * 1024 * 1024
# Pages show the photo at most a few hundred pixels wide; a phone's 4000 px picture is cut down.
PHOTO_MAX_SIDE = 800
# A phone's picture has 12 to 50 megapixels … but a 2 MB file may claim far more (a PNG of
# 13 000 × 13 000 one colour is 0.5 MB) and take gigabytes to decode. The pixel count is read
# from the header and refused before anything is decoded.
MAX_PHOTO_PIXELS = 25_000_000
# Pillow's name of the format → the file extension the photo is stored under.
PHOTO_FORMATS = {"JPEG": "jpg", "PNG": "png", "WEBP": "webp"}

# What a member may change of his own player. The form takes nothing else: the user link,
# the names the club registered and the memberships are the club's business.
PROFILE_FIELDS = [
    "display_name",
    "photo",
    "email",
    "phone",
    "language",
    "public_name",
    "result_emails",
]


class PhotoField(forms.ImageField):
    """A photo checked on its content: size first (before Pillow reads anything), then the
    format Pillow detects in the bytes. The file name and the browser's content type are the
    sender's word and are ignored."""

    # The extension is not checked: a PNG sent as "photo.jpg" is a PNG, and is stored as one.
    default_validators: list[Any] = []
    default_error_messages = {
        "too_large": _(
            "La photo pèse %(size)s : le maximum est de %(limit)s. "
            "Envoyez une image plus petite ou réduite."
        ),
        "not_an_image": _(
            "Ce fichier n'est pas une image lisible. Envoyez une photo JPEG, PNG ou WebP."
        ),
        "wrong_format": _(
            "Les images %(format)s ne sont pas acceptées : envoyez une photo JPEG, PNG ou WebP."
        ),
        "too_many_pixels": _(
            "La photo a trop de pixels : %(limit)s mégapixels au plus. Envoyez une image réduite."
        ),
        "contradiction": _("Envoyez une nouvelle photo ou retirez l'actuelle, pas les deux."),
        "empty": _("Le fichier envoyé est vide."),
    }

    def to_python(self, data: Any) -> UploadedFile | None:
        upload = forms.FileField.to_python(self, data)
        if upload is None:
            return None
        if upload.size > MAX_PHOTO_BYTES:
            raise ValidationError(
                self.error_messages["too_large"],
                code="too_large",
                params={
                    "size": filesizeformat(upload.size),
                    "limit": filesizeformat(MAX_PHOTO_BYTES),
                },
            )
        upload.seek(0)
        content = io.BytesIO(upload.read())
        try:
            with _bombs_refused(), Image.open(content) as image:
                found = image.format
                width, height = image.size  # from the header: nothing decoded yet
                if width * height > MAX_PHOTO_PIXELS:
                    raise self._too_many_pixels()
                image.verify()
        except ValidationError:
            raise
        except (Image.DecompressionBombWarning, Image.DecompressionBombError):
            raise self._too_many_pixels() from None
        except Exception:
            # Pillow says "not an image" in many ways (OSError, SyntaxError, its bomb guard…):
            # for the member they all mean the same thing.
            raise ValidationError(
                self.error_messages["not_an_image"], code="not_an_image"
            ) from None
        if found not in PHOTO_FORMATS:
            raise ValidationError(
                self.error_messages["wrong_format"],
                code="wrong_format",
                params={"format": found or "?"},
            )
        return _fresh_copy(content.getvalue(), found)

    def _too_many_pixels(self) -> ValidationError:
        return ValidationError(
            self.error_messages["too_many_pixels"],
            code="too_many_pixels",
            params={"limit": MAX_PHOTO_PIXELS // 1_000_000},
        )


@contextmanager
def _bombs_refused() -> Iterator[None]:
    """Pillow's decompression-bomb warning as an error: an image it finds too large is never
    decoded, whatever the header's pixel count said."""
    with warnings.catch_warnings():
        warnings.simplefilter("error", Image.DecompressionBombWarning)
        yield


def _fresh_copy(data: bytes, found: str) -> SimpleUploadedFile:
    """The photo re-encoded: a phone's picture carries where and when it was taken (EXIF),
    which a public player page must not hand out. It is turned upright first, since the
    orientation tag goes with the rest."""
    with _bombs_refused(), Image.open(io.BytesIO(data)) as original:
        image = ImageOps.exif_transpose(original)
        image.thumbnail((PHOTO_MAX_SIDE, PHOTO_MAX_SIDE))
        if found == "JPEG" and image.mode not in ("RGB", "L"):
            image = image.convert("RGB")
        out = io.BytesIO()
        image.save(out, format=found)
    return SimpleUploadedFile(
        f"photo.{PHOTO_FORMATS[found]}", out.getvalue(), content_type=Image.MIME[found]
    )


PHONE = RegexValidator(
    r"^[0-9+() ./-]*$",
    _("Un numéro de téléphone ne contient que des chiffres, des espaces et + ( ) . / -"),
)


# How long the link sent to a new address works.
EMAIL_CHANGE_DAYS = 2


class ProfileForm(forms.ModelForm):
    photo = PhotoField(
        label=_("Photo"),
        required=False,
        widget=forms.ClearableFileInput(attrs={"accept": "image/jpeg,image/png,image/webp"}),
    )
    current_password = forms.CharField(
        label=_("Mot de passe actuel"),
        required=False,
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
        help_text=_("Demandé seulement pour changer d'adresse e-mail."),
    )

    class Meta:
        model = Player
        fields = PROFILE_FIELDS
        labels = {
            "display_name": _("Nom affiché"),
            "email": _("E-mail"),
            "phone": _("Téléphone"),
            "language": _("Langue du site et des e-mails"),
            "public_name": _("Sur les pages publiques"),
            "result_emails": _("Recevoir mes résultats par e-mail après chaque soirée"),
        }
        widgets = {
            "display_name": forms.TextInput(attrs={"autocomplete": "nickname"}),
            "email": forms.EmailInput(attrs={"autocomplete": "email"}),
            "phone": forms.TextInput(attrs={"type": "tel", "autocomplete": "tel"}),
            "public_name": forms.RadioSelect,
            "language": LanguageSelect,
        }

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["phone"].validators.append(PHONE)
        self.fields["display_name"].error_messages["required"] = _("Indiquez votre nom affiché.")
        # The address is also the account's: without it the member could not reset a
        # forgotten password. A player the club registered without one starts from the
        # account's address.
        email = self.fields["email"]
        email.required = True
        email.error_messages["required"] = _(
            "Indiquez votre adresse e-mail : elle sert aussi à retrouver votre mot de passe."
        )
        user = self.instance.user if self.instance.user_id else None
        if not self.instance.email and user is not None and user.email:
            self.initial["email"] = user.email

    def clean_display_name(self) -> str:
        name = " ".join(self.cleaned_data["display_name"].split())
        # Two players of one club under one name (whatever its case and accents) could not
        # be told apart on a sheet or a ranking: a member cannot take another's name.
        key = name_key(name)
        clubs = self.instance.memberships.current().values("club")
        others = (
            Player.objects.filter(
                Membership.objects.current_q("memberships"), memberships__club__in=clubs
            )
            .exclude(pk=self.instance.pk)
            .values_list("display_name", flat=True)
            .distinct()
        )
        if any(name_key(other) == key for other in others):
            raise ValidationError(
                _("« %(name)s » est déjà le nom d'un autre joueur de votre club."),
                code="name_taken",
                params={"name": name},
            )
        return name

    @property
    def email_changing(self) -> bool:
        """The member asks for another address than his account's: it waits for his link."""
        user = self.instance.user if self.instance.user_id else None
        email = (self.cleaned_data.get("email") or "").lower()
        return bool(email) and user is not None and email != (user.email or "").lower()

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        if self.email_changing and "email" in cleaned:
            user = self.instance.user
            password = cleaned.get("current_password") or ""
            account = f"user:{user.pk}"
            if throttle.exceeded(throttle.LOGIN_ACCOUNT, account):
                self.add_error("current_password", _("Trop d'essais : réessayez plus tard."))
            elif not password:
                self.add_error(
                    "current_password",
                    _("Pour changer d'adresse e-mail, indiquez votre mot de passe actuel."),
                )
            elif not user.check_password(password):
                throttle.record(throttle.LOGIN_ACCOUNT, account)
                self.add_error("current_password", _("Ce n'est pas votre mot de passe actuel."))
        return cleaned

    def clean_email(self) -> str:
        email = self.cleaned_data["email"].strip()
        user_id = self.instance.user_id
        # Password reset finds the account by e-mail: two accounts on one address would both
        # get a link, and the member would not know which one is his.
        taken = (
            get_user_model()
            .objects.filter(Q(email__iexact=email) | Q(username__iexact=email))
            .exclude(pk=user_id)
            .exists()
            if email
            else False
        )
        if taken:
            raise ValidationError(
                _("Cette adresse e-mail est déjà celle d'un autre compte du site."),
                code="email_taken",
            )
        return email


@transaction.atomic
def profile_update(
    player: Player, form: ProfileForm, link_for: Callable[[str], str] | None = None
) -> EmailChange | None:
    """Save the member's own profile. A new address is not his yet: it is sent a link
    (``link_for(token)`` is its absolute address), and the change waits for it; returned.

    ``form`` must be a valid ``ProfileForm`` of this very player. The old photo file is
    removed only once the change is committed, so a failure leaves the profile as it was.
    """
    if form.instance.pk != player.pk:
        raise ValueError("a member's profile form saves his own player only")
    if not form.is_valid():
        raise ValidationError(form.errors)
    old_photo = form.initial.get("photo")
    old_name = old_photo.name if old_photo else ""
    changing = form.email_changing
    saved = form.save(commit=False)
    new_email = saved.email
    if changing:
        saved.email = player.email
    # The name's stored keys follow the name (the search's and the lists' order).
    saved.save(update_fields=[*PROFILE_FIELDS, "name_key", "sort_key", "sort_key_bare"])
    # His public name or photo may have changed: the public pages must not show the old ones.
    player_pages_changed(saved)
    if old_name and old_name != saved.photo.name:
        storage = saved.photo.storage
        transaction.on_commit(lambda: storage.delete(old_name))
    if not changing:
        return None
    if link_for is None:
        raise ValueError("a new address needs link_for to be sent its link")
    return _email_change_request(saved, new_email, link_for)


def _email_change_request(
    player: Player, email: str, link_for: Callable[[str], str]
) -> EmailChange:
    EmailChange.objects.filter(player=player).delete()  # the latest request only
    token = secrets.token_urlsafe(32)
    change = EmailChange.objects.create(player=player, email=email, token_hash=token_hash(token))
    context = {"player": player, "email": email, "link": link_for(token), "days": EMAIL_CHANGE_DAYS}
    with translation.override(player.language or settings.LANGUAGE_CODE):
        subject = subject_line("email/email_change_subject.txt", context)
        body = plain_text("email/email_change.txt", context)
    send_mail(subject, body, None, [email], fail_silently=False)
    return change


def email_change_for_token(token: str) -> EmailChange | None:
    if not token:
        return None
    oldest = timezone.now() - datetime.timedelta(days=EMAIL_CHANGE_DAYS)
    return (
        EmailChange.objects.select_related("player__user")
        .filter(token_hash=token_hash(token), created__gt=oldest)
        .first()
    )


@transaction.atomic
def email_change_confirm(change: EmailChange) -> Player:
    """The new address opened its link: it becomes the member's e-mail, and his login when
    he logged in with his address (an invited member's username is his address)."""
    change = (
        EmailChange.objects.select_for_update(of=("self",))
        .select_related("player__user")
        .get(pk=change.pk)
    )
    player, user = change.player, change.player.user
    users = get_user_model().objects.exclude(pk=user.pk if user else None)
    if users.filter(Q(email__iexact=change.email) | Q(username__iexact=change.email)).exists():
        raise ValidationError(_("Cette adresse e-mail est déjà celle d'un autre compte du site."))
    player.email = change.email
    player.save(update_fields=["email"])
    if user is not None:
        if user.username.lower() == (user.email or "").lower():
            user.username = change.email.lower()
        user.email = change.email
        user.save(update_fields=["username", "email"])
    EmailChange.objects.filter(player=player).delete()
    return player
