"""A club's pages written, restored and deleted: one function per change, each in one
transaction, each keeping a version of what it saved (who, when).

The text is rendered here, once (``clubsite.markdown``); the slug is checked against the
site's own addresses (``clubsite.reserved``), so a page never hides ``gestion/``."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from club.models import Club
from infra.slugs import slug_of

from .markdown import TextTooDeep, TextTooLong, rendered_html
from .models import SLUG_MAX, Page, PageVersion
from .reserved import reserved_slugs

# What an admin writes; ``html`` and ``version`` are this module's.
WRITTEN_FIELDS = ("title", "slug", "text", "language", "members_only", "position")


def slug_refusal(slug: str) -> str | None:
    """Why ``slug`` may not be a page's address, in words; None when it may."""
    if not slug:
        return _("Donnez à la page un titre ou une adresse faite de lettres ou de chiffres.")
    if slug in reserved_slugs():
        return _(
            "L'adresse « %(slug)s » est celle d'une page du site (/clubs/…/%(slug)s/) : "
            "choisissez-en une autre."
        ) % {"slug": slug}
    return None


def _checked(page: Page) -> None:
    """The page's slug taken from its title when left empty, checked, its text rendered: a
    refusal in words raises ``ValidationError`` before anything is written."""
    # A typed address is written as one taken from the title (lower case, no accent): so
    # "GESTION" is refused as "gestion" is.
    page.slug = slug_of(page.slug or page.title, SLUG_MAX)
    refusal = slug_refusal(page.slug)
    if refusal:
        raise ValidationError({"slug": refusal})
    try:
        page.html = rendered_html(page.text)
    except (TextTooLong, TextTooDeep) as error:
        raise ValidationError({"text": str(error)}) from None
    page.full_clean()


def _version_keep(page: Page, by: AbstractBaseUser | None, restored_from: int | None) -> None:
    page.version += 1
    try:
        with transaction.atomic():
            page.save()
    except IntegrityError:
        # Another admin took the address between the check and the save.
        raise ValidationError({"slug": _("Le club a déjà une page à cette adresse.")}) from None
    PageVersion.objects.create(
        page=page,
        number=page.version,
        saved_by=by if by is not None and by.is_authenticated else None,
        restored_from=restored_from,
        **{field: getattr(page, field) for field in Page.CONTENT_FIELDS},
    )


@transaction.atomic
def page_create(club: Club, fields: dict[str, Any], by: AbstractBaseUser | None) -> Page:
    page = Page(club=club, **{k: v for k, v in fields.items() if k in WRITTEN_FIELDS})
    _checked(page)
    _version_keep(page, by, None)
    return page


@transaction.atomic
def page_update(page: Page, fields: dict[str, Any], by: AbstractBaseUser | None) -> Page:
    """The page with ``fields`` changed, as its next version (the one before kept)."""
    page = Page.objects.select_for_update().get(pk=page.pk)
    for field, value in fields.items():
        if field in WRITTEN_FIELDS:
            setattr(page, field, value)
    _checked(page)
    _version_keep(page, by, None)
    return page


@transaction.atomic
def page_restore(page: Page, number: int, by: AbstractBaseUser | None) -> Page:
    """Version ``number`` of the page put back, as its next version: nothing is lost, the
    version it replaces stays in the history. Its slug is checked again (an address the site
    took since is refused); its text is rendered again by today's rules."""
    page = Page.objects.select_for_update().get(pk=page.pk)
    try:
        old = page.versions.get(number=number)
    except PageVersion.DoesNotExist:
        raise ValidationError(_("Cette page n'a pas de version %(n)s.") % {"n": number}) from None
    for field in WRITTEN_FIELDS:
        setattr(page, field, getattr(old, field))
    _checked(page)
    _version_keep(page, by, number)
    return page


@transaction.atomic
def page_delete(page: Page) -> None:
    """The page and its history gone (the admin confirmed it on its own page)."""
    page.delete()
