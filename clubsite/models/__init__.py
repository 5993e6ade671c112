"""The club site's records, one module a kind (pages, news, photos…), all imported here so that
Django finds them."""

from .pages import LANGUAGE_CHOICES, SLUG_MAX, Page, PageVersion
from .photos import Album, Photo

__all__ = ["LANGUAGE_CHOICES", "SLUG_MAX", "Album", "Page", "PageVersion", "Photo"]
