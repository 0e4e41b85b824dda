"""Grade a blind set of learner submissions and write what the grader told each one.

    python scripts/measure_blind.py [--dir /work/blind] [--out FILE] [--seed N] [--fresh]

The folder holds ``<exercise-id>__<nn>_<slug>.py`` files and a ``manifest.json`` (a list of
{file, exercise, correct, mistake, stage}) written by someone who never saw the grader. All
files are graded in this one process by one warm grader (one worker), sequentially.

Hidden inputs come from one fixed seed (``--seed``, default the deployment seed:
``$LAB_GRADER_SEED`` or grader/paths.py's DEFAULT_SEED), so a rerun gives the same figures.
The app instead draws fresh hidden inputs for every submission; ``--fresh`` grades that way
(figures may then move a little between runs, e.g. for code near a tolerance).

The JSON holds per file: exercise, the manifest's correct flag, mistake and stage, the status,
score/max, full (score == max), the mistakes the grader named, and the English feedback of
every failed test. The judgement of that feedback against the manifest is done by hand.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

# Texts grader/feedback/observe.py and explain.say_once write in place of a named cause.
STAGE_MARKS = ("The first output that differs is", " not: ")


def failed_tests(report) -> list[dict]:
    out = []
    for t in report.tests:
        if t.passed:
            continue
        en = t.message.get("en", "")
        item = {"name": t.name, "score": t.score, "max_score": t.max_score,
                "mistake": t.mistake, "feedback": en,
                "stage_observation": t.mistake is None and any(m in en for m in STAGE_MARKS)}
        if t.details:
            item["details_tail"] = "\n".join(t.details.rstrip().splitlines()[-4:])
        out.append(item)
    return out


def main(argv: list[str] | None = None) -> int:
    from grader.api import Grader
    from grader.paths import deployment_seed

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--dir", type=Path, default=Path("/work/blind"))
    ap.add_argument("--out", type=Path, default=ROOT / "docs" / "bench" / "2026-12-02-blind-results.json")
    ap.add_argument("--seed", type=int, default=None, help="hidden-input seed (default: deployment seed)")
    ap.add_argument("--fresh", action="store_true", help="fresh hidden inputs per submission, as the app")
    args = ap.parse_args(argv)
    seed = deployment_seed() if args.seed is None else args.seed
    manifest_path = args.dir / "manifest.json"
    manifest = {m["file"]: m for m in json.loads(manifest_path.read_text())} if manifest_path.exists() else {}
    files = sorted(p for p in args.dir.glob("*__*.py") if p.is_file())
    if not files:
        print(f"no <exercise>__<nn>_<slug>.py files in {args.dir}", file=sys.stderr)
        return 2

    rows = []
    with Grader(workers=1, seed=seed, fresh_inputs=args.fresh) as grader:
        for path in files:
            meta = manifest.get(path.name, {})
            exercise = meta.get("exercise") or path.name.split("__", 1)[0]
            report = grader.grade(exercise, path.read_text(encoding="utf-8"))
            row = {"file": path.name, "exercise": exercise, "correct": meta.get("correct"),
                   "manifest_mistake": meta.get("mistake", ""), "manifest_stage": meta.get("stage", ""),
                   "status": report.status, "score": report.score, "max_score": report.max_score,
                   "full": report.score == report.max_score, "named": report.mistakes(),
                   "failed": failed_tests(report)}
            rows.append(row)
            mark = "full" if row["full"] else f"{row['score']:g}/{row['max_score']:g}"
            print(f"  {path.name:60s} {'correct' if row['correct'] else 'wrong  '} {mark:>9s} "
                  f"{','.join(row['named'])}", flush=True)

    per: dict[str, Counter] = {}
    for r in rows:
        c = per.setdefault(r["exercise"], Counter())
        if r["correct"]:
            c["correct"] += 1
            c["correct_full"] += r["full"]
        else:
            c["wrong"] += 1
            c["wrong_losing"] += not r["full"]
            c["wrong_named_any"] += bool(r["named"])
    total = sum(per.values(), Counter())
    print(f"\n{'exercise':24s} {'correct full':>13s} {'wrong losing points':>20s} {'named (any)':>12s}")
    for ex, c in sorted(per.items()) + [("TOTAL", total)]:
        print(f"{ex:24s} {c['correct_full']:>6d}/{c['correct']:<6d} {c['wrong_losing']:>13d}/{c['wrong']:<6d} "
              f"{c['wrong_named_any']:>12d}")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps({"dir": str(args.dir), "seed": None if args.fresh else seed,
                                    "fresh_inputs": args.fresh, "per_exercise": per,
                                    "files": rows}, ensure_ascii=False, indent=1) + "\n")
    print(f"\nwrote {args.out} ({'fresh inputs' if args.fresh else f'seed {seed}'})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
