"""The one JSON writer and reader of the result types (``analyzer.codec``): what each field's metadata says, and the
analysis of real records written and read back."""
from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass, field, replace
from typing import NamedTuple

import pytest

from analyzer.analysis import AnalysisSettings, Decision, GameAnalysis, Played, analyze_replay
from analyzer.codec import from_data, key, to_data
from analyzer.match import replay_record
from analyzer.notation import read

from conftest import RECORDS


class Pair(NamedTuple):
    a: int
    b: str


@dataclass
class Inner:
    x: int
    hidden: str | None = field(default=None, metadata=key(when="secret"))


@dataclass
class Outer:
    first: int
    cls: str | None = field(metadata=key("class", after="last"))
    last: int = 0
    maybe: int | None = field(default=None, metadata=key(omit_none=True))
    inner: Inner | None = None
    pairs: list[Pair] = field(default_factory=list)
    low: int | None = field(default=None, metadata=key(group="range"))
    high: int | None = field(default=None, metadata=key(group="range"))
    secret: bool = field(default=False, metadata=key(flag=True))
    note: str | None = field(default=None, metadata=key(when="secret", read=False))
    cached: object = field(default=None, metadata=key(skip=True))
    shout: str = field(default="", metadata=key(write=str.upper))


def test_each_key_is_written_as_its_metadata_says_and_in_its_place():
    plain = Outer(1, "x", 2, inner=Inner(3, "h"), pairs=[Pair(4, "y")], cached=object(), shout="hi")
    assert list(to_data(plain)) == ["first", "last", "class", "inner", "pairs", "shout"]   # "class" after "last"
    assert to_data(plain) == {"first": 1, "last": 2, "class": "x", "inner": {"x": 3}, "pairs": [{"a": 4, "b": "y"}],
                              "shout": "HI"}
    # a flag field sets its context for the value and what it holds; a group is written where one of it is known
    told = Outer(1, None, maybe=0, inner=Inner(3, "h"), low=5, secret=True, note="n")
    assert to_data(told) == {"first": 1, "last": 0, "class": None, "maybe": 0, "inner": {"x": 3, "hidden": "h"},
                             "pairs": [], "low": 5, "high": None, "note": "n", "shout": ""}
    # a context given by the caller
    assert to_data(Inner(1, "h"), secret=True) == {"x": 1, "hidden": "h"}
    assert to_data(Inner(1, "h")) == {"x": 1}


def test_read_back_keeps_defaults_for_what_is_not_read_and_drops_unknown_keys():
    data = to_data(Outer(1, "x", 2, maybe=7, inner=Inner(3), pairs=[Pair(4, "y")], low=1, high=2, secret=True,
                         note="n"))
    data["added_later"] = {"mwc": 0.5}            # (what a later step adds to the data)
    back = from_data(Outer, json.loads(json.dumps(data)))
    assert back == Outer(1, "x", 2, maybe=7, inner=Inner(3), pairs=[Pair(4, "y")], low=1, high=2)
    assert isinstance(back.pairs[0], Pair) and back.note is None and back.secret is False


def test_a_value_of_no_known_shape_is_refused_by_name():
    with pytest.raises(TypeError, match="complex"):
        to_data([1j])


@pytest.mark.parametrize("name", ["seed1.dom", "variant-cross.dom", "variant-draw.dom"])
def test_an_analysis_of_a_real_record_comes_back_from_its_json(name):
    for rep in replay_record(read(RECORDS / name)):
        analysis = analyze_replay(rep, AnalysisSettings(lines=True))
        data = json.loads(json.dumps(to_data(analysis, lines=True)))
        assert list(data)[:4] == ["title", "players", "sides", "decisions"]
        assert all([k for k in d if k in ("unsolved", "class")] == ["unsolved", "class"]   # version 1's order of
                   for d in data["decisions"])                                            # them (a new key anywhere)
        assert "fair" not in data and "deals" not in data                               # (no fair analysis, no sheet)
        back = from_data(GameAnalysis, data)
        # (the best lines are plain data, their moves' pairs lists once in JSON)
        assert replace(back, lines=[]) == replace(analysis, lines=[]) and list(back.lines) == data["lines"]
        assert all(isinstance(m, Played) for m in back.moves) and all(isinstance(d, Decision) for d in back.decisions)
        assert to_data(back, lines=True) == data


