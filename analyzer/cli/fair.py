"""The fair analysis on the command line: ``replay --view`` (what a player can infer) and
``analyze --fair`` (every move judged by what its player could know)."""
from __future__ import annotations

import dataclasses
import sys
from concurrent.futures.process import BrokenProcessPool

import click

from ..archive import Options, Summary
from ..archive.runner import record_problem, worker_died, worker_pool
from ..diagnostics import Diagnostic
from ..replay import Replay
from ..replay.json import hand_names


def fair_options(f):
    """``--fair`` and its settings (``analyze`` and ``report``): ``--seat``, ``--worlds``,
    ``--exact-below``, ``--seed``."""
    f = click.option("--seed", type=int, default=0, show_default=True, metavar="N",
                     help="With --fair: the seed of the drawing of deals (the same seed, the same run).")(f)
    f = click.option("--exact-below", type=click.IntRange(min=1), default=1000, show_default=True, metavar="N",
                     help="With --fair: solve every consistent deal when there are at most N.")(f)
    f = click.option("--worlds", type=click.IntRange(min=2), default=200, show_default=True, metavar="N",
                     help="With --fair: deals drawn for a decision that has more than --exact-below of them.")(f)
    f = click.option("--seat", "seats", multiple=True, metavar="NAME",
                     help="With --fair: the player to judge (repeatable; default every player whose hand is "
                          "known).")(f)
    return click.option("--fair", is_flag=True,
                        help="Also judge every move by what its player could know: the mean value over the deals "
                             "consistent with what that player had seen.")(f)


def fair_only(fair: bool) -> None:
    """A usage error, naming the option, for a setting of the fair analysis given without it."""
    if fair:
        return
    ctx = click.get_current_context()
    for name, option in (("seats", "--seat"), ("worlds", "--worlds"), ("exact_below", "--exact-below"),
                         ("seed", "--seed")):
        source = ctx.get_parameter_source(name)
        if source is not None and source != click.core.ParameterSource.DEFAULT:
            raise click.BadParameter("is a setting of the fair analysis: add --fair", param_hint=option)


def fair_settings(options: Options, fair: bool, seats, worlds: int, exact_below: int, seed: int) -> Options:
    """``options`` with the fair analysis of ``--fair`` (unchanged without it; a setting of it given
    without it is a usage error)."""
    fair_only(fair)
    if not fair:
        return options
    return dataclasses.replace(options, fair_worlds=worlds, fair_seed=seed, fair_exact_below=exact_below,
                               fair_seats=tuple(seats))


def _inference(rep: Replay, view: str, several: bool = False) -> dict:
    """The ``inference`` member of ``replay --view``: the worlds after each move seen. A name not of
    this game is a usage error for one record; among ``several`` the game says so and the run goes on."""
    from ..inference import InferenceUnsupported, NoWorld, holds_table

    if view.lower() == "public":
        seat, name = None, "public"
    elif view in rep.players:
        seat, name = rep.players.index(view), view
    elif several:
        return {"view": view, "steps": [], "stopped": f"{view} is not a player of this game ({', '.join(rep.players)})"}
    else:
        raise click.BadParameter(f"{view!r} is not a player of this game ({', '.join(rep.players)}) nor "
                                 "'public'", param_hint="--view")
    out: dict = {"view": name, "steps": []}
    try:
        for seen in range(rep.legal_prefix + 1):
            count, holds = holds_table(rep, seen, seat)
            out["steps"].append({"seen": seen, "worlds": count, "holds": holds})
    except (NoWorld, InferenceUnsupported) as exc:
        out["stopped"] = str(exc)
    if rep.legal_prefix < len(rep.steps) and "stopped" not in out:
        out["stopped"] = f"the record breaks the rules at move {rep.legal_prefix + 1}"
    return out


def _print_inference(step: dict, view: str | None = None) -> None:
    """What ``view`` can infer after a move: the count of deals and the compact tile-by-holder matrix."""
    from ..report.verdicts import holds_lines

    for k, line in enumerate(holds_lines(step["worlds"], step["holds"], view)):
        click.echo(("       " if k == 0 else "         ") + line)


def _hands_line(rep: Replay, step, view: str | None, seen: dict | None = None) -> str:
    """Every hand after ``step``; with ``--view``, the viewer's own hand and only the size of the others (what
    the viewer may infer of them is the matrix below, not the hands in full; ``seen``: that inference)."""
    def hand(s: int, name: str) -> str:
        if view is None or name == view:
            return f"{name}: {' '.join(hand_names(rep, step.hands_after[s])) or '-'}"
        if seen is not None and name in seen["holds"]:
            n = round(sum(seen["holds"][name].values()))       # the chances of a hand add up to its size
        elif not rep.initial.hidden[s]:
            n = bin(step.hands_after[s]).count("1")
        else:
            return f"{name}: ?"
        return f"{name}: {n} tile{'s' * (n != 1)}"
    return "  ".join(hand(s, name) for s, name in enumerate(rep.players))


