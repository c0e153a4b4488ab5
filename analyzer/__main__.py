"""``python -m analyzer``: the ``domino`` command."""
from .cli import main

main(prog_name="domino")
