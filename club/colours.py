"""Colours a club chooses, kept readable: WCAG's contrast ratio between two colours, and the
text colour that keeps at least 4.5:1 on the club's background (a projector across a room
washes out what little contrast a pale pair has)."""

from __future__ import annotations

READABLE = 4.5


def _channel(value: int) -> float:
    c = value / 255
    return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4


def luminance(colour: str) -> float:
    """The relative luminance of "#rrggbb" (WCAG 2)."""
    red, green, blue = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    return 0.2126 * _channel(red) + 0.7152 * _channel(green) + 0.0722 * _channel(blue)


def contrast(first: str, second: str) -> float:
    lighter, darker = sorted((luminance(first), luminance(second)), reverse=True)
    return (lighter + 0.05) / (darker + 0.05)


def readable_text(background: str, text: str) -> str:
    """The club's text colour if it reads on its background, else black or white, whichever
    reads better."""
    if contrast(background, text) >= READABLE:
        return text
    return max(("#000000", "#ffffff"), key=lambda candidate: contrast(background, candidate))
