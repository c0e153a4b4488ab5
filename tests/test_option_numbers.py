"""Numbers in rule options and the Clock tag (issue 87 item 7): ASCII digits only ("٣", Arabic-Indic three, is no
number of a record), and no sign where a count or a yes/no is asked (``no-caben=-1`` read as yes, ``salida=٣`` as
3, ``[Clock "٣"]`` as 3 minutes, before)."""
import pytest

from analyzer.rules import find_variant
from analyzer.rules.matchplay import parse_clock
from analyzer.rules.options import BadOptionValue


@pytest.mark.parametrize("key, value", [("no-caben", "-1"), ("no-caben", "-yes"), ("salida", "٣"), ("salida", "-5"),
                                        ("salida", "+5"), ("minutes", "３０"), ("target", "1٠0")])
def test_an_option_refuses_a_sign_and_digits_that_are_not_ascii(key, value):
    with pytest.raises(BadOptionValue, match=key):
        find_variant("venezuelan", {key: value})


@pytest.mark.parametrize("key, value, read", [("no-caben", "1", "yes"), ("no-caben", "No", "no"), ("salida", "020", "20"),
                                              ("minutes", " 30 ", "30")])
def test_an_option_reads_plain_values_as_before(key, value, read):
    assert dict(find_variant("venezuelan", {key: value}).options)[key] == read


@pytest.mark.parametrize("clock", ["٣", "٣١:٢٠", "31:٢٠", "-3", "3:-1"])
def test_a_clock_of_digits_that_are_not_ascii_is_refused(clock):
    with pytest.raises(ValueError, match="cannot read the clock"):
        parse_clock(clock)
    assert parse_clock("31:20") == 31 + 20 / 60
