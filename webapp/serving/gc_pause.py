"""The collector's longest pause, out of the requests' way (no gradio).

A full (generation 2) collection in the app scans every object it holds: after start-up that is
about 320,000 (torch, gradio, the demo, the grader's bookkeeping), and one full collection takes
about 210 ms on a 2-core machine (measured 2026-12-02). It runs on whichever thread happens to
allocate, the event loop included, so every request of every learner waits it out: the event
loop probe of scripts/measure_playground_latency.py saw 150 ms stalls while hostile submissions
were judged (issue 19's bound is 50 ms). Objects made during start-up live as long as the
process, so they are moved out of the collector's sight once it is done (``gc.freeze``); later
collections scan only what requests made since.
"""

from __future__ import annotations

import gc


def freeze_startup_objects() -> int:
    """Collect once, then exempt every object alive now from later collections; returns how
    many are frozen. Call once start-up (imports, warm-up) is over."""
    gc.collect()
    gc.freeze()
    return gc.get_freeze_count()
