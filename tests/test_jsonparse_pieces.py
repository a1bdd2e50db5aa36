"""A long document is read in pieces (``jsonparse``): the same values, errors and positions as one scan."""

from __future__ import annotations

import json
import random

import pytest

from onellm_runtime.binding import jsonparse


def _nested(rng: random.Random, depth: int) -> object:
    r = rng.random()
    if depth > 3 or r < 0.5:
        # strings holding the characters a piece is cut at and closed with
        return rng.choice([1, -2.5, "a,b]}", 'x",[', None, True, 10**30, 1.5e300, "", "\u00e9,", 1e19])
    if r < 0.75:
        return [_nested(rng, depth + 1) for _ in range(rng.randint(0, 12))]
    return {f"k{rng.randint(0, 20)},": _nested(rng, depth + 1) for _ in range(rng.randint(0, 8))}


def _random(seed: int, compact: bool) -> str:
    rng = random.Random(seed)
    value = {"a": [_nested(rng, 0) for _ in range(1200)], "b": _nested(rng, 0)}
    return json.dumps(value, separators=(",", ":") if compact else (", ", ": "))


ITEMS = 40_000
VALID = {
    "small ints": '{"values":[' + ",".join(str(i % 1000) for i in range(ITEMS)) + "]}",
    "huge exponents": '{"values":[' + ",".join(["1e4299"] * ITEMS) + "]}",
    "duplicate keys": '{"entries":{' + ",".join(f'"k":{i}' for i in range(ITEMS)) + "}}",
    "array of objects": "[" + ",".join(['{"a":[1,2,3],"b":"x,y]"}'] * 5000) + "]",
    "deep and wide": '{"a":' + "[" * 40 + ",".join(["1"] * ITEMS) + "]" * 40 + "}",
    "white space": ' { "a" : [ ' + " , ".join(["[ 1 , 2 ]"] * 10_000) + ' ] , "b" : { } } ',
    "random nested, compact": _random(1, True),
    "random nested, spaced": _random(2, False),
    # read again keeping such integers as Decimal, so the binder can refuse it at its path
    "an integer over the digit limit": '{"values":[' + ",".join(["1"] * ITEMS) + "," + "9" * 5000 + "]}",
}
BROKEN = {
    "truncated": VALID["small ints"][:-1],
    "stray character in the middle": VALID["array of objects"][:60_000] + "x" + VALID["array of objects"][60_000:],
    "NaN at the end": '{"values":[' + ",".join(["1"] * ITEMS) + ",NaN]}",
    "extra data": VALID["small ints"] + " []",
    "too deep inside a piece": '{"a":[' + ",".join(["1"] * ITEMS) + "," + "[" * 100_000 + "]" * 100_000 + "]}",
}


def _outcome(doc: str, exact: bool) -> tuple[str, str]:
    try:
        return "value", repr(jsonparse.read(doc, exact=exact))
    except jsonparse.JsonError as e:
        return "error", str(e)


@pytest.mark.parametrize("exact", [False, True])
@pytest.mark.parametrize("name", [*VALID, *BROKEN])
def test_pieces_read_as_one_scan(name: str, exact: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    doc = {**VALID, **BROKEN}[name]
    assert len(doc) > jsonparse.PIECES_OVER
    in_pieces = _outcome(doc, exact)
    monkeypatch.setattr(jsonparse, "PIECES_OVER", len(doc))  # one scan
    assert in_pieces == _outcome(doc, exact)
    assert in_pieces[0] == ("value" if name in VALID else "error")


def test_read_object_in_pieces() -> None:
    doc = VALID["duplicate keys"]
    pairs = jsonparse.read_object(doc)
    assert pairs is not None and pairs == jsonparse.read(doc)
    assert jsonparse.read_object(doc[:-1]) is None
