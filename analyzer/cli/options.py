"""Options that several commands share, as decorators (in the order they appear in ``--help``)."""
from __future__ import annotations

import click

from ..search.core import MAX_TABLE_MB, NODE_LIMIT, TABLE_MB
from ..i18n import N_, gettext, number

__all__ = ["PATHS", "variant_option", "output_options", "run_options", "passes_option", "thresholds_option",
           "jobs_option", "search_options", "fair_options", "fair_only", "rule_pairs", "scale_option", "force_option",
           "max_worlds_check", "fair_settings", "Renamed", "SEED", "WORLDS", "MAX_WORLDS", "COUNT", "SECONDS"]

#: the bounds of the numeric options: a number past them is a usage error (exit 2), never a failure later (a seed of
#: the drawing of deals, the search's node counter: 64-bit integers; the deals a decision draws, as ``stats --fair``;
#: a game's, a move's or a process's number)
SEED = click.IntRange(-2 ** 63, 2 ** 63 - 1)
MAX_NODES = 2 ** 63 - 1
WORLDS = click.IntRange(2, 100_000)
MAX_WORLDS = click.IntRange(2, 1_000_000)
COUNT = 1_000_000



class _Seconds(click.ParamType):
    """A CPU budget in whole seconds, digits only (``0``, ``60``), or ``none``: no budget (None). A negative
    number, a fraction or a unit is a usage error naming the option."""

    name = "seconds"

    def convert(self, value, param, ctx):
        if value is None or isinstance(value, int):
            return value
        text = str(value).strip()
        if text.lower() == "none":
            return None
        if text.isascii() and text.isdigit():
            return int(text)
        if text.startswith("-") and text[1:].isdigit():
            self.fail(gettext("{value} is negative: a budget is 0 seconds or more (or none)", value=text), param, ctx)
        self.fail(gettext("{value} is not a number of seconds: write whole seconds in digits (60), or none",
                          value=repr(text)), param, ctx)


#: the type of ``--values-seconds`` and ``--fair-seconds``
SECONDS = _Seconds()

#: the default of ``--max-size`` (MB): :data:`analyzer.notation.MAX_RECORD_BYTES`, the board's cap (not imported:
#: ``--help`` loads no reader)
MAX_SIZE_MB = 4


class Renamed(click.Option):
    """An option whose former name (``retired``) is still read for one version with the same meaning: left out of
    ``--help``, each use told in one line on standard error (the new name to write), both names at once a usage
    error. ``docs/glossary.md`` lists the retired names."""

    def __init__(self, *args, retired: str, **kwargs):
        super().__init__(*args, **kwargs)
        self.retired = retired

    @property
    def _retired_dest(self) -> str:
        return f"{self.name}__retired"

    def add_to_parser(self, parser, ctx) -> None:
        super().add_to_parser(parser, ctx)
        parser.add_option(obj=self, opts=[self.retired], dest=self._retired_dest, action="store", nargs=self.nargs)

    def handle_parse_result(self, ctx, opts, args):
        if self._retired_dest in opts:
            if self.name in opts:
                raise click.UsageError(gettext("{old} is the former name of {new}: give one of them", old=self.retired,
                                               new=self.opts[-1]), ctx)
            click.echo(gettext("note: {old} is deprecated: write {new} (the same meaning); the old name goes in the next "
                               "version", old=self.retired, new=self.opts[-1]), err=True)
            opts = {**opts, self.name: opts[self._retired_dest]}
        return super().handle_parse_result(ctx, opts, args)


def _max_size(ctx, _param, value: int) -> int:
    ctx.meta["max_size"] = value * 1024 * 1024          # (read by ``output.sources``)
    return value


def PATHS(f):       # noqa: N802 (the decorator of the record paths, used as ``@PATHS``)
    """The record paths (``PATH...``) and ``--max-size MB``: the largest record file read."""
    f = click.option("--max-size", type=click.IntRange(1, 4096), default=MAX_SIZE_MB, show_default=True, metavar="MB",
                     expose_value=False, callback=_max_size,
                     help=N_("The largest record file read, in MB: a larger one is that record's error (told from its "
                             "size before it is read), the rest of the run done."))(f)
    return click.argument("paths", metavar="PATH...", nargs=-1, required=True, type=click.Path())(f)


def variant_option(f):
    """``--variant NAME`` and ``--rule KEY=VALUE``: the rules a record is read under."""
    f = click.option("--rule", "rules", multiple=True, metavar="KEY=VALUE", callback=rule_pairs,
                     help=N_("A rule option on top of the record's Rules tag, e.g. target=200 "
                             "(repeatable; see `domino variants`)."))(f)
    return click.option("--variant", "variant", metavar="NAME",
                        help=N_("Rules variant (default: the record's Variant tag, else partnership)."))(f)


