"""The exact search under the house rules of issue 67 against the same variant without them, on the same deals, in
one run (this machine is shared: read the ratios, not the seconds).

    python3 bench/bench_house.py [DEALS]

Each deal is dealt at random, played at random for a few moves (double-six: 1, the Cuban double-nine: 14) and the
values of every move of the player then to move are solved (``Solver.values``, the compiled core). Capicúa doubling
and issue 67's salida (``salida-pays=lead-wins``) are evaluated by the compiled core's ``_leaf.h``; the Dominican pass
bonuses ride in its table, and the salida of a passed double lead is paid from the history like them."""
import random
import sys
import time

from analyzer.rules import find_variant
from analyzer.rules.mechanics import position_for
from analyzer.search.block import Solver
from analyzer.tiles import tile_set

PAIRS = ((("venezuelan", ""), ("venezuelan", "capicu=double, salida=20, salida-pays=lead-wins")),
         (("venezuelan", ""), ("venezuelan", "salida=20")),
         (("partnership", "score=losers, block=last-or-right, tie=last, target=200"), ("dominican", "")),
         (("cuban", ""), ("cuban", "capicu=double, salida=20, salida-pays=lead-wins")))


def run(variant, deals: int) -> float:
    cut = 1 if variant.dealing.max_pip == 6 else 14
    start = time.process_time()
    for seed in range(deals):
        pool = list(tile_set(variant.dealing.max_pip))
        random.Random(seed).shuffle(pool)
        size = variant.dealing.hand_size
        hands = [pool[size * k:size * (k + 1)] for k in range(4)]
        pos = position_for(variant, hands, seed % 4, max_pip=variant.dealing.max_pip)
        rng = random.Random(seed)
        for _ in range(cut):
            pos.push(rng.choice(pos.legal_moves()))
        if pos.legal_moves():
            Solver(variant).values(pos)
    return time.process_time() - start


def main(deals: int) -> None:
    print(f"{'house rules':45} {'CPU s':>7} {'without':>7} {'ratio':>6}")
    for base, house in PAIRS:
        plain, with_house = run(find_variant(*base), deals), run(find_variant(*house), deals)
        name = f"{house[0]} {house[1]}".strip()
        print(f"{name:45} {with_house:7.2f} {plain:7.2f} {with_house / max(plain, 1e-9):6.2f}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 40)
