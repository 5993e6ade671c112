"""``{{ player|name_for:name_reader }}``: the name this page's reader sees for a player
(``club.names.name_shown``). ``name_reader`` is in every page's context (``club.names``' context
processor); a template drawn without a request (an e-mail) is given its reader's."""

from typing import Any

from django import template

from club.models import Player
from club.names import NameReader, name_shown

register = template.Library()


@register.filter
def name_for(player: Player, reader: Any) -> str:
    # Anything but a reader (an empty string for a missing one) reads as the public does.
    return name_shown(player, reader if isinstance(reader, NameReader) else None)
