"""The strict argument binder: a model's JSON arguments -> the keyword arguments of a tool.

Compiled once per tool from the same type model the schema is written from (``rules`` for
wire names, discriminators and literals; the *written* schema fragment for every
constraint keyword), into one specialised closure per node. A call then walks the parsed
document once; nothing is re-derived from the model.

Two passes, so valid input pays for no bookkeeping: the *fast* pass binds and stops at
the first fault; only then does a *collecting* pass walk the same document again keeping
paths and reporting every fault (up to ``MAX_REPORTED``), so a model can fix them all in
one retry. Both passes run the same closures (a fault raises in the first, is recorded in
the second), so they cannot disagree.

Raw JSON (str or bytes) is read by ``jsonparse``: objects arrive as tuples of pairs, so a
duplicate key is seen where it is checked; numbers are exact where a ``Decimal`` needs them.
A ``Mapping`` (already-parsed JSON, as some SDKs hand it over) is checked the same way, and
its values must be what ``json.loads`` could have produced (``dict`` with ``str`` keys,
``list``, ``str``, ``int`` within the digit limit, finite ``float`` or ``Decimal``, ``bool``, ``None``).

Every message, by cause (``<p>`` is the path: JSON wire names, zero-based indexes,
``environment["a.b"]`` for a key that is not an identifier):

=============================  ===================================================================
cause                          message
=============================  ===================================================================
malformed JSON                 ``Arguments are not valid JSON: Expecting ',' delimiter: line 1 column 9 (char 8).``
invalid UTF-8                  ``Arguments are not valid JSON: the bytes are not valid UTF-8 (byte 5 is 0xff).``
NaN / Infinity                 ``Arguments are not valid JSON: NaN is not a JSON number (JSON has no NaN or Infinity).``
too deep                       ``Arguments are not valid JSON: the document is nested too deeply.``
not an object                  ``Arguments must be a JSON object, got array.`` / ``got string "x".``
duplicate key                  ``Argument '<p>' is given more than once.``
unknown property               ``Argument '<p>' is not a known property; known properties: a, b.``
alternate casing / typo        ``Argument '<p>' is not a known property (did you mean 'query'?).``
other branch's field           ``Argument '<p>' is not a field of 'read' (it belongs to 'start'); 'read' takes: action, handleId.``
missing                        ``Argument '<p>' is required.`` / ``is required (send null for none).`` when nullable
wrong kind / null              ``Argument '<p>' must be an integer, got string "5".`` (``... or null`` when nullable)
null for an optional member    ``Argument '<p>' must be an integer, got null; leave it out to use the default.``
fraction for an integer        ``Argument '<p>' must be an integer, got 2.5.``
too many digits                ``Argument '<p>' has more than 4300 digits, more than an integer may have.``
big integer with an exponent   ``Argument '<p>' must be written in plain digits to be an integer of 10^20 or more, got 1E+4299.``
range                          ``Argument '<p>' must be between 1 and 10, got 11.`` / ``at least 1`` / ``at most 10``
not finite / overflow          ``Argument '<p>' must be a finite number, got a number beyond the float range.``
enum / Literal                 ``Argument '<p>' must be one of: Files, Content, Count; got "content" (did you mean "Content"?).``
string length                  ``Argument '<p>' must be at most 64 characters long, got 70.`` / ``at least`` / ``exactly``
pattern                        ``Argument '<p>' must match the pattern ^[a-z]+$, got "A1".``
format                         ``Argument '<p>' must be a date YYYY-MM-DD, got "July 1".`` (a scalar row's ``hint``)
lone surrogate                 ``Argument '<p>' contains a lone surrogate (\\ud800), which is not valid Unicode.``
array length                   ``Argument '<p>' must have at least 1 item, got 0.`` / ``at most`` / ``exactly``
duplicate set item             ``Argument 'tags[2]' repeats tags[0]; the items must be unique.``
missing discriminator          ``Argument 'request.action' is required; it must be one of: start, read, stop.``
bad discriminator              ``Argument 'request.action' must be one of: start, read, stop; got "Read" (did you mean "read"?).``
blank discriminator            ``Argument 'request.action' must be one of: start, read, stop; got a blank string.``
non-JSON mapping value         ``Argument '<p>' must be a JSON value, got set.``
non-string key (mapping)       ``Argument '<p>' has a key that is not a string: 1.``
unreadable mapping             ``Argument '<p>' could not be read: KeyError: 'a'`` (``Arguments could not be read: ...`` at the top)
constructor raised             ``Argument '<p>' is not valid: ValueError: end is before start`` (any exception kind)
=============================  ===================================================================

Several faults are joined one per line; beyond ``MAX_REPORTED`` the text ends with
``... and N more.``. A value is quoted as a short excerpt only (40 characters at most).

The package, by job: ``state`` (the error, the bound result, one call's bookkeeping),
``texts`` (paths, excerpts and the phrases of the messages), ``checks`` (scalars and choices,
with their pieces of the fast paths), ``containers`` (arrays, maps, JSON values), ``records``
(closed objects: records, parameters, unions), ``makers`` (constructing records),
``codegen`` (the generated fast paths), ``compiler`` (type model to checks), ``binder``
(``CompiledBinder`` and its cache), ``jsonparse`` (the reader).
"""

from __future__ import annotations

from .binder import Binder, CompiledBinder, compile_binder
from .state import MAX_REPORTED, ArgumentError, BoundCall
from .texts import excerpt, format_path

__all__ = [
    "ArgumentError",
    "Binder",
    "BoundCall",
    "CompiledBinder",
    "MAX_REPORTED",
    "compile_binder",
    "excerpt",
    "format_path",
]
