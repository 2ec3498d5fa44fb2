"""The terminal's QR code reads on a light and on a dark terminal.

The text ``qr_text`` prints is drawn as a terminal would draw it (each character cell in the
colours its escape codes and the theme give), once with a light theme and once with a dark
one, and the picture is decoded by a real QR decoder (OpenCV's).
"""

from __future__ import annotations

import io
import re

import numpy as np
import pytest
import qrcode

cv2 = pytest.importorskip("cv2")

from dealer_assist.web.qr import qr_text  # noqa: E402 - after the decoder is known to be there

URL = "http://192.168.1.23:5000/"
CELL_W, CELL_H = 6, 12  # a terminal cell is twice as tall as it is wide


class Theme:
    def __init__(self, name: str, fg: int, bg: int, black: int, white: int) -> None:
        self.name, self.fg, self.bg, self.black, self.white = name, fg, bg, black, white


LIGHT = Theme("light", fg=0, bg=255, black=0, white=229)
DARK = Theme("dark", fg=204, bg=30, black=46, white=229)

_SGR = re.compile(r"\x1b\[([0-9;]*)m")


def render(text: str, theme: Theme) -> np.ndarray:
    """A grey-scale picture of ``text`` in a terminal: ANSI colours 30/37 and 40/47, 39/49
    and 0 understood; the block characters half or wholly in the foreground colour."""
    lines = text.split("\n")
    width = max(len(_SGR.sub("", line)) for line in lines) + 4
    image = np.full(((len(lines) + 4) * CELL_H, width * CELL_W), theme.bg, dtype=np.uint8)
    fg, bg = theme.fg, theme.bg
    for row, line in enumerate(lines, start=2):
        col = 2
        pos = 0
        while pos < len(line):
            found = _SGR.match(line, pos)
            if found:
                for code in (found.group(1) or "0").split(";"):
                    n = int(code or 0)
                    if n == 0:
                        fg, bg = theme.fg, theme.bg
                    elif n in (30, 37):
                        fg = theme.black if n == 30 else theme.white
                    elif n in (40, 47):
                        bg = theme.black if n == 40 else theme.white
                    elif n == 39:
                        fg = theme.fg
                    elif n == 49:
                        bg = theme.bg
                pos = found.end()
                continue
            char = line[pos]
            top = fg if char in "▀█" else bg
            bottom = fg if char in "▄█" else bg
            y, x = row * CELL_H, col * CELL_W
            image[y:y + CELL_H // 2, x:x + CELL_W] = top
            image[y + CELL_H // 2:y + CELL_H, x:x + CELL_W] = bottom
            col += 1
            pos += 1
    return image


def decode(image: np.ndarray) -> str:
    text, _points, _straight = cv2.QRCodeDetector().detectAndDecode(image)
    return str(text)


@pytest.mark.parametrize("theme", [LIGHT, DARK], ids=lambda t: t.name)
def test_terminal_qr_decodes_on_light_and_dark_terminals(theme: Theme) -> None:
    assert decode(render(qr_text(URL), theme)) == URL


def test_terminal_qr_lines_paint_their_own_colours_and_reset() -> None:
    lines = qr_text(URL).splitlines()
    assert all(line.startswith("\x1b[30;47m") and line.endswith("\x1b[0m") for line in lines)


def test_the_old_uncoloured_qr_fails_on_one_theme() -> None:
    """The check can fail: the code drawn as before (block characters in the terminal's own
    colours) reads on a dark terminal only."""
    code = qrcode.QRCode(border=1)
    code.add_data(URL)
    code.make(fit=True)
    out = io.StringIO()
    code.print_ascii(out=out, invert=True)
    old = out.getvalue()
    assert decode(render(old, DARK)) == URL
    assert decode(render(old, LIGHT)) != URL
