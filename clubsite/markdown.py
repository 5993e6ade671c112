"""A club's text (a page, a news post) from Markdown to the HTML stored beside it: rendered
once when it is saved, never on a reader's request.

Two walls, each enough alone: markdown-it-py renders with raw HTML switched off (an admin's
``<script>`` or pasted ``<iframe>`` is shown as the text he typed), then nh3 keeps only the
tags and attributes below. Links go to http(s), mail and phone addresses or the site's own
pages; an image only from the site itself (its pages and uploads: the club's photos), never
from another site that would learn who reads the page. A link out of the site is marked
``rel="noopener nofollow"``. Headings get an ``id`` from their words (``## Petite misère`` is
``#petite-misere``), so that the point table links each contract to its rule."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

import nh3
from django.conf import settings
from django.utils.translation import gettext as _
from markdown_it import MarkdownIt
from markdown_it.rules_core import StateCore

from infra.slugs import slug_of

# A page's text is a few pages of rules; 100 000 characters is a small book. Longer is refused
# in words before anything is parsed.
TEXT_MAX = 100_000
# markdown-it stops nesting at this depth (a list is two levels: the list and its item) and
# drops what lies deeper: a text that reaches it is refused in words rather than cut short.
# Twenty nested lists or quotes is far past any club's rules; 10 000 are refused at once.
NESTING_MAX = 40

TAGS = {
    *("h1", "h2", "h3", "h4", "h5", "h6", "p", "br", "hr", "blockquote", "pre", "code"),
    *("ul", "ol", "li", "strong", "em", "s", "del", "a", "img"),
    *("table", "thead", "tbody", "tr", "th", "td"),
}
ATTRIBUTES = {
    "a": {"href", "title"},
    "img": {"src", "alt", "title"},
    "ol": {"start"},
    **{f"h{level}": {"id"} for level in range(1, 7)},
}
URL_SCHEMES = {"http", "https", "mailto", "tel"}
OUTSIDE_REL = "noopener nofollow"


class TextTooLong(ValueError):
    """A text over ``TEXT_MAX`` characters, refused in words."""

    def __init__(self, length: int) -> None:
        super().__init__(
            _("Le texte fait %(length)s caractères ; %(max)s au plus.")
            % {"length": f"{length:,}".replace(",", " "), "max": f"{TEXT_MAX:,}".replace(",", " ")}
        )


class TextTooDeep(ValueError):
    """Lists or quotes nested past ``NESTING_MAX``, refused in words."""

    def __init__(self) -> None:
        super().__init__(
            _("Le texte imbrique trop de listes ou de citations (%(max)s niveaux au plus).")
            % {"max": NESTING_MAX // 2}
        )


def _heading_ids(state: StateCore) -> None:
    """Each heading's ``id`` from its words, a number added when two headings say the same."""
    seen: dict[str, int] = {}
    tokens = state.tokens
    for index, token in enumerate(tokens):
        if token.type != "heading_open" or index + 1 >= len(tokens):
            continue
        anchor = slug_of(tokens[index + 1].content) or "titre"
        seen[anchor] = seen.get(anchor, 0) + 1
        token.attrSet("id", anchor if seen[anchor] == 1 else f"{anchor}-{seen[anchor]}")


# French puts a space before « : ; ! ? » and inside « guillemets »: typed as a plain space, a
# phone would break the line before the colon. Made unbreakable (narrow before ; ! ?).
FRENCH_SPACES = (
    (re.compile(r" ([;!?])"), "\u202f\\1"),
    (re.compile(r" ([:»])"), "\u00a0\\1"),
    (re.compile(r"« "), "«\u00a0"),
)


def _french_spaces(state: StateCore) -> None:
    for block in state.tokens:
        for token in block.children or ():
            if token.type == "text":
                for pattern, replacement in FRENCH_SPACES:
                    token.content = pattern.sub(replacement, token.content)


def _outside_links(state: StateCore) -> None:
    """``rel="noopener nofollow"`` on each link that leaves the site (nh3 marks every link
    or none; raw HTML being off, every link is one of these tokens)."""
    for block in state.tokens:
        for token in block.children or ():
            if token.type == "link_open" and not _is_own(str(token.attrGet("href") or "")):
                token.attrSet("rel", OUTSIDE_REL)


def _parser() -> MarkdownIt:
    parser = MarkdownIt(
        "commonmark", {"html": False, "typographer": False, "maxNesting": NESTING_MAX}
    ).enable(["table", "strikethrough"])
    parser.core.ruler.push("heading_ids", _heading_ids)
    parser.core.ruler.push("outside_links", _outside_links)
    parser.core.ruler.push("french_spaces", _french_spaces)
    return parser


PARSER = _parser()


def _is_own(url: str) -> bool:
    """A link or image of the site itself: a relative address (``/clubs/…``, ``photo.jpg``),
    or the uploads' address when they are served from elsewhere (object storage)."""
    parts = urlsplit(url)
    if not parts.scheme and not parts.netloc:
        return True
    media = str(settings.MEDIA_URL)
    return bool(urlsplit(media).netloc) and url.startswith(media)


def _attribute(tag: str, name: str, value: str) -> str | None:
    if tag == "img" and name == "src":
        return value if _is_own(value) else None
    if tag == "a" and name == "href" and value.startswith("//"):
        return None
    return value


CLEANER = nh3.Cleaner(
    tags=TAGS,
    clean_content_tags={"script", "style"},
    attributes=ATTRIBUTES,
    # Only the ``rel`` this module writes is kept on a link.
    tag_attribute_values={"a": {"rel": {OUTSIDE_REL}}},
    attribute_filter=_attribute,
    url_schemes=URL_SCHEMES,
    link_rel=None,
    strip_comments=True,
)


def rendered_html(text: str) -> str:
    """``text`` (Markdown) as clean HTML to store; ``TextTooLong`` past ``TEXT_MAX``,
    ``TextTooDeep`` when nested past ``NESTING_MAX``."""
    if len(text) > TEXT_MAX:
        raise TextTooLong(len(text))
    env: dict = {}
    tokens = PARSER.parse(text, env)
    if any(token.level >= NESTING_MAX - 1 for token in tokens):
        raise TextTooDeep
    return CLEANER.clean(PARSER.renderer.render(tokens, PARSER.options, env))
