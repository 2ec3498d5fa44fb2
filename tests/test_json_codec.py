"""The JSON the server writes (dealer_assist.web.json_codec: orjson, with the standard library
as the fallback) reads back exactly as the standard library's would, over HTTP and Socket.IO."""

from __future__ import annotations

import json
from typing import Any

from flask import Flask
from flask_socketio import SocketIO
from hypothesis import given
from hypothesis import strategies as st
from socketio.packet import BINARY_EVENT, EVENT, Packet

from dealer_assist.web.json_codec import JSONPacket, SocketJSON, dumps

JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(min_value=-(2**80), max_value=2**80)
    | st.floats(allow_nan=False, allow_infinity=False) | st.text(),
    lambda inner: st.lists(inner, max_size=5)
    | st.dictionaries(st.text() | st.integers(-1000, 1000), inner, max_size=5),
    max_leaves=30,
)


@given(JSON_VALUES)
def test_reads_back_as_the_standard_librarys_json(value: Any) -> None:
    text, standard = dumps(value), json.dumps(value)
    assert json.loads(text) == json.loads(standard)
    if isinstance(value, dict):  # and in the same order
        assert list(json.loads(text)) == list(json.loads(standard))


class LibraryPacket(Packet):  # type: ignore[misc]
    json = SocketJSON  # as the server sets it (socketio.Server's json=)


@given(JSON_VALUES, st.sampled_from(["/", "/other"]), st.none() | st.integers(0, 99))
def test_a_socket_packet_is_the_librarys_packet_encoded_once(value: Any, namespace: str,
                                                             ack: int | None) -> None:
    """JSONPacket skips the library's walk for bytes (orjson refuses them) and sends the
    text its check wrote: the same packet the library writes, read back."""
    ours = JSONPacket(EVENT, ["state", value], namespace=namespace, id=ack).encode()
    theirs = LibraryPacket(EVENT, ["state", value], namespace=namespace, id=ack).encode()
    assert isinstance(ours, str) and isinstance(theirs, str)
    head = theirs[:len(theirs) - len(dumps(["state", value]))]
    assert ours.startswith(head) and json.loads(ours[len(head):]) == json.loads(
        theirs[len(head):])


def test_a_socket_packet_with_bytes_is_still_binary() -> None:
    packet = JSONPacket(EVENT, ["photo", {"png": b"\x89PNG"}])
    assert packet.packet_type == BINARY_EVENT
    assert packet.encode() == ['51-["photo",{"png":{"_placeholder":true,"num":0}}]', b"\x89PNG"]


def test_keys_keep_their_order_and_names_their_letters(make_table: Any) -> None:
    """The state's keys in the core's order (id first), and a name such as "Zoë" as
    UTF-8, over HTTP and in the Socket.IO event alike."""
    d = make_table("kings_pot", ["Zoë", "Bob", "Cy"])
    answer = d.act({"type": "start_deal"})
    raw = d.client.get(f"/api/tables/{d.id}").get_data(as_text=True)
    assert list(json.loads(raw)) == list(answer["state"]) and raw.startswith('{"id":')
    assert '"name":"Zoë"' in raw


def test_the_live_state_is_the_answer_as_sent(app: Flask, socketio: SocketIO,
                                              make_table: Any) -> None:
    d = make_table("texas_dozen", ["Ann", "Bob", "Cy"])
    tablet = socketio.test_client(app)
    tablet.emit("join", {"table": d.id, "token": d.token})
    tablet.get_received()
    answer = d.act({"type": "start_deal"})
    (event,) = [e["args"][0] for e in tablet.get_received() if e["name"] == "state"]
    assert event == answer["state"] and list(event) == list(answer["state"])
