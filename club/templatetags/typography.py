"""``{% colon %}``: the colon after a label, as the reader's language writes it;
``{% elide name … %}…{% endelide %}``: the names of the sentence inside joined to their « de »
or « à » as French writes them (« d'Ann », « des As »): both from ``infra.typography``."""

from django import template
from django.utils.safestring import SafeString, mark_safe

from infra import typography

register = template.Library()


@register.simple_tag
def colon() -> str:
    return typography.colon()


class ElideNode(template.Node):
    def __init__(self, nodelist: template.NodeList, names: list[template.base.FilterExpression]):
        self.nodelist = nodelist
        self.names = names

    def render(self, context: template.Context) -> SafeString:
        names = [str(name.resolve(context, ignore_failures=True) or "") for name in self.names]
        html = self.nodelist.render(context)
        # The sentence is already escaped HTML: the names are matched as escaped too.
        return mark_safe(typography.elided(html, *names, html=context.autoescape))


@register.tag
def elide(parser: template.base.Parser, token: template.base.Token) -> ElideNode:
    """``{% elide club.name player.display_name %}`` … ``{% endelide %}``."""
    names = [parser.compile_filter(bit) for bit in token.split_contents()[1:]]
    if not names:
        raise template.TemplateSyntaxError("{% elide %} names the names it joins.")
    nodelist = parser.parse(("endelide",))
    parser.delete_first_token()
    return ElideNode(nodelist, names)
