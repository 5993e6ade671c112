"""A club's text in Markdown, made into HTML once, when it is saved: parsed by markdown-it-py
(CommonMark with tables, no raw HTML) and cleaned by nh3, so that nothing a club admin types
— or pastes from an old site — runs in a visitor's browser."""

from __future__ import annotations

import nh3
from markdown_it import MarkdownIt

# CommonMark plus tables and strike-through; raw HTML is text, not markup.
_parser = MarkdownIt("commonmark", {"html": False}).enable(["table", "strikethrough"])

_TAGS = {
    *("p", "br", "hr", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote", "pre", "code"),
    *("ul", "ol", "li", "strong", "em", "s", "a", "img"),
    *("table", "thead", "tbody", "tr", "th", "td"),
}
_ATTRIBUTES = {
    "a": {"href", "title"},
    "img": {"src", "alt", "title"},
    "ol": {"start"},
    "th": {"style"},
    "td": {"style"},
}


def rendered_html(text: str) -> str:
    """``text`` as safe HTML: no script, no event attribute, only http(s) and mail links
    (never ``javascript:`` nor ``data:``), links ``rel="noopener nofollow"``."""
    return nh3.clean(
        _parser.render(text),
        tags=_TAGS,
        attributes=_ATTRIBUTES,
        url_schemes={"http", "https", "mailto"},
        link_rel="noopener nofollow",
        filter_style_properties={"text-align"},
    )
