"""Several server processes on one database (``create_app(message_queue="redis://...")``):
Flask-SocketIO's Redis message queue carries every table's states to every process, and each
process, its own included, hands the states it gets to :func:`rooms.deliver`, which keeps
that process's clients in seq order (:class:`QueueManager`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import socketio as socketio_server
from flask import Flask
from flask_socketio import SocketIO

from dealer_assist.web.extensions import get_socketio
from dealer_assist.web.json_codec import SocketJSON
from dealer_assist.web.rooms import table_of_room

SIGNED_OUT_EVENT = "dealer_signed_out"  # between processes only: never sent to a client


class QueueManager(socketio_server.RedisManager):  # type: ignore[misc]  # no type hints
    """Flask-SocketIO's Redis message queue: ``socketio.RedisManager``, what Flask-SocketIO
    builds for ``message_queue="redis://..."``, on the same channel, with one addition. A
    table's ``state`` events, the ones this process emits and the ones the queue brings from
    the others, go to ``deliver_state`` (:func:`deliver`), which sends them to this process's
    clients in seq order; every other message is handled by the manager as usual."""

    def __init__(self, url: str, channel: str = "flask-socketio") -> None:
        # a Redis that is down is seen within 5 s, not at the TCP timeout; states published
        # in JSON through orjson, as they are sent to the clients
        super().__init__(url, channel=channel, redis_options={"socket_connect_timeout": 5},
                         json=SocketJSON)
        self.deliver_state: Callable[[str, dict[str, Any]], object] | None = None
        self.sign_out: Callable[[str, int], object] | None = None

    def _handle_emit(self, message: dict[str, Any]) -> None:
        # python-socketio's PubSubManager calls this for every emit: this process's own (from
        # emit, before publishing) and each one the listener thread reads from Redis
        room, data = message.get("room"), message.get("data")
        if (self.deliver_state is not None and message.get("event") == "state"
                and isinstance(room, str) and table_of_room(room) is not None
                and isinstance(data, list) and len(data) == 1 and isinstance(data[0], dict)):
            self.deliver_state(room, data[0])
            return
        if message.get("event") == SIGNED_OUT_EVENT:  # never passed on to clients
            signed_out = data[0] if isinstance(data, list) and data else None
            if (self.sign_out is not None and isinstance(signed_out, dict)
                    and isinstance(signed_out.get("table"), str)
                    and isinstance(signed_out.get("keep"), int)):
                self.sign_out(signed_out["table"], signed_out["keep"])
            return
        super()._handle_emit(message)


def is_queued(socketio: SocketIO) -> bool:
    """Whether this process is one of several on a message queue."""
    return isinstance(socketio.server.manager, QueueManager)


def listen_to_queue(app: Flask, deliver_state: Callable[[str, dict[str, Any]], object],
                    sign_out: Callable[[str, int], object]) -> None:
    """Hand the queue's table states to ``deliver_state`` and its sign-outs to ``sign_out``,
    and subscribe to the queue now rather than at the first client's connection (Socket.IO's
    default), so that this process hears every state from the moment it serves."""
    socketio = get_socketio(app)
    server = socketio.server
    manager = server.manager
    if not isinstance(manager, QueueManager):
        return
    manager.deliver_state = deliver_state
    manager.sign_out = sign_out
    if not server.manager_initialized:
        server.manager_initialized = True
        manager.initialize()
