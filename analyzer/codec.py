"""The one writer and reader of the results' plain data (the JSON the tool prints, caches and sends), generated
from the result types' dataclass fields: :func:`to_data` writes a value as plain data, :func:`from_data` reads it
back into its type. A field says how it is written by its metadata (:func:`key`): its JSON name, when it is left
out (None, outside a context such as the fair analysis, or with the rest of its group), whether it is read back.

The means (docs/architecture.md, "Results and their JSON"): the standard library's ``dataclasses.fields`` and
``typing.get_type_hints`` walk the types; no third-party codec, because the static site runs this code in
Pyodide from a zip of pure-Python packages (``analyzer/site``): msgspec and pydantic are compiled (Pyodide 0.27.7
has wheels of both, but the site serves no Pyodide package and fetches none from a CDN), and cattrs would still
need a hook for each key written only in a context (the fair analysis's, the best lines') — what the metadata here
says in one word."""
from __future__ import annotations

import dataclasses
import enum
import types
import typing
from dataclasses import dataclass
from functools import cache
from typing import Any, Callable

__all__ = ["key", "keys", "retired_keys", "check", "to_data", "from_data"]


@dataclass(frozen=True)
class Key:
    """How a field is written (see :func:`key`)."""

    name: str | None = None
    omit_none: bool = False
    when: str | None = None
    group: str | None = None
    flag: bool = False
    write: Callable[[Any], Any] | None = None
    read: bool = True
    skip: bool = False
    after: str | None = None
    inline: bool = False
    none_if: str | None = None
    retired: str | None = None
    retired_write: Callable[[Any], Any] | None = None


_PLAIN = Key()


def key(name: str | None = None, **how) -> dict:
    """A field's metadata for the writer and the reader (``field(metadata=key(...))``): ``name`` its JSON key
    (default the field's name), ``how`` the rest of :class:`Key`: ``omit_none``: left out where None; ``when``:
    written only where the context ``when`` is on (a flag field of an enclosing value, or one given to
    :func:`to_data`); ``group``: the fields of a group are left out together where every one of them is None;
    ``flag``: the field is not written but sets the context of its name for the value and what it holds;
    ``write``: the field's value as data (a value of a type described elsewhere); ``read``: False where the data is
    not read back (the field keeps its default); ``skip``: neither written nor read; ``after``: the field is written
    right after that one (its place in the data, where the constructor's order differs); ``inline``: the field's value
    (a dataclass) is written as its keys in the enclosing object, in its place (a later step's figures composed
    into a result: the match scale's on a decision), and read back from them where the data has one of them;
    ``none_if``: written as None where that field of the same value is true (a tied fair verdict names no best);
    ``retired``: the key's former name, written too (right after it, the same value) for one schema version and read
    where the data has only it (a key renamed: the schema describes the old one as deprecated, docs/commands.md
    says until which version it is written); ``retired_write``: with ``retired``, where the key's type changed
    too, what the former key held, made from the value by this (written beside it for one schema version, never
    read back: data with only the former key keeps the field's default)."""
    return {"json": Key(name, **how)}


def _spec(f: dataclasses.Field) -> Key:
    return f.metadata.get("json", _PLAIN)


def check(cls: type) -> None:
    """Raise a ``TypeError`` naming the type and the field where the keys of the dataclass ``cls`` cannot be
    written as they say: an ``after`` or ``none_if`` naming no other field (the field's name is wanted, not its JSON
    key), an ``inline`` field whose type is not a dataclass, a field both skipped and a flag, a ``write`` that is
    not callable, or two fields written under one JSON key (an inline value's keys counted in its place). The
    writer checks a type's fields before its first value is written; a test checks every dataclass of the package,
    so such a mistake fails there, by its name, and never in a user's run."""
    _written(cls)
    seen: set[str] = set()
    for name in keys(cls):
        if name in seen:
            raise TypeError(f"{cls.__name__}: the JSON key {name!r} is written twice")
        seen.add(name)


def retired_keys(cls: type) -> dict[str, str]:
    """The former names of ``cls``'s renamed keys (``key(retired=...)``), each with its key's name now."""
    return {s.retired: key_ for _, key_, s in _written(cls)[0] if s.retired}


