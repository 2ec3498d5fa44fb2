"""JSON out through orjson: every state the server sends, over HTTP and Socket.IO.

A state of a full table of 22 players buying cards is about 5 KB, and every dealer tap encodes it
three times (the phones' event, the dealer's event, the dealer's answer). The standard library's
encoder takes about 55 µs for one, orjson about 7 (docs/benchmarks.md, "Live fan-out").
Reading JSON stays with the standard library: requests are small, and its errors are the
ones our refusals are written for.

For the values we send (dicts with keys in their own order, lists, str, int, float, bool,
None), orjson writes the JSON that ``json.dumps`` with compact separators writes, except
that text stays UTF-8 instead of ``\\u`` escapes: the same values read back. For anything it
cannot write, an integer beyond 64 bits or a type it does not know, we fall back to the
standard library, so an answer never fails where it used to work.

>>> dumps({"seq": 3, "players": [{"name": "Ann", "stack": 98}], "result": None})
'{"seq":3,"players":[{"name":"Ann","stack":98}],"result":null}'
>>> dumps({"big": 2 ** 70})
'{"big":1180591620717411303424}'
"""

from __future__ import annotations

import json
from typing import Any

import orjson
from flask.json.provider import DefaultJSONProvider
from socketio.packet import ACK, EVENT, Packet

_OPTIONS = orjson.OPT_NON_STR_KEYS  # int keys become strings, as with json.dumps


def dumps(obj: Any, **_ignored: Any) -> str:
    """Compact JSON text of ``obj`` (keyword arguments such as ``separators`` are accepted
    for python-socketio's sake: the output is always compact)."""
    try:
        return orjson.dumps(obj, option=_OPTIONS).decode()
    except TypeError:  # orjson.JSONEncodeError: beyond 64 bits, or a type it does not know
        return json.dumps(obj, separators=(",", ":"), default=DefaultJSONProvider.default)


class SocketJSON:
    """The ``json`` module python-socketio and its Redis manager call: ``dumps`` ours,
    ``loads`` the standard library's."""

    dumps = staticmethod(dumps)
    loads = staticmethod(json.loads)


class FastJSONProvider(DefaultJSONProvider):
    """Flask's JSON (``jsonify``, returning a dict): keys in their own order, compact unless
    the app is in debug mode, where Flask indents for people reading it."""

    sort_keys = False

    def dumps(self, obj: Any, **kwargs: Any) -> str:
        if kwargs.get("indent") or kwargs.get("sort_keys"):
            return super().dumps(obj, **kwargs)
        return dumps(obj)


class JSONPacket(Packet):  # type: ignore[misc]  # python-socketio ships no type hints
    """python-socketio's packet, written once with orjson (issue 32).

    The library's packet walks every value of an outgoing event looking for bytes (a binary
    event), then encodes it: for a state of ten players a tenth of a millisecond, before the
    phones get a frame. orjson refuses bytes, so one encode here is both the check and the
    text :meth:`encode` then sends; whatever orjson refuses (bytes, an integer beyond 64 bits)
    goes the library's way, walk and all."""

    def __init__(self, packet_type: int = EVENT, data: Any = None, namespace: str | None = None,
                 id: int | None = None, binary: bool | None = None,  # the library's name
                 encoded_packet: Any = None) -> None:
        self.text: str | None = None
        if data is not None and binary is None and encoded_packet is None:
            try:
                self.text = orjson.dumps(data, option=_OPTIONS).decode()
                binary = False
            except TypeError:
                pass
        super().__init__(packet_type, data, namespace, id, binary, encoded_packet)

    def encode(self) -> Any:
        if self.text is None or self.packet_type not in (EVENT, ACK):
            return super().encode()
        head = str(self.packet_type)
        if self.namespace is not None and self.namespace != "/":
            head += self.namespace + ","
        if self.id is not None:
            head += str(self.id)
        return head + self.text