class _WorldsBar:
    """A bar on standard error that counts the worlds of one game solved by the fair analysis (a
    French hand has thousands: minutes), with the time left; nothing when the output is not a terminal."""

    def __init__(self, label: str):
        self.label, self.bar = label, None

    def __enter__(self):
        return self

    def __call__(self, done: int, total: int) -> None:
        from . import _terminal

        if self.bar is None:
            if not _terminal():
                return
            self.bar = click.progressbar(length=total, label=f"worlds of {self.label}", file=sys.stderr,
                                         show_eta=True, show_pos=True)
            self.bar.__enter__()
        self.bar.update(done - self.bar.pos)

    def __exit__(self, *exc):
        if self.bar is not None:
            self.bar.__exit__(*exc)
            click.echo("\r\033[K", err=True, nl=False)       # the line is cleared for what is printed
        return False


def _analyze_fair(sources, options: Options, as_json: bool, seats, settings: dict, quiet: bool = False,
                  jsonl: bool = False) -> None:
    """``analyze --fair``: in this process (its worlds in ``--jobs`` processes), record by record
    (``--quiet``: the errors only; ``--jsonl``: a JSON object per record as it is done)."""
    from ..analysis import Thresholds, analyze_replay
    from ..analysis.fair import FairThresholds, fair_analyze

    from . import _echo_errors, _finish, _jsonl, _print_analysis
    from .validation import no_game, read_source, read_result

    limits = Thresholds.parse(options.thresholds)
    summary, analyses = Summary(), []
    for src in sources:
        src = src.read()
        record, reps = read_source(src, options)
        result = read_result(src, record, reps)
        if record is None:
            summary.add(result)
            if jsonl:
                _jsonl(result)
            else:
                _echo_errors(result, err=as_json)      # beside a JSON document: on standard error
            continue
        # one record: a name not in it is a slip of the command; several: each game notes who is not in it
        for rep in reps if len(sources) == 1 else ():
            for name in seats:
                if name not in rep.players:
                    raise click.BadParameter(f"{name!r} is not a player of {rep.title} ({', '.join(rep.players)})",
                                             param_hint="--seat")
        done = []
        try:
            for number, rep in enumerate(reps, 1):
                # its worlds in --jobs processes that end when the run is killed outright
                with _WorldsBar(f"{src.label}, game {number}" if len(reps) > 1 else src.label) as bar:
                    fair = fair_analyze(rep, analyze_replay(rep, limits, node_limit=options.max_nodes,
                                                            table_mb=options.table_mb),
                                        seats=seats, thresholds=FairThresholds(limits), table_mb=options.table_mb,
                                        pool=worker_pool, progress=bar, **settings)
                done.append((number, fair))
        except BrokenProcessPool:   # a worker died (out of memory, a crash): this record only
            result = worker_died(src.label)
        except Exception as exc:  # a bug on one record must not end the run over the others
            result = record_problem(src.label, Diagnostic(
                "error", "internal-error", f"the analyser failed on this record ({type(exc).__name__}: {exc}); "
                "please report it", source=src.label))
        summary.add(result)
        if jsonl:
            for number, fair in done if result["games"] else ():    # none: the record failed
                result["games"][number - 1]["analysis"] = fair.as_dict()
            _jsonl(result)
            continue
        if quiet or result["error"]:
            _echo_errors(result, err=as_json and not quiet)    # beside a JSON document: on standard error
        if quiet:
            continue
        for number, fair in done:
            if as_json:
                game = result["games"][number - 1]
                analyses.append({"file": src.label, **fair.as_dict(), "valid": game["valid"],
                                 "diagnostics": game["diagnostics"]})
            elif not no_game(result["games"][number - 1]):    # an empty file: its one error, no analysis
                _print_analysis(number, fair)
        if done and not as_json and not result["error"]:
            _echo_errors(result)          # every error of a broken record, after its analysis
    _finish(summary, quiet, err=jsonl, games=analyses if as_json and not (jsonl or quiet) else None)


def _print_fair(d) -> None:
    """The fair verdict of a decision (``analyze --fair``)."""
    f = d.fair
    how = f"all {f.worlds:,} deals" if f.method == "exact" else f"{f.worlds:,} of {f.total:,} deals, sampled"
    mark = {"real": "  REAL " + (f.cls or "").upper(), "hindsight": "  hindsight only", "none": ""}[f.verdict]
    click.echo(f"    fair ({f.view}'s view, {how}): best {f.best}; loss {f.loss:.2f}{mark}")


def _alt_order(alt, side: int) -> tuple[bool, float]:
    """Best first for the mover: by the fair mean where there is one (the fair best is the verdict), else by
    the open-hands value; a move with neither (not valued within the node limit) last."""
    value = alt.fair.mean if getattr(alt, "fair", None) is not None else alt.value
    if value is None:
        return True, 0
    return False, -value if side == 0 else value


def _all_partial(sources, options: Options) -> bool:
    """Whether every record named has a game whose deal is not fully known (then ``analyze``
    runs the fair analysis for the seats whose hand is known instead of refusing)."""
    from .validation import read_source

    if not sources:
        return False
    for src in sources:                 # (stops at the first record with every hand known)
        src = src.read()
        if not src.readable:
            return False
        _, reps = read_source(src, options)
        if not reps or not any(any(rep.initial.hidden) for rep in reps):
            return False
    return True
