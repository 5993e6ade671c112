"""An e-mail's plain text (its subject, its text part) rendered as written.

Django's templates escape HTML by default, which is right for a page and for an e-mail's HTML
part, and wrong for plain text: a club named « Dupont & Fils » would read « Dupont &amp; Fils »
in a subject, a player named « O'Brien » « O&#x27;Brien ». Every plain text the site sends is
rendered here, with autoescape off, so that no text template depends on remembering
``{% autoescape off %}``; the HTML parts keep ``render_to_string``, escaped as every page."""

from __future__ import annotations

from typing import Any

from django.template import Context, engines


def plain_text(template_name: str, context: dict[str, Any]) -> str:
    """``template_name`` rendered by the site's Django template engine, nothing escaped."""
    # ``engines["django"].engine`` is the backend's ``Engine`` (documented): its templates
    # render a ``Context``, which alone can turn autoescape off for the whole render,
    # ``{% include %}`` included.
    template = engines["django"].engine.get_template(template_name)
    return template.render(Context(context, autoescape=False))


def subject_line(template_name: str, context: dict[str, Any]) -> str:
    """A subject: plain text on one line (a newline would end the header), spaces folded."""
    return " ".join(plain_text(template_name, context).split())
