"""Charts for the history page, drawn on the server as SVG strings.

No chart library and no script: plain SVG with presentation attributes only (no ``style``
element or attribute, which the pages' Content-Security-Policy would block). Every piece of
text (a player's name comes from whoever set up the table) goes through :func:`esc`.

>>> svg = line_chart("pot", "Ann's pot", [0, 1, 2], [("Ann's pot", [0, 4, 2])], "Deal")
>>> svg.startswith("<svg") and "Ann&#x27;s pot" in svg and "<script" not in svg
True
"""

from __future__ import annotations

import html
import itertools
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import partial
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


@dataclass(frozen=True)
class Dot:
    """One point of a series: ``y`` at ``x``; ``mark`` (a lines.Mark value) draws it as a
    marker of its own, ``note`` is what its tooltip adds."""

    x: float
    y: int
    mark: str | None = None
    note: str = ""


# the markers of the points that are not a deal's result: a shape each, so that they are
# told apart without colour; an entry's own segment (a rebuy's jump) is dotted, not played
MARKERS = {"rebuy": "triangle", "adjust": "diamond", "cash_out": "square", "seat": "ring",
           "start": None}
MARKER_WORDS = {"rebuy": "rebuy", "adjust": "correction", "cash_out": "cash-out",
                "seat": "sat down"}
ENTRY_MARKS = ("rebuy", "adjust")  # a jump at one x that no deal made


def marker(shape: str, x: float, y: float, stroke: str, title: str) -> str:
    inner = f"<title>{esc(title)}</title>"
    if shape == "triangle":
        return (f'<path d="M{x:.1f},{y - 7:.1f} L{x + 6.5:.1f},{y + 5:.1f} L{x - 6.5:.1f},'
                f'{y + 5:.1f} Z" fill="{stroke}" stroke="#ffffff" stroke-width="1.5" '
                f'data-mark="rebuy">{inner}</path>')
    if shape == "diamond":
        return (f'<path d="M{x:.1f},{y - 7:.1f} L{x + 7:.1f},{y:.1f} L{x:.1f},{y + 7:.1f} '
                f'L{x - 7:.1f},{y:.1f} Z" fill="{stroke}" stroke="#ffffff" stroke-width="1.5" '
                f'data-mark="adjust">{inner}</path>')
    if shape == "square":
        return (f'<rect x="{x - 6:.1f}" y="{y - 6:.1f}" width="12" height="12" fill="{stroke}" '
                f'stroke="#ffffff" stroke-width="1.5" data-mark="cash_out">{inner}</rect>')
    return (f'<circle cx="{x:.1f}" cy="{y:.1f}" r="6" fill="#ffffff" stroke="{stroke}" '
            f'stroke-width="3" data-mark="seat">{inner}</circle>')


