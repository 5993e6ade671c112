"""The club site's records, one module a kind (pages, news, photos…), all imported here so that
Django finds them."""