def rule_pairs(_ctx, _param, pairs) -> dict[str, str]:
    """``--rule KEY=VALUE`` (repeatable) as a dict."""
    out = {}
    for pair in pairs:
        key, eq, value = pair.partition("=")
        if not eq or not key.strip():
            raise click.BadParameter(gettext("write KEY=VALUE, not {pair}", pair=repr(pair)), param_hint="--rule")
        out[key.strip()] = value.strip()
    return out


def output_options(f, jsonl: bool = True):
    """``--quiet`` and ``--jsonl``."""
    f = click.option("-q", "--quiet", is_flag=True, help=N_("Print only the errors (no summary)."))(f)
    if jsonl:
        f = click.option("--jsonl", is_flag=True,
                         help=N_("Write one JSON object per record (one line each) as soon as it is done."))(f)
    return f


def run_options(f):
    """``--jobs``, ``--scheduler`` and ``--cache``: where and how the work on many records runs."""
    f = click.option("--cache", "cache_dir", type=click.Path(file_okay=False), metavar="DIR",
                     help=N_("Keep every result in DIR; a re-run reuses those of unchanged records (same "
                             "tool version and options), and an interrupted run resumes."))(f)
    f = click.option("--scheduler", metavar="ADDRESS",
                     help=N_("Run the work on a Dask cluster (tcp://host:8786); needs the 'cluster' extra."))(f)
    return jobs_option(f)


def _jobs(_ctx, _param, value: int | None) -> int:
    if value is not None:
        return value
    from ..workers import cores     # (the default: counted when a command runs, not for --help)

    return cores()


def jobs_option(f):
    """``--jobs N``: the processes the work runs in; default the cores this process may use
    (:func:`analyzer.workers.cores`), ``--jobs 1`` for one."""
    return click.option("-j", "--jobs", type=click.IntRange(1, 4096), default=None, callback=_jobs, metavar="N",
                        show_default=N_("the cores this process may use"),
                        help=N_("Work in N processes at once: records, or the deals of the fair analysis; a "
                                "decision valued exactly under hidden information walks in N threads (--jobs 1: one "
                                "process, one thread). The results are the same whatever N."))(f)


def passes_option(f):
    """``--insert-passes``: the records leave forced passes out (as the tag ``[Passes "omitted"]`` says)."""
    return click.option("--insert-passes", "insert_passes", is_flag=True,
                        help=N_("The records leave forced passes out: insert each pass the rules force and "
                                "say where (as the tag [Passes \"omitted\"] does)."))(f)


def thresholds_option(f):
    return click.option("--thresholds", default="3,10,25", show_default=True, metavar="I,M,B", callback=_thresholds,
                        help=N_("Smallest loss in points for an inaccuracy, a mistake and a blunder."))(f)


def _thresholds(_ctx, _param, text: str) -> str:
    from ..analysis import Thresholds       # (the analysis: loaded by the commands that take the option)

    try:
        Thresholds.parse(text)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--thresholds") from None
    return text


def _table_mb(ctx, param, value: float) -> float:
    if not (1 <= value <= MAX_TABLE_MB):         # (also catches nan, which no comparison holds for)
        raise click.BadParameter(gettext("{value} is not a size from 1 to {most} MB", value=value,
                                         most=number(MAX_TABLE_MB)))
    return value


def search_options(f):
    """``--max-nodes`` and ``--table-mb``: the bounds of the exact search (analyze, report)."""
    f = click.option("--table-mb", type=float, callback=_table_mb, default=TABLE_MB, show_default=True, metavar="MB",
                     help=N_("Memory the exact search's transposition table may take, 1 MB to 1 TB (a full table "
                             "replaces entries)."))(f)
    return click.option("--max-nodes", type=click.IntRange(1, MAX_NODES), default=None, metavar="N",
                        show_default=f"{NODE_LIMIT:,}",
                        help=N_("Positions the exact search may visit for the values of one decision; a decision "
                                "that needs more is left out, and the analysis names it."))(f)