def _check_fields(cls: type, specs: list) -> None:
    names = [f.name for f, _ in specs]
    for f, s in specs:
        where = f"{cls.__name__}.{f.name}"
        for what in ("after", "none_if"):
            named = getattr(s, what)
            if named is not None and (named not in names or named == f.name):
                raise TypeError(f"{where}: key({what}={named!r}) names no other field of {cls.__name__} "
                                f"(a field's name is wanted, not its JSON key; its fields: {', '.join(names)})")
        if s.skip and s.flag:
            raise TypeError(f"{where}: key(skip=True, flag=True): a field is either left out or a flag")
        if s.write is not None and not callable(s.write):
            raise TypeError(f"{where}: key(write=...) is not callable")
        if s.retired is not None and (s.inline or s.flag or s.skip):
            raise TypeError(f"{where}: key(retired=...) on a field not written under a key of its own")
        if s.retired_write is not None and (s.retired is None or not callable(s.retired_write)):
            raise TypeError(f"{where}: key(retired_write=...) needs a retired name and a callable")
        if s.inline and not dataclasses.is_dataclass(_inner(_hints(cls)[f.name])):
            raise TypeError(f"{where}: key(inline=True) on a field whose type is not a dataclass")


@cache
def _written(cls: type) -> tuple:
    """How ``cls`` is written: its fields in the order they are written, each ``(attribute, key, its Key)`` (the
    fields neither written nor setting a context left out), its flag fields, and its groups' fields."""
    specs = [(f, _spec(f)) for f in dataclasses.fields(cls)]
    _check_fields(cls, specs)
    for f, s in [(f, s) for f, s in specs if s.after]:
        specs.remove((f, s))
        at = next(i for i, (g, _) in enumerate(specs) if g.name == s.after)
        specs.insert(at + 1, (f, s))
    written = tuple((f.name, s.name or f.name, s) for f, s in specs if not (s.skip or s.flag))
    flags = tuple(f.name for f, s in specs if s.flag)
    groups: dict[str, list[str]] = {}
    for f, s in specs:
        if s.group:
            groups.setdefault(s.group, []).append(f.name)
    return written, flags, tuple((g, tuple(names)) for g, names in groups.items())


@cache
def _kind(cls: type) -> str:
    """How a value of ``cls`` is written: as it is, by itself (``as_dict``), by its fields, as a named tuple's
    object, a list or a dict."""
    if cls in (str, int, float, bool, type(None)) or issubclass(cls, (str, int, float)):
        return "plain"
    if dataclasses.is_dataclass(cls):
        return "self" if "as_dict" in cls.__dict__ else "fields"
    if issubclass(cls, tuple) and hasattr(cls, "_fields"):
        return "named"
    if issubclass(cls, (list, tuple)):
        return "list"
    if issubclass(cls, dict):
        return "dict"
    return "none"


def to_data(value: Any, **context: bool) -> Any:
    """``value`` as plain data (dicts, lists, strings, numbers, None): a dataclass by its fields in order (see
    :func:`key`), a named tuple as a dict of its fields, a tuple or list as a list; a value of a type that writes
    itself (``as_dict``, the types not yet described by their fields) as it does. ``context``: the contexts on
    (``lines=True``: the fields written only with the best lines).

    The first decision of :func:`analyzer.analysis.analyze`'s example, written and read back::

    >>> from analyzer.analysis import analyze
    >>> from analyzer.notation import parse
    >>> record = parse('''[Variant "block"] [Players "Ann, Bob"] [SetUp "1"] [Ends "4 6"] [OnTable "11"]
    ... [ToMove "Ann"]
    ... Ann: [1-4] [6-6]
    ... Bob: [1-3]
    ... 1. Ann [1-4] Bob [1-3]''', "endgame.dom")
    >>> decision = analyze(record)[0].decisions[0]
    >>> data = to_data(decision)
    >>> data["played"], data["loss"], data["class"], [a["move"] for a in data["alternatives"]]
    ('[1-4]@4', 16, 'mistake', ['[1-4]@4', '[6-6]@6'])
    >>> from_data(type(decision), data) == decision
    True
    """
    return _to(value, context)