def series_chart(
    chart_id: str, title: str, series: Sequence[tuple[str, Sequence[Dot]]], x_name: str, *,
    x_labels: Mapping[float, str] | None = None, legend: bool = False, from_zero: bool = True,
    width: int = WIDTH, unit: str = "after",
) -> str:
    """Lines, one per series ``(name, dots)``, each over its own x's: a series starts at its
    first dot and ends at its last (a player who sat down late, or left). Several dots at one
    x are drawn as a jump; a jump a deal did not make (``ENTRY_MARKS``) is dotted, and every
    marked dot is a marker with its words. ``x_labels``: the ticks' labels (else the x's).
    ``from_zero``: the y axis holds 0 (else it starts near the lowest value)."""
    values = [d.y for _, dots in series for d in dots]
    top = max([*values, 1 if from_zero else (min(values) + 1 if values else 1)])
    low = min([*values, 0]) if from_zero else min([*values, top - 1])
    step = nice_step(top - low)
    y_max = math.ceil(top / step) * step
    y_min = math.floor(low / step) * step
    if y_max == y_min:
        y_max = y_min + step
    xs = sorted({d.x for _, dots in series for d in dots} | set(x_labels or {}))
    plot_w = width - MARGIN_LEFT - MARGIN_RIGHT
    x_first, x_last = (xs[0], xs[-1]) if xs else (0.0, 1.0)
    x_span = max(1.0, x_last - x_first)

    def px(x: float) -> float:
        return MARGIN_LEFT + (x - x_first) / x_span * plot_w

    def py(y: float) -> float:
        return MARGIN_TOP + (y_max - y) / (y_max - y_min) * PLOT_HEIGHT

    marks: list[str] = sorted({d.mark for _, dots in series for d in dots
                               if d.mark and MARKERS.get(d.mark)}, key=list(MARKERS).index)
    names = [f"{name} {dots[-1].y:,}" if dots else name for name, dots in series]
    legend_rows = legend_layout(names + [MARKER_WORDS[m] for m in marks], width) if legend \
        else []
    height = MARGIN_TOP + PLOT_HEIGHT + AXIS_SPACE + 22 * len({r for r, _ in legend_rows})
    desc = f"{title}: " + "; ".join(
        f"{name} from {dots[0].y:,} {unit} {x_label(x_labels, dots[0].x, x_name)} to "
        f"{dots[-1].y:,} {unit} {x_label(x_labels, dots[-1].x, x_name)}"
        for name, dots in series if dots)
    out = svg_open(chart_id, title, desc, height, width)
    y = y_min
    while y <= y_max:  # horizontal grid lines and their values; 0 drawn darker
        grid = MUTED if y == 0 and y_min < 0 else GRID
        out.append(f'<line x1="{MARGIN_LEFT}" y1="{py(y):.1f}" x2="{width - MARGIN_RIGHT}" '
                   f'y2="{py(y):.1f}" stroke="{grid}" stroke-width="1"/>')
        out.append(f'<text x="{MARGIN_LEFT - 8}" y="{py(y) + 4:.1f}" font-size="13" '
                   f'text-anchor="end" fill="{MUTED}">{y:,}</text>')
        y += step
    # x ticks: every x when few, else round steps
    wide = width >= WIDTH
    ticks = [x for x in xs if x == int(x)]
    tick_step = 1 if len(ticks) <= (13 if wide else 8) else nice_step(x_span, 8 if wide else 5)
    for x in ticks:
        if (x - x_first) % tick_step and x != x_last:
            continue
        if x != x_last and x_last - x < tick_step / 2 and tick_step > 1:
            continue  # too close to the last tick's label
        out.append(f'<line x1="{px(x):.1f}" y1="{MARGIN_TOP + PLOT_HEIGHT}" x2="{px(x):.1f}" '
                   f'y2="{MARGIN_TOP + PLOT_HEIGHT + 5}" stroke="{MUTED}" stroke-width="1"/>')
        label = (x_labels or {}).get(x, f"{x:g}")
        # a wide label at the plot's right end is drawn leftwards of its tick, not cut off
        anchor = "end" if x == x_last and text_width(label, 13) / 2 > MARGIN_RIGHT else "middle"
        out.append(f'<text x="{px(x):.1f}" y="{MARGIN_TOP + PLOT_HEIGHT + 20}" font-size="13" '
                   f'text-anchor="{anchor}" fill="{MUTED}">{esc(label)}</text>')
    out.append(f'<line x1="{MARGIN_LEFT}" y1="{py(y_min):.1f}" x2="{width - MARGIN_RIGHT}" '
               f'y2="{py(y_min):.1f}" stroke="{MUTED}" stroke-width="1.5"/>')
    out.append(f'<text x="{MARGIN_LEFT + plot_w / 2:.1f}" y="{MARGIN_TOP + PLOT_HEIGHT + 38}" '
               f'font-size="13" text-anchor="middle" fill="{MUTED}">{esc(x_name)}</text>')
    dots_shown = len(xs) <= 30
    for index, (name, dots) in enumerate(series):
        if not dots:
            continue
        stroke, dash = colour(index)
        out.append(f'<g data-series="{esc(name)}" data-first-x="{dots[0].x:g}" '
                   f'data-last-x="{dots[-1].x:g}">')
        out += series_lines(name, dots, stroke, dash, px, py)
        for dot in dots:
            shape = MARKERS.get(dot.mark or "")
            words = f"{name}: {dot.y:,} {unit} {x_label(x_labels, dot.x, x_name)}{dot.note}"
            if shape:
                out.append(marker(shape, px(dot.x), py(dot.y), stroke, words))
            elif dots_shown:
                out.append(f'<circle cx="{px(dot.x):.1f}" cy="{py(dot.y):.1f}" r="3.5" '
                           f'fill="{stroke}"><title>{esc(words)}</title></circle>')
        out.append("</g>")
    base_y = MARGIN_TOP + PLOT_HEIGHT + AXIS_SPACE + 12
    for i, (row, left) in enumerate(legend_rows):
        y = base_y + row * 22
        if i < len(series):
            stroke, dash = colour(i)
            dash_attr = f' stroke-dasharray="{dash}"' if dash else ""
            out.append(f'<line x1="{left:.1f}" y1="{y:.1f}" x2="{left + 18:.1f}" y2="{y:.1f}" '
                       f'stroke="{stroke}" stroke-width="3"{dash_attr}/>')
            name, dots = series[i]
            last = f" {dots[-1].y:,}" if dots else ""
            out.append(f'<text x="{left + 24:.1f}" y="{y + 5:.1f}" font-size="14" fill="{INK}">'
                       f'<tspan font-weight="650">{esc(name)}</tspan>{esc(last)}</text>')
        else:
            mark = marks[i - len(series)]
            out.append(marker(str(MARKERS[mark]), left + 9, y, MUTED, MARKER_WORDS[mark]))
            out.append(f'<text x="{left + 24:.1f}" y="{y + 5:.1f}" font-size="14" fill="{INK}">'
                       f"{esc(MARKER_WORDS[mark])}</text>")
    out.append("</svg>")
    return "\n".join(out)


