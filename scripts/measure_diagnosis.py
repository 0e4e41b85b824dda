"""Measure issue 9's goal on the learner-style variants in tests/exercises/variants_*.py:
the mistake is named at least 90% of the time and never named wrongly; no wrong variant
scores full, every correct one does. Prints one line per exercise and the totals.

    python scripts/measure_diagnosis.py [-v] [--holdout] [--fresh]

--fresh grades like the app: new hidden inputs for every submission.

--holdout also grades tests/exercises/holdout_variants.py: variants written after the
diagnosis and never tuned against, for an honest estimate of how it generalises.
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "exercises")]


def main(verbose: bool = False, holdout: bool = False, fresh: bool = False) -> int:
    from grader.api import Grader as _Grader

    def Grader(workers: int = 1) -> _Grader:  # noqa: N802 - --fresh grades like the app
        return _Grader(workers=workers, fresh_inputs=fresh)

    totals = dict(wrong=0, named=0, misnamed=0, false_full=0, correct=0, correct_full=0)
    with Grader(workers=1) as grader:
        for path in sorted((ROOT / "tests" / "exercises").glob("variants_*.py")):
            if path.stem == "variants_unknown":
                continue
            exercise_id = path.stem.removeprefix("variants_").replace("_", "-")
            counts = dict.fromkeys(totals, 0)
            module = importlib.import_module(path.stem)
            learner_for = getattr(module, "GRADED_FOR", {})  # shown on a learner's own numbers
            for label, expected, source in module.VARIANTS:
                rep = grader.grade(exercise_id, source, learner_id=learner_for.get(expected))
                if expected is None:
                    counts["correct"] += 1
                    counts["correct_full"] += rep.full_marks
                    continue
                named = set(rep.mistakes())
                counts["wrong"] += 1
                counts["false_full"] += rep.full_marks
                counts["named"] += expected in named
                counts["misnamed"] += bool(named - {expected})
                if verbose and (expected not in named or named - {expected}):
                    print(f"  {exercise_id}: {label!r}: expected {expected}, named {sorted(named)}")
            for k in totals:
                totals[k] += counts[k]
            print(f"{exercise_id:24s} wrong {counts['wrong']:3d}  named {counts['named']:3d}  "
                  f"named wrongly {counts['misnamed']}  full marks {counts['false_full']}  "
                  f"correct {counts['correct_full']}/{counts['correct']} full")
    import variants_unknown

    with Grader(workers=1) as grader:
        wrongly = 0
        for exercise_id, label, allowed, source in variants_unknown.UNKNOWN:
            rep = grader.grade(exercise_id, source)
            bad = rep.full_marks or not set(rep.mistakes()) <= allowed
            wrongly += bad
            if verbose and bad:
                print(f"  unknown bug {exercise_id}: {label!r}: named {rep.mistakes()}")
        print(f"UNKNOWN BUGS: {len(variants_unknown.UNKNOWN)} submissions with no known mistake, "
              f"named wrongly or full marks: {wrongly}")
        totals["misnamed"] += wrongly
    if holdout:
        import holdout_variants

        hits = wrong = misnamed = full = 0
        with Grader(workers=1) as grader:
            for exercise_id, label, expected, source in holdout_variants.HOLDOUT:
                rep = grader.grade(exercise_id, source)
                named = set(rep.mistakes())
                if expected == "not-full":  # a real bug no known mistake covers: lose points only
                    ok = not rep.full_marks
                    full += rep.full_marks
                else:
                    ok = rep.full_marks if expected is None else (expected in named and not named - {expected})
                    wrong += expected is not None
                    hits += expected is not None and expected in named
                    misnamed += bool(named - {expected}) if expected else bool(named)
                    full += expected is not None and rep.full_marks
                print(f"  holdout {'ok ' if ok else 'BAD'} {exercise_id}: {label!r}: expected {expected}, "
                      f"named {sorted(named)}, {rep.score:g}/{rep.max_score:g}")
        print(f"HOLDOUT: {wrong} wrong variants, named right {hits} ({hits / max(1, wrong):.1%}), "
              f"named wrongly {misnamed}, wrong but full marks {full}")
    rate = totals["named"] / max(1, totals["wrong"])
    print(f"TOTAL: {totals['wrong']} wrong variants, named right {totals['named']} ({rate:.1%}), "
          f"named wrongly {totals['misnamed']}, wrong but full marks {totals['false_full']}; "
          f"correct variants full {totals['correct_full']}/{totals['correct']}")
    goal = rate >= 0.9 and totals["misnamed"] == 0 and totals["false_full"] == 0 and \
        totals["correct_full"] == totals["correct"]
    print("goal (>= 90% named, never wrongly, no false full):", "met" if goal else "NOT met")
    return 0 if goal else 1


if __name__ == "__main__":
    sys.exit(main("-v" in sys.argv[1:], "--holdout" in sys.argv[1:], "--fresh" in sys.argv[1:]))
