import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
SEEDS = ROOT / "tests" / "data"   # verbatim copies of the rule texts the tests quote
RECORDS = ROOT / "records"

SEED_HANDS = {
    "A": "[0-5] [1-3] [1-4] [2-2] [3-4] [4-4] [5-6]",
    "B": "[0-0] [0-1] [0-6] [1-1] [1-6] [2-3] [2-6]",
    "C": "[0-2] [2-4] [2-5] [3-3] [3-6] [4-5] [4-6]",
    "D": "[0-3] [0-4] [1-2] [1-5] [3-5] [5-5] [6-6]",
}
SEED_DEAL = "\n".join(f"{p}: {t}" for p, t in SEED_HANDS.items())


@pytest.fixture
def seed_deal() -> str:
    """The example deal of INTERNATIONAL DOMINOES as quoted in the seed text."""
    return SEED_DEAL
