"""QR codes of the join page: an SVG for the tablet, text for the terminal."""

from __future__ import annotations

import io
from typing import TextIO

import qrcode
import qrcode.image.svg

#: The terminal QR paints its own colours, black on white, whatever the terminal's theme: a
#: phone's camera needs dark modules on a light ground, and a light terminal's default of dark
#: text would otherwise draw the code inverted (unreadable). Two module rows fill one line.
BLACK_ON_WHITE = "\x1b[30;47m"
RESET = "\x1b[0m"
_HALVES = {(False, False): " ", (True, False): "▀", (False, True): "▄", (True, True): "█"}
QUIET_ZONE = 2  # modules of white around the code (the standard asks for 4; 2 reads fine)


def qr_svg(url: str) -> bytes:
    """The QR code of ``url`` as a standalone SVG document (paths only: no script, no style
    sheet, so it passes the pages' Content-Security-Policy)."""
    image = qrcode.make(url, image_factory=qrcode.image.svg.SvgPathImage, border=2)
    out = io.BytesIO()
    image.save(out)
    return out.getvalue()


def qr_text(url: str) -> str:
    """The QR code of ``url`` drawn with half-block characters, for a terminal.

    Each line is painted black (the characters) on white (their background) and reset at its
    end, so the code reads alike on a light and a dark terminal.
    """
    code = qrcode.QRCode(border=QUIET_ZONE)
    code.add_data(url)
    code.make(fit=True)
    dark = code.get_matrix()  # True = a dark module, the quiet zone included
    if len(dark) % 2:
        dark.append([False] * len(dark[0]))
    lines = []
    for top, bottom in zip(dark[::2], dark[1::2], strict=True):
        cells = "".join(_HALVES[a, b] for a, b in zip(top, bottom, strict=True))
        lines.append(f"{BLACK_ON_WHITE}{cells}{RESET}\n")
    return "".join(lines)


def print_qr(url: str, out: TextIO) -> None:
    out.write(qr_text(url))
