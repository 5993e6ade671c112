"""The JSON API (``/api/v1/``): an interface over the same services and permission functions
as the site's pages (docs/api.md)."""
