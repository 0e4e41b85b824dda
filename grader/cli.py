"""Command line: list exercises, grade a file, self-check an exercise, benchmark."""

from __future__ import annotations

import argparse
import json
import sys

from grader import api


def _print_report(report: api.Report, lang: str) -> None:
    for t in report.tests:
        mark = "PASS" if t.passed else "FAIL"
        print(f"[{mark}] {t.name} ({t.score:g}/{t.max_score:g})")
        if not t.passed:
            for line in api.render(t.message, lang).splitlines():
                print(f"       {line}")
            if t.details:
                for line in t.details.rstrip().splitlines()[-12:]:
                    print(f"       | {line}")
    print(api.render(report.summary, lang))
    if report.output.strip():
        print("--- your program printed (capped) ---")
        print(report.output.rstrip()[-2000:])


def cmd_list(args) -> int:
    for info in api.list_exercises():
        pts = "?" if info.max_score is None else f"{info.max_score:g}"
        print(f"{info.number:>2}  {info.id:<28} {info.title['en']} / {info.title['zh']}  [{pts} pts]")
    return 0


def cmd_grade(args) -> int:
    try:
        api.check_submission(args.exercise, _as_path(args.file))
    except (api.UnknownExercise, api.SubmissionError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    # Launch the worker first: it imports torch while this process does the same.
    with api.Grader(debug=args.verbose).spawn() as grader:
        if args.verbose:
            print(f"sandbox: {json.dumps(grader.sandbox_level())}", file=sys.stderr)
        try:
            if args.examples:
                report = grader.run_examples(args.exercise, _as_path(args.file))
            else:
                report = grader.grade(args.exercise, _as_path(args.file), learner=args.learner)
        except (api.SandboxUnavailable, api.WorkerError) as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 3
    if args.json:
        sys.stdout.write(report.to_json(args.lang) + "\n")
    else:
        _print_report(report, args.lang)
    return 0


def _as_path(name: str):
    from pathlib import Path

    return Path(name)


def cmd_check(args) -> int:
    from pathlib import Path

    # An id, or the exercise's folder (exercises/<id> or hidden/<id>): the folder's name is its id.
    known = list(api.all_exercises())  # the public part only: no bundle is built yet
    ids = [Path(x.rstrip("/")).name if "/" in x else x for x in args.exercise] or known
    unknown = [i for i in ids if i not in known]
    if unknown:
        print(f"error: no exercise {unknown} (an exercise is exercises/<id>/exercise.json)", file=sys.stderr)
        return 2
    ok = True
    with api.Grader() as grader:
        for ex_id in ids:
            problems = api.check_exercise(grader, ex_id, verbose=args.verbose)
            ok &= not problems
            for p in problems:
                print(f"PROBLEM {ex_id}: {p}")
            print(f"{ex_id}: {'OK' if not problems else f'{len(problems)} problem(s)'}")
    return 0 if ok else 1


def cmd_bench(args) -> int:
    from grader.bench import main as bench_main

    return bench_main(args.runs)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["gradebook"]:  # `python -m grader gradebook --csv`: the gradebook's own CLI
        from gradebook.cli import main as gradebook_main

        return gradebook_main(argv[1:])
    parser = argparse.ArgumentParser(prog="python -m grader", description=__doc__)
    sub = parser.add_subparsers(dest="cmd", required=True)
    sub.add_parser("list", help="list the exercises").set_defaults(fn=cmd_list)
    sub.add_parser("gradebook", help="the gradebook: `gradebook --csv` prints every submission as CSV")
    g = sub.add_parser("grade", help="grade a .py or .ipynb file")
    g.add_argument("exercise")
    g.add_argument("file")
    g.add_argument("--json", action="store_true", help="print exactly one JSON report (Gradescope shape)")
    g.add_argument("--examples", action="store_true", help="run the public examples only")
    g.add_argument("--lang", default="both", choices=["en", "zh", "both"])
    g.add_argument("--learner", default=None)
    g.add_argument("-v", "--verbose", action="store_true", help="print the sandbox level to stderr")
    g.set_defaults(fn=cmd_grade)
    c = sub.add_parser("check", help="self-check exercises (ids or folders): reference full, starter less, "
                                     "mistakes named, both languages, no leaking example, variants stable")
    c.add_argument("exercise", nargs="*")
    c.add_argument("-v", "--verbose", action="store_true", help="print each mistake's score and name")
    c.set_defaults(fn=cmd_check)
    b = sub.add_parser("bench", help="time warm grading vs a fresh interpreter per submission")
    b.add_argument("--runs", type=int, default=20)
    b.set_defaults(fn=cmd_bench)
    args = parser.parse_args(argv)
    return args.fn(args)
