"""The leaf rows of the Types table, as parameters and as return types.

Annotations are evaluated eagerly (no ``from __future__ import annotations``).
"""

import datetime
import decimal
import ipaddress
import uuid
from datetime import date, time, timedelta
from ipaddress import IPv6Address

from onellm_runtime import (
    Char,
    Int8,
    Int16,
    Int32,
    Int64,
    UInt8,
    UInt16,
    UInt32,
    UInt64,
    tool,
)


@tool
def scalars(
    flag: bool,
    count: int,
    ratio: float,
    amount: decimal.Decimal,
    text: str,
    letter: Char,
    ident: uuid.UUID,
    at: datetime.datetime,
    day: date,
    clock: time,
    span: timedelta,
    blob: bytes,
    host: ipaddress.IPv4Address,
    peer: IPv6Address,
) -> str:
    """Every scalar row."""
    return text


@tool
def sized_integers(
    i8: Int8,
    u8: UInt8,
    i16: Int16,
    u16: UInt16,
    i32: Int32,
    u32: UInt32,
    i64: Int64,
    u64: UInt64,
) -> str:
    """The C# widths, with their exact ranges."""
    return ""


@tool
def returns_bool() -> bool:
    return True


@tool
def returns_int() -> int:
    return 1


@tool
def returns_uint16() -> UInt16:
    return 1


@tool
def returns_float() -> float:
    return 1.0


@tool
def returns_decimal() -> decimal.Decimal:
    return decimal.Decimal(1)


@tool
def returns_uuid() -> uuid.UUID:
    return uuid.UUID(int=1)


@tool
def returns_datetime() -> datetime.datetime:
    return datetime.datetime(2024, 1, 1, tzinfo=datetime.timezone.utc)


@tool
def returns_date() -> date:
    return date(2024, 1, 1)


@tool
def returns_time() -> time:
    return time(12, 0)


@tool
def returns_timedelta() -> timedelta:
    return timedelta(seconds=1)


@tool
def returns_bytes() -> bytes:
    return b"x"


@tool
def returns_ipv4() -> ipaddress.IPv4Address:
    return ipaddress.IPv4Address("192.0.2.1")


@tool
def returns_ipv6() -> IPv6Address:
    return IPv6Address("2001:db8::1")