def fair_options(f):
    """``--fair`` and its settings (``analyze`` and ``report``): ``--seat``, ``--decision-deals``, ``--max-decision-deals``,
    ``--exact-below``, ``--seed``, ``--exact-hidden/--no-exact-hidden``; for a sheet without hands ``--max-deals``
    and ``--hands`` and their CPU budgets ``--values-seconds`` and ``--fair-seconds`` (defaults: the analysis's
    ``sheets.SECONDS`` and ``FAIR_SECONDS``, written here so that ``--help`` loads no analysis; a test checks they
    agree)."""
    f = click.option("--fair-seconds", type=SECONDS, default="20", show_default=True, metavar="N|none",
                     help=N_("A sheet without hands: the CPU seconds its fair verdicts are planned to, from what a "
                             "deal's values cost: past them each decision is judged over fewer deals (at least 20), "
                             "then each player in fewer hands (at least one), and the output says so. 0: the least "
                             "(one hand a player); none: no budget."))(f)
    f = click.option("--values-seconds", type=SECONDS, default="20", show_default=True, metavar="N|none",
                     help=N_("A sheet without hands: the CPU seconds its values over the deals may take; the "
                             "analysis stops taking deals there, each decision valued over those taken, and the "
                             "output says where it stopped. 0: the least (the first deals, one a process, that "
                             "measure what a deal costs); none: no budget."))(f)
    f = click.option("--hands", "hands", type=click.IntRange(min=1, max=1000), default=8, show_default=True,
                     metavar="N",
                     help=N_("A sheet without hands: judge each player fairly in every hand he may have held over the "
                             "deals analysed where there are at most N, else in N drawn by the deals they stand for."))(f)
    f = click.option("--max-deals", type=click.IntRange(min=1, max=100_000), default=1000, show_default=True,
                     metavar="N",
                     help=N_("A sheet without hands (hands written ?): the deals of the whole record analysed, not "
                             "of one decision (--decision-deals): every deal the record allows where there are at most N, "
                             "else at most N drawn uniformly (each decision as many as it needs to tell its best "
                             "apart; their means then with intervals); each decision of each hand judged fairly over "
                             "at most N deals too."))(f)
    f = click.option("--exact-hand", type=click.IntRange(0, 5), default=3, show_default=True, metavar="N",
                     help=N_("With --fair: in the block game for two, value every decision with at most N tiles in "
                             "each hand exactly under hidden information by the CFR+ solver, over every deal the "
                             "record allows, where its certified bracket closes within its time (4: minutes a "
                             "decision; 0: none)."))(f)
    f = click.option("--exact-seconds", type=click.FloatRange(min=0, min_open=True), default=None, metavar="N",
                     help=N_("With --fair: the CPU seconds the CFR+ solver may take on one decision, its tree's "
                             "building too (default: 20 where every hand has at most 3 tiles, 40 past 240,000 deals, "
                             "either with as many again while a bracket is wider than 0.01; 900 past 3 tiles); where "
                             "its brackets have not closed by then, the fair note says so."))(f)
    f = click.option("--exact-memory", type=click.IntRange(min=1), default=None, metavar="MB",
                     help=N_("With --fair: the most memory, in MB, the CFR+ solver's tree over the players' hands "
                             "may take for one decision (default: 4096); past it the decision is sampled, and the "
                             "fair note says so."))(f)
    f = click.option("--exact-hidden/--no-exact-hidden", default=True, show_default=True,
                     help=N_("With --fair: value a decision of a two-player game exactly under hidden information "
                             "(both players playing their best by what they know) where it is small enough: in the "
                             "block game for two every hand at most --exact-hand tiles; else every hand at most 4 "
                             "tiles and at most 700 deals the record allows (needs scipy); not with --scale match. "
                             "Else, or with --no-exact-hidden, the mean over open-hands deals. In a partnership "
                             "block game, every hand at most 3 tiles and at most 2,000 deals, each move also gets "
                             "a certified bracket of its value under hidden information."))(f)
    f = click.option("--seed", type=SEED, default=0, show_default=True, metavar="N",
                     help=N_("With --fair: the seed of the drawing of deals (the same seed, the same run)."))(f)
    f = click.option("--exact-below", type=click.IntRange(1, COUNT), default=1000, show_default=True, metavar="N",
                     help=N_("With --fair: solve every deal its player could not tell from the one played, none "
                             "drawn, where one decision has at most N of them."))(f)
    f = click.option("--max-decision-deals", "max_worlds", cls=Renamed, retired="--max-worlds", type=MAX_WORLDS,
                     default=None, metavar="N",
                     help=N_("With --fair: the most deals drawn for one decision, doubling from --decision-deals while "
                             "its best move is not told apart from another (default 4 times --decision-deals; "
                             "--max-decision-deals equal to --decision-deals: no more)."))(f)
    f = click.option("--decision-deals", "worlds", cls=Renamed, retired="--worlds", type=WORLDS, default=200,
                     show_default=True, metavar="N",
                     help=N_("With --fair: the deals drawn at first for one decision that has more than --exact-below "
                             "of them, each a deal its player could not tell from the one played (more, to "
                             "--max-decision-deals, where its best move is not told apart)."))(f)
    f = click.option("--seat", "seats", multiple=True, metavar="NAME",
                     help=N_("With --fair: the player to judge (repeatable; default every player whose hand is "
                             "known)."))(f)
    return click.option("--fair", is_flag=True,
                        help=N_("Also judge every move by what its player could know: the mean value over the deals "
                                "consistent with what that player had seen."))(f)