def x_label(labels: Mapping[float, str] | None, x: float, x_name: str) -> str:
    shown = (labels or {}).get(x)
    return shown if shown is not None and not shown[:1].isdigit() else (
        f"{x_name.lower()} {shown or f'{x:g}'}")


def series_lines(name: str, dots: Sequence[Dot], stroke: str, dash: str,
                 px: Callable[[float], float], py: Callable[[float], float]) -> list[str]:
    """The series' path: runs a deal made solid, a rebuy's or a correction's jump dotted."""
    out: list[str] = []
    run = [dots[0]]
    dash_attr = f' stroke-dasharray="{dash}"' if dash else ""
    for before, dot in itertools.pairwise(dots):
        if dot.mark in ENTRY_MARKS:
            out.append(polyline(run, stroke, dash_attr, px, py))
            out.append(f'<line x1="{px(before.x):.1f}" y1="{py(before.y):.1f}" '
                       f'x2="{px(dot.x):.1f}" y2="{py(dot.y):.1f}" stroke="{stroke}" '
                       f'stroke-width="2" stroke-dasharray="2 3" data-entry="{dot.mark}"/>')
            run = [dot]
        else:
            run.append(dot)
    out.append(polyline(run, stroke, dash_attr, px, py))
    return [line for line in out if line]


def polyline(run: Sequence[Dot], stroke: str, dash_attr: str,
             px: Callable[[float], float], py: Callable[[float], float]) -> str:
    if len(run) < 2:
        return ""
    points = " ".join(f"{px(d.x):.1f},{py(d.y):.1f}" for d in run)
    return (f'<polyline points="{points}" fill="none" stroke="{stroke}" stroke-width="2.5" '
            f'stroke-linejoin="round" stroke-linecap="round"{dash_attr}/>')


def line_chart(
    chart_id: str, title: str, xs: Sequence[int], series: Sequence[tuple[str, Sequence[int]]],
    x_name: str, *, x_labels: Sequence[str] | None = None, legend: bool = False,
    from_zero: bool = True, width: int = WIDTH, x_notes: Sequence[str] | None = None,
) -> str:
    """Lines over the same ``xs`` (deal numbers), one per series ``(name, values)``."""
    notes = list(x_notes) if x_notes is not None else [""] * len(xs)
    labels: dict[float, str] | None = (dict(zip(xs, x_labels, strict=True))
                                       if x_labels is not None else None)
    return series_chart(chart_id, title, [
        (name, [Dot(x, v, None, note) for x, v, note in zip(xs, vs, notes, strict=False)])
        for name, vs in series], x_name, x_labels=labels, legend=legend, from_zero=from_zero,
        width=width)


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


