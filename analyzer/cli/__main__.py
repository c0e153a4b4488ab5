"""``python -m analyzer.cli``: the ``domino`` command."""
from . import main

main(prog_name="domino")