def fair_only(fair: bool) -> None:
    """A usage error, naming the option, for a setting of the fair analysis given without it."""
    if fair:
        return
    ctx = click.get_current_context()
    for name, option in (("seats", "--seat"), ("worlds", "--decision-deals"), ("exact_below", "--exact-below"),
                         ("seed", "--seed"), ("max_worlds", "--max-decision-deals"), ("exact_hidden", "--no-exact-hidden"),
                         ("exact_hand", "--exact-hand"), ("exact_seconds", "--exact-seconds"),
                         ("exact_memory", "--exact-memory")):
        source = ctx.get_parameter_source(name)
        if source is not None and source != click.core.ParameterSource.DEFAULT:
            raise click.BadParameter("is a setting of the fair analysis: add --fair", param_hint=option)


def fair_settings(worlds: int, max_worlds: int | None, exact_below: int, seed: int, exact_hidden: bool,
                  scale: str, max_deals: int = 1000, hands: int = 8, exact_hand: int = 3,
                  values_seconds: int | None = 20, fair_seconds: int | None = 20, exact_seconds: float | None = None,
                  exact_memory: int | None = None) -> dict:
    """The pipeline's options of ``--fair``'s settings (``analyze``, ``report``), checked: ``--max-decision-deals``
    against ``--decision-deals``, and ``--exact-hidden`` said once where it cannot be kept."""
    max_worlds_check(worlds, max_worlds)
    _exact_hidden_note(exact_hidden, scale)
    return dict(fair_worlds=worlds, fair_exact_below=exact_below, fair_seed=seed, fair_max_worlds=max_worlds,
                fair_exact_hidden=exact_hidden, max_deals=max_deals, fair_hands=hands, fair_exact_hand=exact_hand,
                values_seconds=values_seconds, fair_seconds=fair_seconds, fair_exact_seconds=exact_seconds,
                fair_exact_memory=None if exact_memory is None else exact_memory << 20)


def _exact_hidden_note(exact_hidden: bool, scale: str) -> None:
    """Say once, on standard error, why ``--exact-hidden`` cannot be kept (scipy missing), where the user asked for it
    on the command line; its default is not a request (each verdict says how it was reached: "sampled", "all N
    deals"), so a plain install's ``--fair`` prints nothing it was not asked for."""
    if not exact_hidden or scale == "match":
        return
    context = click.get_current_context(silent=True)
    if context is not None and context.get_parameter_source("exact_hidden") != click.core.ParameterSource.COMMANDLINE:
        return
    from ..analysis.hiddenfair import hidden_unavailable       # (the analysis: loaded when a command runs)

    why = hidden_unavailable()
    if why is not None:
        click.echo(gettext("--exact-hidden: {reason}.", reason=why), err=True)


def max_worlds_check(worlds: int | None, max_worlds: int | None, first: str = "--decision-deals") -> None:
    """A usage error for a ``--max-decision-deals`` below the deals drawn first (``first``: the option that gives them)."""
    if worlds and max_worlds is not None and max_worlds < worlds:
        raise click.BadParameter(gettext("{most} is fewer than the {n} deals drawn first ({option})", most=max_worlds,
                                         n=worlds, option=first),
                                 param_hint="--max-decision-deals")


def scale_option(f):
    """``--scale points|match`` of ``analyze``."""
    return click.option("--scale", type=click.Choice(["points", "match"]), default="points", show_default=True,
                        help=N_("match: also grade every move by its drop in match-winning chance (MWC), from the "
                                "match position the record gives (the games before it, a Score tag); --json adds "
                                "\"mwc\" to each alternative and \"mwc_loss\" to each decision."))(f)


def force_option(f):
    """``--force``: an existing output file that is not the tool's own output of its kind is replaced."""
    return click.option("--force", is_flag=True,
                        help=N_("Replace an existing output file even when it is not the tool's own output of that kind "
                                "(without it such a file is never replaced: a page, a tree of lines, a table, a problem set "
                                "or a deck is known by the mark the tool writes in it; an existing record never is)."))(f)
