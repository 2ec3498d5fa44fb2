"""Charts for the history page, drawn on the server as SVG strings.

No chart library and no script: plain SVG with presentation attributes only (no ``style``
element or attribute, which the pages' Content-Security-Policy would block). Every piece of
text (a player's name comes from whoever set up the table) goes through :func:`esc`.

>>> svg = line_chart("pot", "King's pot", [0, 1, 2], [("King's pot", [0, 4, 2])], "Deal")
>>> svg.startswith("<svg") and "King&#x27;s pot" in svg and "<script" not in svg
True
"""

from __future__ import annotations

import html
import math
from collections.abc import Sequence
from typing import Any

from dealer_assist.games.registry import game_class

WIDTH = 640
PLOT_HEIGHT = 240
MARGIN_LEFT = 52
MARGIN_RIGHT = 18
MARGIN_TOP = 40
AXIS_SPACE = 44  # below the plot: tick labels and the axis name
FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif"
INK = "#14181c"
MUTED = "#4a535c"
GRID = "#d3d8d0"
# twelve colours told apart by most eyes (Okabe-Ito and Tol's), then the same with dashes
PALETTE = ("#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9", "#332288",
           "#882255", "#117733", "#999933", "#44aa99", "#aa4499")
DASHES = ("", "6 4", "2 3")


def esc(text: Any) -> str:
    """Text made safe inside SVG/XML content and attributes."""
    return html.escape(str(text), quote=True)