def _package_dataclasses():
    """Every dataclass defined in a module of the package (each module imported; the command line's entry module,
    which runs the command line, aside)."""
    import importlib
    import pkgutil

    import analyzer
    for info in pkgutil.walk_packages(analyzer.__path__, "analyzer."):
        if info.name.endswith("__main__"):
            continue
        module = importlib.import_module(info.name)
        yield from (v for v in vars(module).values()
                    if isinstance(v, type) and dataclasses.is_dataclass(v) and v.__module__ == module.__name__)


def test_every_dataclass_of_the_package_has_keys_the_writer_can_write():
    """Every result type (every dataclass of the package: the writer may meet any of them) passes the codec's
    check, and each field written only in a context names a context that some type's flag field sets or some
    call of ``to_data`` in the package gives."""
    import re

    from analyzer import codec
    from conftest import ROOT
    classes = list(_package_dataclasses())
    assert len(classes) > 100           # (the walk reached the package: its result types are many)
    flags = {f.name for cls in classes for f in dataclasses.fields(cls) if codec._spec(f).flag}
    for path in (ROOT / "analyzer").rglob("*.py"):
        flags |= set(re.findall(r"\bto_data\([^()]*(?:\([^()]*\)[^()]*)*?,\s*(\w+)=", path.read_text(encoding="utf-8")))
    for cls in classes:
        codec.check(cls)
        for f in dataclasses.fields(cls):
            when = codec._spec(f).when
            assert when is None or when in flags, f"{cls.__name__}.{f.name}: key(when={when!r}) no flag sets"


def test_a_key_naming_a_json_key_where_a_field_is_wanted_fails_by_its_name():
    """``key(after="class")`` where the field before it is ``cls`` (written ``"class"``): the check, and the
    writer before its first value, name the type, the field and the mistake (once a ``StopIteration`` deep in
    the writer, an internal error at every ``domino analyze``)."""
    from analyzer import codec

    @dataclass(frozen=True)
    class Slipped:
        cls: str = field(metadata=key("class"))
        after_it: int = field(default=0, metadata=key(after="class"))

    @dataclass(frozen=True)
    class Twice:
        a: int = field(metadata=key("x"))
        b: int = field(metadata=key("x"))

    with pytest.raises(TypeError, match=r"Slipped\.after_it: key\(after='class'\) names no other field"):
        codec.check(Slipped)
    with pytest.raises(TypeError, match=r"Slipped\.after_it"):
        to_data(Slipped("c", 1))
    with pytest.raises(TypeError, match=r"Twice: the JSON key 'x' is written twice"):
        codec.check(Twice)
    codec.check(Outer)                  # (this file's own example, every kind of key: sound)


@dataclass(frozen=True)
class Span:
    low: int
    high: int


def _span_words(span: Span) -> str:
    return f"{span.low} to {span.high}"


@dataclass(frozen=True)
class Retyped:
    span: Span | None = field(default=None, metadata=key("range", omit_none=True, retired="span",
                                                         retired_write=_span_words))


def test_a_key_whose_type_changed_writes_its_former_form_beside_it_and_reads_only_the_new():
    """``key(retired=..., retired_write=...)``: the new key holds the value, the former one (for one schema
    version) what it held before its type changed, made from the value; data with only the former key keeps the
    field's default (its words are not read back); nothing where the value is left out; a ``retired_write``
    without a former name is refused by name."""
    from analyzer import codec

    value = Retyped(Span(2, 5))
    data = to_data(value)
    assert data == {"range": {"low": 2, "high": 5}, "span": "2 to 5"}
    assert from_data(Retyped, data) == value
    assert from_data(Retyped, {"span": "2 to 5"}) == Retyped()
    assert to_data(Retyped()) == {}
    assert codec.retired_keys(Retyped) == {"span": "range"} and codec.keys(Retyped) == ("range", "span")

    @dataclass(frozen=True)
    class Nameless:
        span: Span | None = field(default=None, metadata=key(retired_write=_span_words))

    with pytest.raises(TypeError, match=r"Nameless\.span: key\(retired_write=\.\.\.\) needs a retired name"):
        codec.check(Nameless)
