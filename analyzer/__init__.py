"""Read, replay, validate, solve and report recorded domino games."""
from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("domino-analyzer")
except PackageNotFoundError:  # running from a source tree that was never installed
    __version__ = "0.0.0"

from .tiles import PASS, Move, Tile  # noqa: E402
from .position import Position  # noqa: E402

__all__ = ["Tile", "Move", "PASS", "Position", "__version__"]
