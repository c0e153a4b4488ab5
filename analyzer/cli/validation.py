"""``domino validate``'s reading, repairing and printing of one source's result (the command itself
is in :mod:`analyzer.cli`)."""
from __future__ import annotations

import dataclasses
import os

import click

from ..archive import Options
from ..archive.inputs import Source, decode
from ..archive.runner import again, games_data, record_problem


def all_valid(result: dict) -> bool:
    """Whether a source was read and every game of it is valid."""
    return result["error"] is None and all(g["valid"] for g in result["games"])


def read_source(src: Source, options: Options):
    """``(record, replayed games)`` of a source, read here (the repair and the fair analysis need the games
    themselves, not the workers' summary); ``(None, [])`` when it cannot be read."""
    from ..match import replay_record
    from ..notation import parse

    text, problem = decode(src.data, src.label) if src.readable else (None, True)
    if problem:
        return None, []
    record = parse(text, src.label)
    return record, replay_record(record, options.variant, rules=dict(options.rules),
                                 insert_passes=options.insert_passes)


def read_result(src: Source, record, reps) -> dict:
    """The result of reading and replaying ``src`` here (``record`` None: it could not be read)."""
    if record is None:
        return record_problem(src.label, src.error or decode(src.data, src.label)[1])
    return {"source": src.label, "error": None, "games": games_data(reps)}


def repairs(src: Source, options: Options, max_edits: int, result: dict) -> dict:
    """The full repair search of every invalid game of ``src``, run once: its reports, and the
    errors of ``result`` marked as the slip or a follow-on by them."""
    from ..repair.triage import search_slips, triage_games

    record, replays = read_source(src, options)
    # under the rules the game was replayed with (and, in a match, its lead and worth); a game of a
    # match after a repaired one as the repaired match has it
    triages, reports = triage_games(replays, again(record, options.variant, dict(options.rules), options.insert_passes),
                                    search=lambda rep: search_slips(rep, max_edits=max_edits, limit=5, max_nodes=None))
    if result["error"] is None:
        result["games"] = games_data(replays, triages=triages)
    return reports


def validation_json(result: dict, reports: dict) -> list[dict]:
    if result["error"]:
        return [{"file": result["source"], "title": None, "valid": False, "diagnostics": [result["error"]],
                 "result": None}]
    out = []
    for k, game in enumerate(result["games"]):
        entry = {"file": result["source"], "title": game["title"], "valid": game["valid"],
                 "diagnostics": game["diagnostics"], "result": game["result"]}
        entry.update({key: game[key] for key in ("repairs", "likely") if key in game})
        if k in reports:
            data = reports[k].as_dict()
            entry["repairs"] = data.pop("repairs")
            entry["repair"] = data
        out.append(entry)
    return out


def print_validation(result: dict, reports: dict) -> None:
    path = result["source"]
    if result["error"]:
        click.echo(result["error"]["text"])
        return
    for number, game in enumerate(result["games"], 1):
        errors = game["errors"]
        verdict = "valid" if not errors else f"INVALID ({errors} error{'s' * (errors != 1)})"
        click.echo(f"{path}: game {number} ({game['title']}): {verdict}")
        for diag in game["diagnostics"]:
            click.echo(f"  {diag['text']}")
        if game.get("likely") and number - 1 not in reports:
            click.echo(f"  {game['likely']}")
        if game["result_text"] is not None:
            click.echo(f"  result: {game['result_text']}")
        if number - 1 in reports:
            _print_repair(reports[number - 1])


def _print_repair(report) -> None:
    click.echo(f"  repair: {report.message}")
    for line in report.common:
        click.echo(f"    {line}")
    for number, fix in enumerate(report.repairs, 1):
        size = len(fix.edits)
        click.echo(f"  {number}. {size} edit{'s' * (size != 1)} (cost {fix.cost:g}): "
                   + "; ".join(str(e) for e in fix.edits))
        for label, rows in (("before", fix.rows_before), ("after", fix.rows_after or ["(nothing left)"])):
            for k, row in enumerate(rows):
                click.echo(f"     {label + ':' if k == 0 else '':<8} {row}")
        click.echo(f"     {'result:':<8} {fix.result_text}")


def folder_for(path: str) -> None:
    """Make the folder a file is about to be written to, when it is missing."""
    folder = os.path.dirname(path)
    if folder:
        os.makedirs(folder, exist_ok=True)


def write_repaired(src: Source, out_path: str, reports: dict) -> None:
    """Write the record of ``src`` with every repaired game replaced by its best repair."""
    from ..notation import write
    from ..notation.writer import rewrite

    record, _ = read_source(src, Options())
    games = list(record.games) if record is not None else []
    repaired = 0
    for k, report in reports.items():
        if report.best is not None and k < len(games):
            games[k] = report.best.game
            repaired += 1
    if not repaired:
        click.echo(f"nothing written to {out_path}: no game could be repaired", err=True)
        return
    folder_for(out_path)
    text, _ = decode(src.data, src.label)
    with open(out_path, "w", encoding="utf-8") as fh:      # the source as written, but for what the repairs change
        fh.write(rewrite(text, record, games) if text is not None else write(dataclasses.replace(record, games=games)))
    click.echo(f"wrote {out_path} with {repaired} repaired game{'s' * (repaired != 1)}", err=True)
