"""Loaded into a Dask worker by the cluster tests (``dask worker --preload tests/cluster_hold.py``).

The worker works out the first ``HOLD_AFTER`` records as usual and holds every further one (until the
file ``HOLD_DIR/release`` appears, ten minutes at most: longer than a test waits), having made ``HOLD_DIR/holding``: whatever
order the cluster runs the tasks in, a test then knows that exactly that many are done and that the
next one is in flight, and can take the cluster away at that moment."""
import itertools
import os
import threading
import time

import analyzer.archive.task as runner

_REAL = getattr(runner, "_unheld", runner.process)          # (a second import must not wrap the wrapper)
runner._unheld = _REAL
_COUNT, _LOCK = itertools.count(), threading.Lock()


def held(label, data, options, progress=None):
    folder, after = os.environ["HOLD_DIR"], int(os.environ["HOLD_AFTER"])
    with _LOCK:
        n = next(_COUNT)
    if n >= after:
        open(os.path.join(folder, "holding"), "w").close()
        end = time.monotonic() + 600
        while time.monotonic() < end and not os.path.exists(os.path.join(folder, "release")):
            time.sleep(0.05)
    return _REAL(label, data, options, progress)


runner.process = held
