"""``{{ player|name_for:viewer }}``: the name this page's reader sees for a player
(``club.names.name_shown``). ``viewer`` is in every page's context; a template without one
(an e-mail drawn without its recipient) names players as the public reads them."""

from typing import Any

from django import template

from club.models import Player
from club.names import Viewer, name_shown

register = template.Library()


@register.filter
def name_for(player: Player, viewer: Any) -> str:
    return name_shown(player, viewer if isinstance(viewer, Viewer) else None)