def colour(index: int) -> tuple[str, str]:
    """The stroke colour and dash pattern of series ``index``."""
    return PALETTE[index % len(PALETTE)], DASHES[(index // len(PALETTE)) % len(DASHES)]


def nice_step(span: float, ticks: int = 5) -> int:
    """A round tick step (1, 2, 5, 10, 20, 50...) giving about ``ticks`` ticks over ``span``."""
    if span <= 0:
        return 1
    raw = span / ticks
    power = 10 ** math.floor(math.log10(raw))
    for factor in (1, 2, 5, 10):
        if raw <= factor * power:
            return max(1, int(factor * power))
    return max(1, int(10 * power))


def text_width(text: str, size: float) -> float:
    """A fair guess of how wide ``text`` is drawn at font ``size`` (for laying out)."""
    return len(text) * size * 0.58


def svg_open(chart_id: str, title: str, desc: str, height: float, width: int) -> list[str]:
    return [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height:.0f}" '
        f'width="{width}" height="{height:.0f}" role="img" class="chart-svg" id="{esc(chart_id)}"'
        f' aria-labelledby="{esc(chart_id)}-title {esc(chart_id)}-desc" font-family="{FONT}">',
        f'<title id="{esc(chart_id)}-title">{esc(title)}</title>',
        f'<desc id="{esc(chart_id)}-desc">{esc(desc)}</desc>',
        f'<rect x="0" y="0" width="{width}" height="{height:.0f}" fill="#ffffff"/>',
        f'<text x="{MARGIN_LEFT}" y="24" font-size="17" font-weight="700" fill="{INK}">'
        f"{esc(title)}</text>",
    ]


def line_chart(
    chart_id: str, title: str, xs: Sequence[int], series: Sequence[tuple[str, Sequence[int]]],
    x_name: str, *, x_labels: Sequence[str] | None = None, legend: bool = False,
    from_zero: bool = True, width: int = WIDTH, x_notes: Sequence[str] | None = None,
) -> str:
    """Lines over ``xs`` (deal numbers), one per series ``(name, values)``; a legend under the
    plot when ``legend`` (each name with its last value). ``from_zero``: the y axis starts at 0
    (else near the lowest value, so that stacks of 100 moving by a few chips are not flat)."""
    values = [v for _, vs in series for v in vs]
    top = max([*values, 1])
    low = min([*values, 0]) if from_zero else min([*values, top - 1])
    step = nice_step(top - low)
    y_max = math.ceil(top / step) * step
    y_min = math.floor(low / step) * step
    if y_max == y_min:
        y_max = y_min + step
    plot_w = width - MARGIN_LEFT - MARGIN_RIGHT
    x_first, x_last = (xs[0], xs[-1]) if xs else (0, 1)
    x_span = max(1, x_last - x_first)

    def px(x: float) -> float:
        return MARGIN_LEFT + (x - x_first) / x_span * plot_w

    def py(y: float) -> float:
        return MARGIN_TOP + (y_max - y) / (y_max - y_min) * PLOT_HEIGHT

    legend_rows = legend_layout([f"{name} {vs[-1]}" if vs else name for name, vs in series],
                                width) if legend else []
    height = MARGIN_TOP + PLOT_HEIGHT + AXIS_SPACE + 22 * len({r for r, _ in legend_rows})
    desc = f"{title} over {len(xs)} points: " + "; ".join(
        f"{name} from {vs[0]} to {vs[-1]}" for name, vs in series if vs)
    out = svg_open(chart_id, title, desc, height, width)
    # horizontal grid lines and their values
    y = y_min
    while y <= y_max:
        out.append(f'<line x1="{MARGIN_LEFT}" y1="{py(y):.1f}" x2="{width - MARGIN_RIGHT}" '
                   f'y2="{py(y):.1f}" stroke="{GRID}" stroke-width="1"/>')
        out.append(f'<text x="{MARGIN_LEFT - 8}" y="{py(y) + 4:.1f}" font-size="13" '
                   f'text-anchor="end" fill="{MUTED}">{y:,}</text>')
        y += step
    # x ticks: every point when few, else round steps
    wide = width >= WIDTH
    tick_step = 1 if len(xs) <= (13 if wide else 8) else nice_step(x_span, 8 if wide else 5)
    labels = list(x_labels) if x_labels is not None else [str(x) for x in xs]
    for x, label in zip(xs, labels, strict=True):
        if (x - x_first) % tick_step and x != x_last:
            continue
        if x != x_last and x_last - x < tick_step / 2 and tick_step > 1:
            continue  # too close to the last tick's label
        out.append(f'<line x1="{px(x):.1f}" y1="{MARGIN_TOP + PLOT_HEIGHT}" x2="{px(x):.1f}" '
                   f'y2="{MARGIN_TOP + PLOT_HEIGHT + 5}" stroke="{MUTED}" stroke-width="1"/>')
        out.append(f'<text x="{px(x):.1f}" y="{MARGIN_TOP + PLOT_HEIGHT + 20}" font-size="13" '
                   f'text-anchor="middle" fill="{MUTED}">{esc(label)}</text>')
    out.append(f'<line x1="{MARGIN_LEFT}" y1="{py(y_min):.1f}" x2="{width - MARGIN_RIGHT}" '
               f'y2="{py(y_min):.1f}" stroke="{MUTED}" stroke-width="1.5"/>')
    out.append(f'<text x="{MARGIN_LEFT + plot_w / 2:.1f}" y="{MARGIN_TOP + PLOT_HEIGHT + 38}" '
               f'font-size="13" text-anchor="middle" fill="{MUTED}">{esc(x_name)}</text>')
    dots = len(xs) <= 30
    notes = list(x_notes) if x_notes is not None else [""] * len(xs)
    for index, (name, vs) in enumerate(series):
        stroke, dash = colour(index)
        points = " ".join(f"{px(x):.1f},{py(v):.1f}" for x, v in zip(xs, vs, strict=False))
        dash_attr = f' stroke-dasharray="{dash}"' if dash else ""
        out.append(f'<polyline points="{points}" fill="none" stroke="{stroke}" stroke-width="2.5"'
                   f' stroke-linejoin="round" stroke-linecap="round"{dash_attr} '
                   f'data-series="{esc(name)}"/>')
        if dots:
            for x, v, note in zip(xs, vs, notes, strict=False):
                out.append(f'<circle cx="{px(x):.1f}" cy="{py(v):.1f}" r="3.5" fill="{stroke}">'
                           f"<title>{esc(name)}: {v:,} after {esc(x_name.lower())} {x}"
                           f"{esc(note)}</title></circle>")
    base_y = MARGIN_TOP + PLOT_HEIGHT + AXIS_SPACE + 12
    for (row, left), (index, (name, vs)) in zip(legend_rows, enumerate(series), strict=False):
        stroke, dash = colour(index)
        y = base_y + row * 22
        dash_attr = f' stroke-dasharray="{dash}"' if dash else ""
        out.append(f'<line x1="{left:.1f}" y1="{y:.1f}" x2="{left + 18:.1f}" y2="{y:.1f}" '
                   f'stroke="{stroke}" stroke-width="3"{dash_attr}/>')
        last = f" {vs[-1]:,}" if vs else ""
        out.append(f'<text x="{left + 24:.1f}" y="{y + 5:.1f}" font-size="14" fill="{INK}">'
                   f'<tspan font-weight="650">{esc(name)}</tspan>{esc(last)}</text>')
    out.append("</svg>")
    return "\n".join(out)


def legend_layout(labels: Sequence[str], width: int) -> list[tuple[int, float]]:
    """(row, x) of each legend entry, filling rows left to right."""
    out: list[tuple[int, float]] = []
    row, x = 0, float(MARGIN_LEFT)
    for label in labels:
        entry = 24 + text_width(label, 14) + 18
        if x + entry > width - MARGIN_RIGHT and x > MARGIN_LEFT:
            row, x = row + 1, float(MARGIN_LEFT)
        out.append((row, x))
        x += entry
    return out


def bar_chart(chart_id: str, title: str, bars: Sequence[tuple[str, int]],
              notes: Sequence[str] = (), highlight: str | None = None, width: int = WIDTH) -> str:
    """Horizontal bars, one per ``(name, value)``, in the order given, with lines of ``notes``
    under them; ``highlight`` names the bar drawn in the winner's colour."""
    row_h = 30
    name_w = min(200.0, max([text_width(n, 15) for n, _ in bars] + [40.0]) + 12)
    height = MARGIN_TOP + row_h * len(bars) + 12 + 20 * len(notes)
    top = max([v for _, v in bars] + [1])
    plot_w = width - MARGIN_LEFT - MARGIN_RIGHT - name_w - 50
    desc = "; ".join(f"{n}: {v}" for n, v in bars) + "".join(f". {n}" for n in notes)
    out = svg_open(chart_id, title, desc, height, width)
    for i, (name, value) in enumerate(bars):
        y = MARGIN_TOP + i * row_h
        bar_x = MARGIN_LEFT + name_w
        fill = "#e0a800" if name == highlight else "#0072b2"
        out.append(f'<text x="{bar_x - 10:.1f}" y="{y + 19}" font-size="15" text-anchor="end" '
                   f'fill="{INK}" font-weight="{700 if name == highlight else 500}">'
                   f"{esc(name)}</text>")
        length = max(2.0, value / top * plot_w)
        out.append(f'<rect x="{bar_x:.1f}" y="{y + 5}" width="{length:.1f}" height="{row_h - 10}"'
                   f' rx="3" fill="{fill}" data-series="{esc(name)}"/>')
        out.append(f'<text x="{bar_x + length + 8:.1f}" y="{y + 19}" font-size="15" '
                   f'font-weight="700" fill="{INK}">{value:,}</text>')
    for i, note in enumerate(notes):
        y = MARGIN_TOP + row_h * len(bars) + 18 + 20 * i
        out.append(f'<text x="{MARGIN_LEFT}" y="{y}" font-size="14" fill="{MUTED}">'
                   f"{esc(note)}</text>")
    out.append("</svg>")
    return "\n".join(out)


# --------------------------------------------------------------------------- the page's charts
NARROW = 380  # the phone's variant: the same text size on a screen half as wide


def chart_id(base: str, width: int) -> str:
    return base if width >= WIDTH else f"{base}-narrow"


def finished_points(history: dict[str, Any]) -> list[dict[str, Any]]:
    """The deals that are over, in order (a deal in play has no 'after' yet)."""
    return [d for d in history["deals"] if not d["in_play"]]


def kings_pot_chart(history: dict[str, Any], width: int = WIDTH) -> str:
    deals = finished_points(history)
    xs = [0] + [d["number"] for d in deals]
    values = [0]
    for d in deals:  # a deal of another game leaves the king's pot as it was (R72)
        values.append(values[-1] if d["kings_pot_after"] is None else d["kings_pot_after"])
    return line_chart(chart_id("chart-kings-pot", width), "King's pot after each deal", xs,
                      [("King's pot", values)], "Deal", width=width)


def stacks_chart(history: dict[str, Any], width: int = WIDTH) -> str:
    deals = finished_points(history)
    game = game_class(history["variant"])
    xs = [0] + [d["number"] for d in deals]
    series = [(name, [history["starting_stacks"][name]]
               + [d["stacks_after"][name] for d in deals]) for name in history["players"]]
    title = game.stacks_chart_title
    labels = ["start"] + [str(x) for x in xs[1:]]
    # a night of several games names each deal's game on its points (R71)
    notes = [""] + ([f" ({d['variant_name']})" for d in deals]
                    if len(history.get("games", ())) > 1 else [""] * len(deals))
    return line_chart(chart_id("chart-stacks", width), title, xs, series,
                      game.deal_word, x_labels=labels, legend=True,
                      from_zero=game.stacks_from_zero, width=width, x_notes=notes)


def standings_chart(history: dict[str, Any], width: int = WIDTH) -> str | None:
    """A game's final standing (where the game has an end), with the tie-break draws (R56)
    under it."""
    game = history.get("game")
    if not game or not game.get("standings"):
        return None
    bars = [(s["name"], s["chips"]) for s in game["standings"]]
    draws = game.get("tiebreak_draws") or []
    notes = [("Tie-break draw: " if i == 0 else "then: ") + "; ".join(
        f"{n} {c}" for n, c in round_.items()) for i, round_ in enumerate(draws)]
    return bar_chart(chart_id("chart-standings", width),
                     f"Final standing: {game['game_winner']} wins", bars, notes,
                     highlight=game["game_winner"], width=width)
