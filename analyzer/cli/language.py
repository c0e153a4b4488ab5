"""The command line's language: chosen from ``--lang`` (on the group, before the command) or the environment
(``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG``, the first one set), English where no catalogue fits, never an
error; and ``--help`` in it: a command's help, its options' and click's own words (``Usage:``, ``Options:``...)
are looked up in the catalogue when the help is shown (they are written in English in the code, marked ``N_``).

Click writes its own words through the standard library's ``gettext`` (its modules' ``_``), which reads the
process's environment and a global domain; they are pointed at :func:`analyzer.i18n.gettext` here, so that click's
words follow the language chosen like the rest (and the catalogue holds the ones a user meets: :data:`CLICK_WORDS`).
"""
from __future__ import annotations

import copy
import inspect
import os
import sys

import click

from ..i18n import N_, gettext, negotiate, ngettext_mark, plural_form, use

__all__ = ["ENVIRONMENT", "chosen", "TranslatedCommand", "TranslatedGroup", "translate_click"]

#: the longest first sentence of a command's help its line in the group's list shows whole (every command's is shorter)
SHORT_HELP_LIMIT = 1000

#: the environment variables that name the user's language, in the order they are read
ENVIRONMENT = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")

#: click's own words a user meets (its help page, its usage errors), for the catalogue (click looks them up)
CLICK_WORDS = (N_("Usage:"), N_("Options"), N_("Commands"), N_("Show this message and exit."),
               N_("Show the version and exit."), N_("default: {default}"), N_("env var: {var}"), N_("(dynamic)"),
               N_("required"), N_("Aborted!"), N_("Missing command."), N_("Error: {message}"),
               N_("Try '{command} {option}' for help."), N_("Invalid value: {message}"),
               N_("Invalid value for {param_hint}: {message}"), N_("Missing argument"), N_("Missing option"),
               N_("Missing parameter: {param_name}"), N_("Missing {param_type}"), N_("No such option {name!r}."),
               N_("No such command {name!r}."), N_("Could not open file {filename!r}: {message}"),
               N_("{value!r} is not a valid {number_type}."), N_("{value} is not in the range {range}."),
               N_("{value!r} is not a valid boolean. Recognized values: {states}"), N_("file"), N_("directory"),
               N_("path"), N_("{name} {filename!r} does not exist."), N_("{name} {filename!r} is a file."),
               N_("{name} {filename!r} is a directory."), N_("{name} {filename!r} is not readable."),
               N_("{name} {filename!r} is not writable."), N_("Option {name!r} does not take a value."),
               N_("Argument {name!r} takes {nargs} values."))
#: its words with plural forms (click picks the form: :func:`analyzer.i18n.plural_form`)
CLICK_PLURALS = (ngettext_mark("Got unexpected extra argument ({args})", "Got unexpected extra arguments ({args})"),
                 ngettext_mark("Did you mean {possibility}?", "(Did you mean one of: {possibilities}?)"),
                 ngettext_mark("{value!r} is not {choice}.", "{value!r} is not one of {choices}."),
                 ngettext_mark("Option {name!r} requires an argument.", "Option {name!r} requires {nargs} arguments."))


def chosen(args, environ=os.environ) -> str:
    """The language of a run: the value of ``--lang`` among the group's options in ``args`` (before the command's
    name), else the first of :data:`ENVIRONMENT` set in ``environ``; a catalogue's code, or ``"en"``."""
    args = list(args)
    for k, arg in enumerate(args):
        if arg == "--lang" and k + 1 < len(args):
            return negotiate(args[k + 1])
        if arg.startswith("--lang="):
            return negotiate(arg.split("=", 1)[1])
        if not arg.startswith("-"):
            break                           # (the command's name: its options are its own)
    for name in ENVIRONMENT:
        if environ.get(name):
            return negotiate(environ[name])
    return "en"


def _words(text: str | None) -> str | None:
    """A help text in the active language (its catalogue's key: the text as click shows it, cleaned of its
    docstring indent)."""
    return None if text is None else gettext(inspect.cleandoc(text))


def _shown(command: click.Command) -> click.Command:
    """A copy of ``command`` with its help and its parameters' help in the active language (the command itself
    keeps the English it was written in)."""
    shown = copy.copy(command)
    shown.help, shown.short_help, shown.epilog = (_words(command.help), _words(command.short_help),
                                                  _words(command.epilog))
    params = []
    for param in command.params:
        if getattr(param, "help", None) or isinstance(getattr(param, "show_default", None), str):
            param = copy.copy(param)
            param.help = _words(param.help)
            if isinstance(param.show_default, str):       # (a default told in words)
                param.show_default = gettext(param.show_default)
        params.append(param)
    shown.params = params
    shown._help_option = None       # (click keeps its --help option, its words those of the language it was made in)
    return shown


class TranslatedCommand(click.Command):
    """A command whose ``--help`` (and its line in the group's list) is shown in the active language."""

    def get_help(self, ctx: click.Context) -> str:
        return click.Command.get_help(_shown(self), ctx)

    def get_short_help_str(self, limit: int = 45) -> str:
        """The command's line in the group's list: the first sentence of its help, whole (wrapped by the list, never
        cut short with "...": ``limit`` is click's width, not kept)."""
        return click.Command.get_short_help_str(_shown(self), SHORT_HELP_LIMIT)


class TranslatedGroup(click.Group):
    """The group: its ``--help`` in the active language, like its commands'; a run of it in the language
    :func:`chosen` from its arguments and the environment (the language set back when it ends)."""

    def main(self, args=None, *rest, **extra):
        if args is None:
            args = sys.argv[1:]
        translate_click()
        with use(chosen(args)):
            return super().main(args, *rest, **extra)

    def get_help(self, ctx: click.Context) -> str:
        return click.Group.get_help(_shown(self), ctx)


def translate_click() -> None:
    """Point click's own words (its modules' ``_`` and ``ngettext``) at the catalogue's active language (once a
    process; English stays click's own words)."""
    for name in ("core", "decorators", "exceptions", "formatting", "parser", "termui", "types", "utils"):
        module = sys.modules.get(f"click.{name}")
        if module is None:
            continue
        if getattr(module, "_", None) is not None:
            module._ = gettext
        if getattr(module, "ngettext", None) is not None:
            module.ngettext = plural_form
