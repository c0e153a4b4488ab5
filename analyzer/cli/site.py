"""``domino site``: the analysis board as a static site (docs/site.md), and a record as a link to it."""
from __future__ import annotations

import pathlib

import click

from .errors import clean_errors
from ..i18n import N_, decimal, gettext, ngettext, number
from .language import TranslatedCommand

__all__ = ["site"]


@click.command(cls=TranslatedCommand,
               epilog=N_("Exit status: 0 when the site is built or the link or record printed, 1 when the build fails or a"
                         " link opens nothing, 2 for a usage error."))
@click.option("-o", "--output", "out", type=click.Path(file_okay=False), metavar="DIR",
              help=N_("The folder to build the site in (new or empty; --force replaces a site built there before)."))
@click.option("--pyodide", type=click.Path(exists=True, file_okay=False), metavar="DIR",
              help=N_("Pyodide's npm package (default: node_modules/pyodide here, above, or beside the source tree: "
                      "`npm install` in the repository puts it there)."))
@click.option("--force", is_flag=True, help=N_("Replace the files of a site built in DIR before."))
@click.option("--link", "record", type=click.Path(exists=True, dir_okay=False), metavar="FILE",
              help=N_("Print the link that opens FILE on the site instead of building (#r=, the record deflated "
                      "and base64url-encoded)."))
@click.option("--at", "move", metavar="gN.M", help=N_("With --link: open at game N after M moves (g1.15)."))
@click.option("--base", default="", metavar="URL", help=N_("With --link: the site's address, put before the #."))
@click.option("--read", "link", metavar="LINK", help=N_("Print the record a link carries (and its move on standard "
                                                        "error); a broken link is an error that says why."))
@clean_errors
def site(out, pyodide, force, record, move, base, link):
    """Build the analysis board as a static site: the board's page, Pyodide (from its npm package, served by
    the site itself) and this project's Python, which runs every check and analysis in the reader's browser.
    Any static host serves the folder (a page opened from disk cannot load Pyodide: serve it).

    A record in a link: --link FILE prints the link that opens it (and --read LINK the record a link
    carries). To build: npm install (Pyodide, as package.json pins it), then -o DIR; try the
    folder with python3 -m http.server -d DIR.

    \b
    Example (the link of the book's deal at move 15):
      domino site --link records/seed1.dom --at g1.15"""
    from ..notation.link import LinkError, make_fragment, read_fragment, read_move

    if link is not None:
        try:
            found = read_fragment(link)
        except LinkError as exc:
            raise click.ClickException(gettext("the link opens nothing: {reason}", reason=exc)) from None
        click.echo(found.text, nl=False)
        if found.game is not None:
            click.echo(gettext("(at {move})", move=found.move()), err=True)
        return
    if record is not None:
        game = step = None
        if move:
            try:
                game, step = read_move(move)
            except LinkError as exc:
                raise click.BadParameter(str(exc), param_hint="--at") from None
        data = pathlib.Path(record).read_bytes()
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise click.ClickException(gettext("{path} is not UTF-8 text (byte {byte}): no record", path=record,
                                                 byte=number(exc.start))) from None
        click.echo(base + make_fragment(text, game, step))
        return
    if not out:
        raise click.UsageError(gettext("give the folder to build in (-o DIR), or --link FILE, or --read LINK"))
    from ..site.build import SiteError, build_site

    try:
        built = build_site(out, pyodide=pyodide, force=force)
    except SiteError as exc:
        raise click.ClickException(str(exc)) from None
    python = built.sizes.get("python/domino.zip", 0)
    mb = 1048576
    click.echo(ngettext(
        "{folder}: the board as a static site, {n} file, {total} MB (Pyodide {version}: {pyodide} MB; the "
        "project's Python: {python} MB; a first visit downloads {first} MB, the equity tables only when read). "
        "Serve it, e.g. python3 -m http.server -d {folder}",
        "{folder}: the board as a static site, {n} files, {total} MB (Pyodide {version}: {pyodide} MB; the "
        "project's Python: {python} MB; a first visit downloads {first} MB, the equity tables only when read). "
        "Serve it, e.g. python3 -m http.server -d {folder}", len(built.sizes),
        folder=built.folder, total=decimal(built.total / mb, 1), version=built.pyodide,
        pyodide=decimal(sum(v for k, v in built.sizes.items() if k.startswith("pyodide/")) / mb, 1),
        python=decimal(python / mb, 1), first=decimal(built.first_visit / mb, 1)))
