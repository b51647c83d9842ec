"""A gRPC health check as raw bytes, for a proxy that can only send bytes and match bytes.

HAProxy's `http-check` cannot send a request body holding zero bytes, and every gRPC message
starts with some (the compressed flag and a four-byte length). Its `tcp-check` can send any
bytes, so the check speaks HTTP/2 itself: the client preface, an empty SETTINGS frame, one
HEADERS frame for `POST /grpc.health.v1.Health/Check` and one DATA frame carrying an empty
`HealthCheckRequest` (service "": the whole server). The reply's DATA frame then carries the
message `HealthCheckResponse{status}`, whose bytes are fixed for each status.
"""

from __future__ import annotations

import struct

HEALTH_CHECK_PATH = b"/grpc.health.v1.Health/Check"
CLIENT_PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"

_DATA, _HEADERS, _SETTINGS = 0x0, 0x1, 0x4
_END_STREAM, _END_HEADERS = 0x1, 0x4
_STREAM = 1

# HPACK static table (RFC 7541, appendix A): the entries the request uses.
_METHOD_POST = 3
_SCHEME_HTTP = 6
_AUTHORITY = 1
_PATH = 4
_CONTENT_TYPE = 31

STATUS_MESSAGE_PREFIX = bytes.fromhex("000000000208")
"""A gRPC-framed `HealthCheckResponse` up to its status: flag 0, length 2, field 1's tag."""
SERVING_MESSAGE = STATUS_MESSAGE_PREFIX + b"\x01"
"""The whole message with status SERVING (1)."""
NOT_SERVING_MESSAGE = STATUS_MESSAGE_PREFIX + b"\x02"
"""The whole message with status NOT_SERVING (2)."""


def _frame(kind: int, flags: int, payload: bytes) -> bytes:
    """One HTTP/2 frame on stream 1 (SETTINGS on stream 0)."""
    stream = 0 if kind == _SETTINGS else _STREAM
    length = struct.pack(">I", len(payload))[1:]
    return length + bytes([kind, flags]) + struct.pack(">I", stream) + payload


def _string(value: bytes) -> bytes:
    """An HPACK string literal without Huffman coding (values here are under 127 bytes)."""
    if len(value) > 126:
        raise ValueError(f"header value of {len(value)} bytes; this encoder stops at 126")
    return bytes([len(value)]) + value


def _indexed(index: int) -> bytes:
    """An HPACK indexed header field (static table entries under 127)."""
    return bytes([0x80 | index])


def _literal(name_index: int, value: bytes) -> bytes:
    """An HPACK literal header field without indexing, its name from the static table."""
    prefix = bytes([name_index]) if name_index < 15 else bytes([0x0F, name_index - 15])
    return prefix + _string(value)


def _literal_new_name(name: bytes, value: bytes) -> bytes:
    """An HPACK literal header field without indexing, with a literal name."""
    return b"\x00" + _string(name) + _string(value)


def health_check_request(authority: str = "localhost") -> bytes:
    """The bytes of a whole gRPC `Health/Check` call for service "" over cleartext HTTP/2."""
    headers = b"".join(
        (
            _indexed(_METHOD_POST),
            _indexed(_SCHEME_HTTP),
            _literal(_PATH, HEALTH_CHECK_PATH),
            _literal(_AUTHORITY, authority.encode()),
            _literal(_CONTENT_TYPE, b"application/grpc"),
            _literal_new_name(b"te", b"trailers"),
        )
    )
    empty_request = b"\x00" + struct.pack(">I", 0)
    return (
        CLIENT_PREFACE
        + _frame(_SETTINGS, 0, b"")
        + _frame(_HEADERS, _END_HEADERS, headers)
        + _frame(_DATA, _END_STREAM, empty_request)
    )
