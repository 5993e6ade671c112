"""``{% colon %}``: the colon after a label, as the reader's language writes it
(``club.typography``)."""

from django import template

from club import typography

register = template.Library()


@register.simple_tag
def colon() -> str:
    return typography.colon()
