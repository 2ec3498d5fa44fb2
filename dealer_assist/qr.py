"""QR codes of the join page: an SVG for the tablet, text for the terminal."""

from __future__ import annotations

import io
from typing import TextIO

import qrcode
import qrcode.image.svg


def qr_svg(url: str) -> bytes:
    """The QR code of ``url`` as a standalone SVG document (paths only: no script, no style
    sheet, so it passes the pages' Content-Security-Policy)."""
    image = qrcode.make(url, image_factory=qrcode.image.svg.SvgPathImage, border=2)
    out = io.BytesIO()
    image.save(out)
    return out.getvalue()


def qr_text(url: str) -> str:
    """The QR code of ``url`` drawn with block characters, for a terminal."""
    code = qrcode.QRCode(border=1)
    code.add_data(url)
    code.make(fit=True)
    out = io.StringIO()
    code.print_ascii(out=out, invert=True)
    return out.getvalue()


def print_qr(url: str, out: TextIO) -> None:
    out.write(qr_text(url))
