"""``domino new``: a record to start one's own from (:mod:`analyzer.template`)."""
from __future__ import annotations

import click

from .errors import clean_errors
from .options import force_option
from ..i18n import N_, gettext
from .language import TranslatedCommand

__all__ = ["new"]


@click.command(cls=TranslatedCommand,
               epilog=N_("Exit status: 0 when the record is written, 1 when it cannot be written, 2 for a usage error (an "
                         "unknown variant or rule, an output file not replaced)."))
@click.option("--variant", "variant", metavar="NAME", help=N_("The rules variant (default: partnership; the variants and their options: the variants command)."))
@click.option("--rule", "rules", multiple=True, metavar="KEY=VALUE",
              help=N_("A rule option of the variant, e.g. target=200 (repeatable)."))
@click.option("--players", type=click.IntRange(2, 6), metavar="N",
              help=N_("The number of players (default: the variant's; where the variant seats several, its players "
                      "option)."))
@click.option("--seed", type=int, default=1, show_default=True, metavar="N", help=N_("Which random example hand is dealt and played."))
@click.option("-o", "--output", metavar="OUT",
              help=N_("The record file to write (default, or -: standard output); an existing file only with --force."))
@force_option
@clean_errors
def new(variant, rules, players, seed, output, force):
    """Write a new record to start your own from: one example hand of the variant, dealt and played at random by
    its rules (it validates as it is), with tags, the deal, the moves and a comment saying what to change.
    Write your game over it and check it with `domino validate FILE`.

    \b
    Example (a Kozel record to fill in):
      domino new --variant kozel -o my.dom"""
    from ..outputs import write_atomic
    from ..template import template_text
    from .options import rule_pairs
    from .output import output_target

    to_file = output not in (None, "-")
    if to_file:
        output_target(output, [], "-o", "record", force)
    text = template_text(variant, rule_pairs(None, None, rules), players, seed)
    if not to_file:
        click.echo(text, nl=False)
        return
    write_atomic(output, text, make_folder=True)
    click.echo(gettext("wrote {path}: an example hand to write your game over; then: {command}", path=output,
                       command=f"domino validate {output}"), err=True)
