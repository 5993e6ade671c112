"""The club site's records, one module a kind (pages, news, photos…), all imported here so that
Django finds them."""

from .contact import ContactMessage
from .news import NewsEmail, NewsPost, NewsReader
from .pages import LANGUAGE_CHOICES, SLUG_MAX, Page, PageVersion
from .photos import Album, Photo

__all__ = [
    "LANGUAGE_CHOICES",
    "SLUG_MAX",
    "Album",
    "ContactMessage",
    "NewsEmail",
    "NewsPost",
    "NewsReader",
    "Page",
    "PageVersion",
    "Photo",
]