def _to(value: Any, context: dict) -> Any:
    kind = _kind(type(value))
    if kind == "plain":
        return value
    if kind == "fields":
        return _write(value, context)
    if kind == "self":
        return value.as_dict()
    if kind == "list":
        return [_to(v, context) for v in value]
    if kind == "named":
        return {name: _to(getattr(value, name), context) for name in value._fields}
    if kind == "dict":
        return {k: _to(v, context) for k, v in value.items()}
    raise TypeError(f"no plain data for a {type(value).__name__}")


def _write(value: Any, context: dict) -> dict:
    written, flags, groups = _written(type(value))
    if flags:
        context = {**context, **{name: bool(getattr(value, name)) for name in flags}}
    empty = {g for g, names in groups if all(getattr(value, n) is None for n in names)} if groups else ()
    out = {}
    for name, key_, s in written:
        if (s.when and not context.get(s.when)) or (s.group and s.group in empty):
            continue
        v = None if s.none_if and getattr(value, s.none_if) else getattr(value, name)
        if v is None:
            if not s.omit_none:
                out[key_] = None
        elif s.inline:
            out.update(_write(v, context))
        else:
            out[key_] = s.write(v) if s.write is not None else _to(v, context)
        if s.retired is not None and key_ in out:
            # (the former name, for one schema version: the same value, or what it held before its type changed)
            out[s.retired] = out[key_] if s.retired_write is None else s.retired_write(v)
    return out


def from_data(cls: type, data: Any) -> Any:
    """A value of ``cls`` (a dataclass) read back from the plain data :func:`to_data` wrote; a key the data lacks,
    or a field not read back, keeps the field's default; keys the type does not know (what a later step adds to
    the data) are left out."""
    if data is None:
        return None
    hints = _hints(cls)
    args = {}
    for f in dataclasses.fields(cls):
        s = _spec(f)
        name = s.name or f.name
        if s.skip or s.flag or not s.read:
            continue
        if s.inline:
            inner = _inner(hints[f.name])
            if any(k in data for _, k, _ in _written(inner)[0]):
                args[f.name] = from_data(inner, data)
            continue
        if name not in data:
            if s.retired is None or s.retired not in data or s.retired_write is not None:
                continue
            name = s.retired            # (data written before the key was renamed)
        args[f.name] = _read(hints[f.name], data[name])
    return cls(**args)


def _inner(tp: Any) -> type:
    """The dataclass of an inline field's type (``X | None``: ``X``)."""
    kinds = [a for a in typing.get_args(tp) if a is not type(None)] or [tp]
    return kinds[0]


@cache
def _hints(cls: type) -> dict:
    return typing.get_type_hints(cls)


def _read(tp: Any, data: Any) -> Any:
    if data is None or tp is Any or tp is object:
        return data
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if origin in (typing.Union, types.UnionType):
        kinds = [a for a in args if a is not type(None)]
        return _read(kinds[0], data) if len(kinds) == 1 else data
    if origin is list:
        return [_read(args[0], v) for v in data] if args else list(data)
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_read(args[0], v) for v in data)
        return tuple(_read(a, v) for a, v in zip(args, data)) if args else tuple(data)
    if origin is dict or tp is dict:
        return data
    if isinstance(tp, type):
        if dataclasses.is_dataclass(tp):
            own = tp.__dict__.get("from_dict")
            return own.__get__(None, tp)(data) if own is not None else from_data(tp, data)
        if issubclass(tp, tuple) and hasattr(tp, "_fields"):
            hints = _hints(tp)
            return tp(**{name: _read(hints.get(name, Any), data[name]) for name in tp._fields})
        if issubclass(tp, enum.Enum):
            return tp(data)
    return data


def keys(cls: type) -> tuple[str, ...]:
    """Every key the data of a ``cls`` value (a dataclass written by its fields) may have, in the order written,
    an inline field's keys in its place (whatever the context: a key written only in one is listed): what a schema
    of its data must name."""
    out: list[str] = []
    for name, key_, s in _written(cls)[0]:
        out.extend(keys(_inner(_hints(cls)[name])) if s.inline else [key_, *([s.retired] if s.retired else [])])
    return tuple(out)
