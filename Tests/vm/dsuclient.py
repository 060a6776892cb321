"""A DSU ("cemuhook") client for the VM scenarios, written from the
protocol's public description (v1993/cemuhook-protocol, version 1001) and
what Dolphin's DualShockUDPClient sends: UDP, little-endian, a 16-byte header
(magic, version, length, CRC-32 with its own field zeroed, sender id), the
message type, then the payload.

Requests: version, port info for N slots, pad data for all slots, one slot or
one MAC. Answers are checked (magic DSUS, version 1001, length, CRC, type,
size) and decoded; a datagram that fails a check raises BadAnswer.
"""

import os
import select
import socket
import struct
import time
import zlib

VERSION = 1001
TYPE_VERSION, TYPE_PORT_INFO, TYPE_PAD_DATA = 0x100000, 0x100001, 0x100002
PORT_INFO_SIZE, PAD_DATA_SIZE = 32, 100


class BadAnswer(Exception):
    """A datagram from the server that is not a well-formed answer."""


def seal(packet):
    """The packet with its CRC field (bytes 8-11) set: CRC-32 of the whole
    packet with that field zeroed."""
    p = bytearray(packet)
    p[8:12] = b"\0\0\0\0"
    p[8:12] = struct.pack("<I", zlib.crc32(bytes(p)) & 0xFFFFFFFF)
    return bytes(p)


def request(msg_type, payload, sender):
    """A client datagram of msg_type with payload."""
    body = struct.pack("<I", msg_type) + bytes(payload)
    return seal(b"DSUC" + struct.pack("<HHII", VERSION, len(body), 0, sender) + body)


def version_request(sender):
    return request(TYPE_VERSION, b"", sender)


def port_info_request(slots, sender):
    return request(TYPE_PORT_INFO, struct.pack("<i", len(slots)) + bytes(slots), sender)


def pad_data_request(sender, slot=None, mac=None):
    """All slots (flags 0), one slot (flags 1) or one MAC (flags 2, six bytes)."""
    if mac is not None:
        return request(TYPE_PAD_DATA, bytes([2, 0]) + bytes(mac), sender)
    if slot is not None:
        return request(TYPE_PAD_DATA, bytes([1, slot]) + bytes(6), sender)
    return request(TYPE_PAD_DATA, bytes(8), sender)


def _slot_info(p):
    slot, state, model, connection = p[20], p[21], p[22], p[23]
    return {"slot": slot, "state": state, "model": model, "connection": connection, "mac": bytes(p[24:30]),
            "battery": p[30]}


def parse(p):
    """(type, fields) of a server datagram, or BadAnswer."""
    if len(p) < 20:
        raise BadAnswer("%d bytes: shorter than a header and a type" % len(p))
    if p[:4] != b"DSUS":
        raise BadAnswer("magic %r" % p[:4])
    version, length, crc, _sender, msg_type = struct.unpack_from("<HHIII", p, 4)
    if version != VERSION:
        raise BadAnswer("version %d" % version)
    if length != len(p) - 16:
        raise BadAnswer("length field %d, %d bytes after the header" % (length, len(p) - 16))
    if crc != zlib.crc32(p[:8] + b"\0\0\0\0" + p[12:]) & 0xFFFFFFFF:
        raise BadAnswer("bad CRC")
    if msg_type == TYPE_VERSION:
        if len(p) not in (22, 24):
            raise BadAnswer("version answer of %d bytes" % len(p))
        return msg_type, {"version": struct.unpack_from("<H", p, 20)[0]}
    if msg_type == TYPE_PORT_INFO:
        if len(p) != PORT_INFO_SIZE:
            raise BadAnswer("port info of %d bytes" % len(p))
        return msg_type, _slot_info(p)
    if msg_type == TYPE_PAD_DATA:
        if len(p) != PAD_DATA_SIZE:
            raise BadAnswer("pad data of %d bytes" % len(p))
        d = _slot_info(p)
        d["connected"] = p[31]
        d["packet"] = struct.unpack_from("<I", p, 32)[0]
        d["sticks"] = tuple(p[40:44])
        d["timestamp"] = struct.unpack_from("<Q", p, 68)[0]
        d["accel"] = struct.unpack_from("<3f", p, 76)  # X, Y, Z in g
        d["gyro"] = struct.unpack_from("<3f", p, 88)  # pitch, yaw, roll in deg/s
        return msg_type, d
    raise BadAnswer("message type %#x" % msg_type)


class Client:
    """One client socket, as one emulator: a fixed random sender id."""

    def __init__(self, port, host="127.0.0.1", local="127.0.0.1"):
        self.server = (host, port)
        self.sender = struct.unpack("<I", os.urandom(4))[0] or 1
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.sock.bind((local, 0))
        self.bad = []  # BadAnswer messages of datagrams that failed the checks

    def close(self):
        self.sock.close()

    def send(self, datagram):
        self.sock.sendto(datagram, self.server)

    def receive(self, timeout):
        """(arrival CLOCK_REALTIME, type, fields) of the next good answer within timeout, or None."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self.sock], [], [], left)[0]:
                return None
            data = self.sock.recv(2048)
            now = time.clock_gettime(time.CLOCK_REALTIME)
            try:
                t, fields = parse(data)
            except BadAnswer as x:
                self.bad.append(str(x))
                continue
            return now, t, fields

    def version(self, timeout=3):
        self.send(version_request(self.sender))
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            got = self.receive(deadline - time.monotonic())
            if got and got[1] == TYPE_VERSION:
                return got[2]["version"]
        return None

    def port_info(self, slots=(0, 1, 2, 3), timeout=3):
        """{slot: fields} of the answers to one port-info request."""
        self.send(port_info_request(list(slots), self.sender))
        out = {}
        deadline = time.monotonic() + timeout
        while len(out) < len(set(slots)) and time.monotonic() < deadline:
            got = self.receive(deadline - time.monotonic())
            if got and got[1] == TYPE_PORT_INFO:
                out[got[2]["slot"]] = got[2]
        return out

    def subscribe(self, slot=None, mac=None):
        self.send(pad_data_request(self.sender, slot=slot, mac=mac))

    def pad_data(self, seconds, slot=None, mac=None, renew=1.0, on_packet=None):
        """[(arrival, fields)] of the pad data within seconds, renewing the
        subscription every `renew` s as Dolphin does (None: one request only)."""
        out = []
        end = time.monotonic() + seconds
        self.subscribe(slot, mac)
        next_request = time.monotonic() + renew if renew else None
        while True:
            now = time.monotonic()
            if now >= end:
                return out
            if next_request is not None and now >= next_request:
                self.subscribe(slot, mac)
                next_request = now + renew
            wait = (end if next_request is None else min(end, next_request)) - now
            got = self.receive(max(0.0, wait))
            if got and got[1] == TYPE_PAD_DATA:
                out.append((got[0], got[2]))
                if on_packet:
                    on_packet(got[0], got[2])
