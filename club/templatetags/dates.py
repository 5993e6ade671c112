"""``{{ value|date:"j F" }}`` with « 1er » for the first of the month in French
(``infra.dates``): a builtin of the Django templates (``config/settings.py``), so it stands in
for Django's own ``date`` filter on every page and e-mail, with the same arguments."""

from typing import Any

from django import template
from django.template.defaultfilters import date as django_date

from infra.dates import ordinal_format

register = template.Library()


@register.filter(expects_localtime=True, is_safe=False)
def date(value: Any, arg: str | None = None) -> str:
    if value in (None, ""):
        return django_date(value, arg)
    return django_date(value, ordinal_format(value, arg or "DATE_FORMAT"))
