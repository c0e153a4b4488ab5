"""Read, replay, validate, solve and report recorded domino games."""

#: The version of the package, as pyproject.toml gives it (a test keeps the two equal): read from
#: here, not from the installed metadata, so that ``domino --version`` starts at once.
__version__ = "0.2.0"

from .tiles import PASS, Move, Tile  # noqa: E402
from .position import Position  # noqa: E402

__all__ = ["Tile", "Move", "PASS", "Position", "__version__"]