def deal_labels(history: dict[str, Any]) -> dict[float, str]:
    """The x axis of a table's charts: "start", then each deal that is over."""
    return {0: "start", **{d["number"]: str(d["number"]) for d in finished_points(history)}}


def player_series(history: dict[str, Any], value: str) -> list[tuple[str, list[Dot]]]:
    """Each player's line (``value``: "stack" or "net"), from where they sat to where they
    left, with the deal's game named on its dots when the table played several (R71)."""
    several = len(history.get("games", ())) > 1
    games = {d["number"]: d["variant_name"] for d in history["deals"]}
    out = []
    for name in history["players"]:
        dots = []
        for p in history["lines"].get(name, []):
            note = (f" ({games[p['x']]})" if several and p["x"] in games and not p["mark"]
                    else f": {p['words']}" if p["words"] else "")
            dots.append(Dot(p["x"], p[value], p["mark"], note))
        out.append((name, dots))
    return out


def stacks_chart(history: dict[str, Any], width: int = WIDTH) -> str:
    game = game_class(history["variant"])
    return series_chart(chart_id("chart-stacks", width), game.stacks_chart_title,
                        player_series(history, "stack"), game.deal_word,
                        x_labels=deal_labels(history), legend=True,
                        from_zero=game.stacks_from_zero, width=width)


def net_chart(history: dict[str, Any], width: int = WIDTH) -> str:
    """Each player's net (stack plus cashed out, minus bought in) after each deal: a rebuy
    leaves it where it was."""
    game = game_class(history["variant"])
    return series_chart(chart_id("chart-net", width),
                        f"Net after each {game.deal_word.lower()}",
                        player_series(history, "net"), game.deal_word,
                        x_labels=deal_labels(history), legend=True, width=width)


def carried_chart(history: dict[str, Any], key: str, width: int = WIDTH) -> str:
    """A pot the table keeps between deals, after each deal: one line through every deal,
    the deals it waited through (another game's, R72) included and said so."""
    title = next(p["title"] for p in history["carried"] if p["key"] == key)
    dots, amount = [Dot(0, 0)], 0
    for deal in finished_points(history):
        pot = next((p for p in deal["carried_after"] if p["key"] == key), None)
        amount = pot["amount"] if pot is not None else amount
        waiting = f" (waiting through a {deal['variant_name']} deal)" if pot is None or \
            pot["waiting"] else ""
        dots.append(Dot(deal["number"], amount, None, waiting))
    return series_chart(chart_id(f"chart-{key.replace('_', '-')}", width),
                        f"{title} after each deal", [(title, dots)], "Deal",
                        x_labels=deal_labels(history), width=width)


def carried_charts(history: dict[str, Any]) -> dict[str, Callable[..., str]]:
    """The chart of each pot the table keeps, by its name in URLs (its key, dashed)."""
    return {p["key"].replace("_", "-"): partial(carried_chart, key=p["key"])
            for p in history["carried"]}


MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


def short_date(day: str) -> str:
    """"2026-11-27" as a tick label: "Nov 27"."""
    return f"{MONTHS[int(day[5:7]) - 1]} {int(day[8:10])}"


def league_chart(season: dict[str, Any], width: int = WIDTH) -> str:
    """Each person's net added up night by night, from their first night on (R78)."""
    nights = season["nights"]
    index = {night: i + 1 for i, night in enumerate(nights)}
    labels: dict[float, str] = {i: short_date(night) for night, i in index.items()}
    series = [(p["name"], [Dot(index[pt["night"]], pt["net"], None, "") for pt in p["points"]])
              for p in season["chart"]]
    return series_chart(chart_id("chart-league", width), "Net, added up night by night",
                        series, "Night", x_labels=labels, legend=True, width=width,
                        unit="on")


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
