"""``{% colon %}``: the colon after a label, as the reader's language writes it
(``infra.typography``)."""

from django import template

from infra import typography

register = template.Library()


@register.simple_tag
def colon() -> str:
    return typography.colon()
