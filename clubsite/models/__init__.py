"""The club site's records, one module a kind (pages, news, photos…), all imported here so that
Django finds them."""

from .contact import ContactMessage  # noqa: F401
from .news import NewsEmail, NewsPost, NewsReader  # noqa: F401
