"""Writes the Belgian whist preset grids from the formulas of scoring-rules.md §1.3–1.5.

The JSON files are the source of truth the engine reads; this script only records where their
numbers come from. Run it from the project root: ``python scoring/tables/build_belgian_whist.py``.
"""

import json
from pathlib import Path

HERE = Path(__file__).parent


def grid(side, made, failed, needed, exact=False):
    """Per-player value ``u`` for t = 0 … 13, turned into declarer / defender points."""
    units = []
    for t in range(14):
        ok = t == needed if exact else t >= needed
        units.append(made(t) if ok else failed(t))
    if side == "pair":
        return units, [-u for u in units]
    return [3 * u for u in units], [-u for u in units]


def row(contract, bid, side, needed, made, failed, exact=False, deal_tricks=13):
    declarer, defender = grid(side, made, failed, needed, exact)
    data = {"contract": contract, "bid": bid, "side": side, "needed": needed}
    if deal_tricks != 13:
        data["deal_tricks"] = deal_tricks
    data["declarer"] = declarer
    data["defender"] = defender
    return data


def constant(made_u, failed_u):
    return (lambda t: made_u), (lambda t: failed_u)


def rcwhist():
    rows = []
    for b in range(8, 14):
        rows.append(
            row(
                "emballage",
                b,
                "pair",
                b,
                lambda t, b=b: 13 if t == 13 else 4 + (t - b),
                lambda t, b=b: -(6 + 2 * (b - t - 1)),
            )
        )
    for b in (6, 7, 8):
        rows.append(
            row("solo", b, "solo", b, lambda t, b=b: 2 + (t - b), lambda t, b=b: -(2 + (b - t)))
        )
    rows.append(row("petite_misere", None, "each", 0, *constant(4, -6), exact=True, deal_tricks=12))
    rows.append(row("solo_sur_misere", 8, "solo", 8, *constant(5, -7)))
    rows.append(row("abondance", 9, "solo", 9, *constant(6, -9)))
    for b in (8, 9):
        rows.append(row("trou", b, "pair", b, lambda t: 16 if t == 13 else 8, lambda t: -8))
    rows.append(row("grande_misere", None, "each", 0, *constant(8, -12), exact=True))
    rows.append(row("grande_misere_table", None, "solo", 0, *constant(16, -16), exact=True))
    rows.append(row("petit_chelem", 11, "solo", 11, *constant(20, -20)))
    rows.append(row("chelem", 13, "solo", 13, *constant(30, -30)))
    return {"label": "RCWhist La Chevalerie (tableau des clubs wallons)", "rows": rows}


def whisthub():
    rows = []
    for b in range(8, 14):
        rows.append(
            row(
                "emballage",
                b,
                "pair",
                b,
                lambda t: 30 if t == 13 else 3 * t - 16,
                lambda t, b=b: -((3 * b - 16) + 3 * (b - t)),
            )
        )
    for b in (5, 6, 7):
        rows.append(
            row("solo", b, "solo", b, lambda t: min(t - 2, 6), lambda t, b=b: -((b - 2) + (b - t)))
        )
    rows.append(row("solo", 8, "solo", 8, lambda t: 7, lambda t: -(7 + (8 - t))))
    by_tricks = {9: 10, 10: 15, 11: 20, 12: 30, 13: 30}
    for b in (9, 10, 11, 12):
        rows.append(
            row("abondance", b, "solo", b, lambda t: by_tricks[t], lambda t, b=b: -by_tricks[b])
        )
    rows.append(row("petite_misere", None, "each", 0, *constant(6, -6), exact=True, deal_tricks=12))
    rows.append(row("piccolo", None, "each", 1, *constant(8, -8), exact=True))
    rows.append(row("grande_misere", None, "each", 0, *constant(12, -12), exact=True))
    rows.append(row("grande_misere_table", None, "each", 0, *constant(24, -24), exact=True))
    for b in (8, 9):
        rows.append(row("trou", b, "pair", b, lambda t: 30 if t == 13 else 16, lambda t: -16))
    rows.append(row("chelem", 13, "solo", 13, *constant(60, -60)))
    return {"label": "Whisthub (standard en ligne)", "rows": rows}


def iwwa():
    rows = [
        row(
            "emballage",
            8,
            "pair",
            8,
            lambda t: 14 if t == 13 else 2 + (t - 8),
            lambda t: -(6 + 2 * (8 - t - 1)),
        )
    ]
    rows.append(
        row(
            "solo",
            5,
            "solo",
            5,
            lambda t: 20 if t == 13 else 2 + (t - 5),
            lambda t: -(4 + 2 * (5 - t - 1)),
        )
    )
    for b in (8, 9):
        rows.append(
            row(
                "trou",
                b,
                "pair",
                b,
                # All 13 tricks double the row's own formula at 13, as every other row here:
                # 2·(4 + 2·(13 − b)) gives 28 for trou 8 and 24 for trou 9 (§1.5's decision).
                lambda t, b=b: 2 * (4 + 2 * (13 - b)) if t == 13 else 4 + 2 * (t - b),
                lambda t, b=b: -(6 + 2 * (b - t - 1)),
            )
        )
    for b, u in ((9, 5), (10, 6), (11, 8), (12, 9)):
        rows.append(row("abondance", b, "solo", b, *constant(u, -u)))
    rows.append(row("grande_misere", None, "each", 0, *constant(7, -7), exact=True))
    rows.append(row("grande_misere_table", None, "each", 0, *constant(14, -14), exact=True))
    rows.append(row("chelem", 13, "solo", 13, *constant(30, -30)))
    return {"label": "IWWA (championnat de Belgique)", "rows": rows}


def write(name, table):
    data = {
        "format": "point-table/1",
        "game": "belgian_whist",
        "name": name,
        "label": table["label"],
        "zero_sum": True,
        "rows": table["rows"],
    }
    lines = [f"    {json.dumps(r, ensure_ascii=False)}" for r in data["rows"]]
    head = {k: v for k, v in data.items() if k != "rows"}
    text = json.dumps(head, ensure_ascii=False, indent=2)[:-2] + ',\n  "rows": [\n'
    text += ",\n".join(lines) + "\n  ]\n}\n"
    assert json.loads(text) == data
    (HERE / f"{name}.json").write_text(text, encoding="utf-8")


if __name__ == "__main__":
    write("rcwhist", rcwhist())
    write("whisthub", whisthub())
    write("iwwa", iwwa())
