"""The one slug rule: a name as an address writes it, every letter kept as a reader would
spell it in ASCII. Django's ``slugify`` only drops accents, so « Cercle des Cœurs » lost its
« œ » (``cercle-des-curs``) and « Straße » its « ß »; the letters Unicode does not decompose are
spelled out here first (œ → oe, æ → ae, ß → ss, ø → o, ł → l, đ → d, þ → th …)."""

from django.utils.text import slugify

# The letters without a decomposition to ASCII, as a French or Belgian reader spells them.
SPELLED = str.maketrans(
    {
        "œ": "oe",
        "Œ": "OE",
        "æ": "ae",
        "Æ": "AE",
        "ß": "ss",
        "ẞ": "SS",
        "ø": "o",
        "Ø": "O",
        "ł": "l",
        "Ł": "L",
        "đ": "d",
        "Đ": "D",
        "ð": "d",
        "Ð": "D",
        "þ": "th",
        "Þ": "Th",
        "ı": "i",
        "ħ": "h",
        "Ħ": "H",
        "ŧ": "t",
        "Ŧ": "T",
        "ŋ": "ng",
        "Ŋ": "Ng",
        "’": "-",
        "'": "-",
    }
)


def slug_of(text: str, max_length: int | None = None) -> str:
    """``text`` as an address: lower case ASCII words joined by hyphens, cut at
    ``max_length`` without a hyphen left dangling ("" when nothing is left)."""
    slug = slugify(text.translate(SPELLED))
    if max_length is not None:
        slug = slug[:max_length].strip("-")
    return slug
