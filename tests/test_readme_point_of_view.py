"""The analysis text names its point of view at each decision (issue 52): whose values they are and
which way the mover wants them, so that `played [1-1] = +29; best +18` reads right when B/D move."""
import re

from click.testing import CliRunner

from analyzer.cli import main
from conftest import RECORDS

DECISION = re.compile(r"^  move \d+, (\w+) \(line \d+; (\S+) values: (\w+) wants (higher|lower)\): "
                      r"played (\S+) = ([+-]?\d+|\?);")


def _analysis(*args: str) -> str:
    return CliRunner().invoke(main, ["analyze", *args]).output


def _decisions(text: str) -> list[tuple[re.Match, list[int]]]:
    """Each decision line with the open-hands values of its alternatives, as listed (best first)."""
    out, lines = [], text.splitlines()
    for k, line in enumerate(lines):
        found = DECISION.match(line)
        if found:
            values = []
            for row in lines[k + 1:]:
                if not row.startswith("      ["):
                    if row.startswith("          line:"):
                        continue
                    break
                values.append(int(row.split()[1]))
            out.append((found, values))
    return out


def test_each_partnership_decision_says_a_c_values_and_which_way_its_mover_wants_them():
    text = _analysis(str(RECORDS / "seed2.dom"))
    decisions = _decisions(text)
    assert len(decisions) == sum(line.startswith("  move ") for line in text.splitlines()) > 10
    for found, values in decisions:
        player, whose, wants, direction, _, played = found.groups()
        assert whose == "A/C" and wants == player
        # the partnership: A and C are the first side (their values), B and D the other
        assert direction == ("higher" if player in "AC" else "lower")
        # the alternatives are listed best first for the mover: the way the line says is better
        assert values == sorted(values, reverse=direction == "higher")
        if len(values) > 1:
            best = values[0]
            loss = re.search(r"; loss (\d+)", found.string)
            gap = int(played) - best
            assert (-gap if direction == "higher" else gap) == (int(loss.group(1)) if loss else 0)


def test_the_book_deals_first_decision_reads_as_the_issue_asks():
    first = next(line for line in _analysis(str(RECORDS / "seed2.dom")).splitlines() if line.startswith("  move 1, B"))
    # B's [1-1]: +29 for A/C where +18 was best; B wants lower, so it loses 11 (a positive loss)
    assert first == "  move 1, B (line 14; A/C values: B wants lower): played [1-1] = +29; best +18; loss 11  MISTAKE"
    assert len(first) <= 100


def test_individual_players_each_decision_is_its_movers_values():
    text = _analysis(str(RECORDS / "variant-cutthroat-3.dom"))
    decisions = _decisions(text)
    assert decisions
    for found, values in decisions:
        player, whose, wants, direction = found.groups()[:4]
        assert whose == f"{player}'s" and wants == player and direction == "higher"
        assert values == sorted(values, reverse=True)


def test_two_players_a_and_b_name_the_first_players_values():
    text = _analysis(str(RECORDS / "variant-block7.dom"))
    assert "values for A (positive: A wins)" in text.splitlines()[0]
    movers = {found.group(1): (found.group(2), found.group(4)) for found, _ in _decisions(text)}
    assert movers == {"A": ("A's", "higher"), "B": ("A's", "lower")}
