"""One board's connection to the MQTT broker (paho-mqtt), and what it lets in.

paho runs the connection in its own thread and reconnects by itself after a drop, with
a growing delay. On every connection this class subscribes again to every topic it was
asked for (the broker keeps nothing of a clean session) and then calls ``on_connect``,
so its owner can say it is online and publish its state again.

What a stranger on the broker can send is bounded here: the board asks the broker not
to send it any packet over :data:`MAX_PACKET` (MQTT 5's Maximum Packet Size, which the
broker honours by dropping such a message for this client), a message over ``limit``
bytes is counted and dropped before any handler sees it, and the handlers run in paho's
thread and must keep no more than a bounded amount (see :class:`Inbox`). What this board
publishes while the link is down waits in paho's queue, at most :data:`MAX_QUEUED`
messages (a game's state is whole in every message, so the newest is enough).
"""

from __future__ import annotations

import logging
import queue
import socket
import ssl
import sys
import threading
import time
from collections.abc import Callable

import paho.mqtt.client as mqtt
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties

from app.errors import describe
from app.remote.config import RemoteConfig
from app.remote.sealing import MAX_MESSAGE

log = logging.getLogger(__name__)

MAX_PACKET = 64 * 1024
MAX_QUEUED = 32
#: Seconds between the board's keep-alive pings: a board that goes silent without
#: closing its connection (a power cut) is declared offline by the broker after one and
#: a half of these.
KEEPALIVE_S = 20

Handler = Callable[[str, bytes], None]


class Inbox:
    """At most ``size`` messages waiting for a reader in another thread; beyond that the
    newest are dropped and counted, so a flood costs nothing but the messages."""

    def __init__(self, size: int = 16) -> None:
        self._queue: queue.Queue[tuple[str, bytes]] = queue.Queue(maxsize=size)
        self.dropped = 0

    def put(self, topic: str, payload: bytes) -> None:
        try:
            self._queue.put_nowait((topic, payload))
        except queue.Full:
            self.dropped += 1

    def get(self, timeout: float) -> tuple[str, bytes] | None:
        try:
            return self._queue.get(timeout=timeout)
        except queue.Empty:
            return None


class Broker:
    """A connection to the broker ``config`` names, as ``client_id``."""

    def __init__(self, config: RemoteConfig, client_id: str, *,
                 limit: int = MAX_MESSAGE, keepalive: int = KEEPALIVE_S) -> None:
        self.config, self.limit, self.keepalive = config, limit, keepalive
        self._handlers: dict[str, Handler] = {}
        self._lock = threading.Lock()
        #: Called in paho's thread after each connection, once subscribed again.
        self.on_connect: Callable[[], None] | None = None
        #: Called in paho's thread when a connection is lost (not when closed here).
        self.on_disconnect: Callable[[], None] | None = None
        self.connected = threading.Event()
        #: Why the last connection attempt failed, in one line ("" while connected).
        self.failure = ""
        self.oversized = 0
        client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=client_id,
                             protocol=mqtt.MQTTv5)
        if config.user is not None:
            client.username_pw_set(config.user, config.password)
        if config.tls:
            # Verified by default: the broker's certificate must chain to the system's
            # authorities (or the configured one) and name the host dialled.
            client.tls_set(ca_certs=str(config.ca) if config.ca else None,
                           certfile=str(config.certificate) if config.certificate else None,
                           keyfile=str(config.key) if config.key else None,
                           cert_reqs=ssl.CERT_REQUIRED)
        client.max_queued_messages_set(MAX_QUEUED)
        client.reconnect_delay_set(min_delay=1, max_delay=30)
        client.on_connect = self._connected
        client.on_disconnect = self._disconnected
        client.on_connect_fail = self._connect_failed
        client.on_message = self._message
        self._client = client
        self._closing = False

    def subscribe(self, topic: str, handler: Handler) -> None:
        """Hand every message on ``topic`` (a filter) to ``handler``, in paho's thread."""
        with self._lock:
            self._handlers[topic] = handler
        if self.connected.is_set():
            self._client.subscribe(topic, qos=1)

    def unsubscribe(self, topic: str) -> None:
        with self._lock:
            self._handlers.pop(topic, None)
        if self.connected.is_set():
            self._client.unsubscribe(topic)

    def set_will(self, topic: str, payload: bytes) -> None:
        """What the broker publishes (retained) if this board vanishes; it takes effect
        at the next connection, so set it again before each (paho reads it then)."""
        self._client.will_set(topic, payload, qos=1, retain=True)

    def publish(self, topic: str, payload: bytes, retain: bool = False) -> None:
        self._client.publish(topic, payload, qos=1, retain=retain)

    def start(self) -> None:
        """Connect in paho's thread, now and after every drop, until :meth:`stop`."""
        properties = Properties(PacketTypes.CONNECT)
        properties.MaximumPacketSize = MAX_PACKET
        self._client.connect_async(self.config.host, self.config.port,
                                   keepalive=self.keepalive, clean_start=True,
                                   properties=properties)
        self._client.loop_start()

    def flush(self, timeout: float) -> bool:
        """Wait up to ``timeout`` seconds until everything published so far is written
        to the broker's connection (paho's :meth:`stop` does not wait for it): a board
        that leaves a game or withdraws an invitation says so before it goes. ``False``
        if something is still unwritten (the link is down: it is lost with the stop)."""
        deadline = time.monotonic() + timeout
        while self._client.want_write():
            if not self.connected.is_set() or time.monotonic() > deadline:
                return False
            time.sleep(0.01)
        return True

    def stop(self) -> None:
        """Leave the broker cleanly (no last will) and end paho's thread."""
        self._closing = True
        self._client.disconnect()
        self._client.loop_stop()
        self.connected.clear()

    def _connected(self, client, userdata, flags, reason, properties) -> None:
        if reason.is_failure:
            self.failure = f"{self.config.broker} refused the board: {reason}"
            log.warning("%s", self.failure)
            return
        self.failure = ""
        # A move is one small message, often right after another: without this, Nagle's
        # algorithm held it for the broker's delayed ACK, 40 ms a move (4.5 ms with it,
        # and a broker with set_tcp_nodelay, measured through a local mosquitto).
        client.socket().setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        with self._lock:
            topics = list(self._handlers)
        for topic in topics:
            client.subscribe(topic, qos=1)
        self.connected.set()
        if self.on_connect is not None:
            self.on_connect()

    def _connect_failed(self, client, userdata) -> None:
        # paho calls this while it handles the connection's OSError (a refused port, a
        # certificate that does not verify): that error is the reason to give.
        error = sys.exception()
        self.failure = f"cannot connect to {self.config.broker}: " \
                       f"{describe(error) if error else 'no answer'}"
        log.warning("%s", self.failure)

    def _disconnected(self, client, userdata, flags, reason, properties) -> None:
        was_connected = self.connected.is_set()
        self.connected.clear()
        if not self._closing and was_connected:  # a refusal is said already, as such
            self.failure = f"lost the link to {self.config.broker}: {reason}"
            log.warning("%s", self.failure)
            if self.on_disconnect is not None:
                self.on_disconnect()

    def _message(self, client, userdata, message) -> None:
        payload = message.payload
        if len(payload) > self.limit:
            self.oversized += 1
            return
        with self._lock:
            handlers = [handler for pattern, handler in self._handlers.items()
                        if mqtt.topic_matches_sub(pattern, message.topic)]
        for handler in handlers:
            try:
                handler(message.topic, payload)
            except Exception:  # a handler's bug must not end paho's thread
                log.exception("handling a message on %s", message.topic)
