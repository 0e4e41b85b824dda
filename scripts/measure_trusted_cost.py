"""Print the trusted CPU that the worst result bytes a learner can send under the size cap cost
(grader/worstcase.py), per exercise and forger, slowest first; issue 19 asks <= 0.2 s each.

    python scripts/measure_trusted_cost.py [exercise-id ...]
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from grader import worstcase  # noqa: E402

BUDGET_S = 0.2


def main(argv: list[str]) -> int:
    rows = worstcase.worst(argv or None)
    for cpu, ex_id, which, name in rows:
        print(f"{cpu * 1000:8.1f} ms  {ex_id:24s} {which:8s} {name}")
    worst = rows[0]
    print(f"worst: {worst[0] * 1000:.1f} ms ({worst[1]}, {worst[2]}, {worst[3]}); "
          f"target <= {BUDGET_S * 1000:.0f} ms")
    return 0 if worst[0] <= BUDGET_S else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
