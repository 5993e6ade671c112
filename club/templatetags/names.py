"""``{{ player|name_for:viewer }}``: the name this page's reader sees for a player
(``club.names.name_shown``). ``viewer`` is in every page's context (``club.names``' context
processor); a template drawn without a request (an e-mail) is given its reader's."""

from typing import Any

from django import template

from club.models import Player
from club.names import Viewer, name_shown

register = template.Library()


@register.filter
def name_for(player: Player, viewer: Any) -> str:
    # Anything but a viewer (an empty string for a missing one) reads as the public does.
    return name_shown(player, viewer if isinstance(viewer, Viewer) else None)
