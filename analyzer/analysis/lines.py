"""The tree of analysed lines as a networkx graph, built from finished search results."""
from __future__ import annotations

import json

import networkx as nx

from ..analysis import GameAnalysis

__all__ = ["build_tree", "write_graphml", "tree_json"]


def build_tree(analysis: GameAnalysis) -> nx.DiGraph:
    """The played line, and at each decision every alternative with its best continuation.

    Nodes are positions (``p3`` is the position after the third analysed move; ``d3a1n2`` the
    second position on the line of alternative 1 at the decision of step 3). Edges carry the
    move, the player and the exact value (for the first side) of the move."""
    g = nx.DiGraph(title=analysis.title, sides=" vs ".join(analysis.sides))
    players = analysis.players
    values = analysis.values
    g.add_node("p0", label="start", played=True, **_value(values[0] if values else None))
    decisions = {d.index: d for d in analysis.decisions}
    lines = {entry["index"]: entry for entry in analysis.lines}
    for i in range(analysis.analysed_steps):
        g.add_node(f"p{i + 1}", label=f"after move {i + 1}", played=True, **_value(values[i + 1]))
        player, move = analysis.moves[i].player, analysis.moves[i].move
        g.add_edge(f"p{i}", f"p{i + 1}", move=move, player=player, played=True, decision=i in decisions,
                   **_value(values[i + 1]))
        if i not in lines:
            continue
        for k, alt in enumerate(lines[i]["alternatives"]):
            if alt["played"]:
                continue
            prev = f"p{i}"
            node = f"d{i}a{k}n0"
            g.add_node(node, label=f"{players[alt['seat']]} {alt['move']}", value=alt["value"], played=False)
            g.add_edge(prev, node, move=alt["move"], player=players[alt["seat"]], value=alt["value"],
                       played=False, decision=True)
            prev = node
            for j, (seat, move) in enumerate(alt["continuation"], 1):
                node = f"d{i}a{k}n{j}"
                g.add_node(node, label=f"{players[seat]} {move}", value=alt["value"], played=False)
                g.add_edge(prev, node, move=move, player=players[seat], value=alt["value"], played=False,
                           decision=False)
                prev = node
    return g


def write_graphml(graph: nx.DiGraph, path: str) -> None:
    nx.write_graphml(graph, path)


def tree_json(graph: nx.DiGraph) -> str:
    return json.dumps(nx.node_link_data(graph, edges="edges"), indent=2)


def _value(value: int | None) -> dict:
    """The ``value`` attribute, left out where the search did not compute one (its node limit)."""
    return {} if value is None else {"value": value}
