"""The club site's records, one module a kind (pages, news, photos…), all imported here so that
Django finds them."""

from .photos import Album, Photo

__all__ = ["Album", "Photo"]
