"""Wall-clock targets inside behaviour tests (issue 28: a full run at load 13-38 failed 6 items
on time limits alone). The default suite prints each figure and never fails on it; the perf
lane asserts it:

    LAB_PERF=1 python -m pytest -q -m perf

Tests that hold such a target carry the ``perf`` marker, so that lane runs just them. CPU-time
bounds on the trusted side's work (red-team properties) are not wall-clock and stay asserted.
"""

from __future__ import annotations

import os
import warnings


def within(took: float, limit: float, what: str) -> None:
    """Report ``took`` seconds against ``limit``; assert it only in the perf lane."""
    print(f"\n{what}: {took:.3f} s (target < {limit:g} s)")
    if os.environ.get("LAB_PERF") == "1":
        assert took < limit, f"{what}: {took:.3f} s, target < {limit:g} s"
    elif took >= limit:
        warnings.warn(f"{what}: {took:.3f} s, over its {limit:g} s target (asserted only in "
                      "the perf lane: LAB_PERF=1 python -m pytest -m perf)", stacklevel=2)
