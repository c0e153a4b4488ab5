"""``domino variants``: every rules variant, its options and the rule text it comes from."""
from __future__ import annotations

import json

import click

from .errors import clean_errors
from ..i18n import N_
from .language import TranslatedCommand

__all__ = ["variants"]


@click.command(cls=TranslatedCommand,
               epilog=N_("Exit status: 0 when the list is printed, 2 for a usage error."))
@click.option("--json", "as_json", is_flag=True, help=N_("Print the catalogue as JSON."))
@click.option("-v", "--verbose", is_flag=True, help=N_("Explain every option and preset."))
@clean_errors
def variants(as_json, verbose):
    """List every variant, its options with their defaults, and the rule text it comes from.

    \b
    Example (every option of every variant explained):
      domino variants -v"""
    from ..rules.catalog import catalog, catalog_text

    if as_json:
        click.echo(json.dumps(catalog(), indent=2, ensure_ascii=False))
        return
    click.echo(catalog_text(verbose), nl=False)
