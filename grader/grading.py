"""The grading pipeline, top to bottom: a bundle (exercise → cases and expected records,
grader/bundle.py) → sandbox run → judge (grader/feedback/judge.py) → diagnose (grader/feedback/explain.py) → report.
"""

from __future__ import annotations

import logging
import secrets
import time

from grader.bundle import Bundle
from grader.feedback import explain, judge, observe
from grader.feedback import raised as feedback
from grader.feedback.explain import Failure
from grader.feedback.premises import Premises
from grader.report import Report, TestResult
from grader.sandbox.pool import WorkerPool
from grader.spec import Job, JobLimits
from grader.typed import RawResult, Run, TestCase
from grader.words import say

_log = logging.getLogger("grader")


def grade(bundle: Bundle, source: str, pool: WorkerPool, limits: JobLimits) -> Report:
    """Run ``bundle``'s cases on ``source`` in the sandbox, judge them and explain failures."""
    t0 = time.perf_counter()
    raw, run = run_in_sandbox(bundle.tests, source, pool, limits)
    try:
        report = _judged(bundle, source, raw, run, limits)
    except Exception as exc:  # noqa: BLE001 - the child's records are hostile input
        # Whatever the child sent that the trusted side cannot judge makes the run malformed:
        # score 0, a clear message and a stored row, never a grader error (messages.py rejects
        # what it knows of at the boundary; this catches the rest).
        _log.warning("judging raised %s: run judged malformed", type(exc).__name__, exc_info=True)
        raw.malformed = True
        raw.malformed_reason = f"the trusted side could not judge the records ({type(exc).__name__})"
        report = _judged(bundle, source, raw, run, limits)
    report.elapsed_s = time.perf_counter() - t0
    return report


def _judged(bundle: Bundle, source: str, raw: RawResult, run: Run, limits: JobLimits) -> Report:
    cases = bundle.tests
    hidden = any(not c.visible for c in cases)
    report = Report(exercise_id=bundle.exercise_id)
    report.output = feedback.hidden_output(raw) if hidden else raw.output
    report.sandbox = _level_text(run.sandbox or {})
    report.malformed_reason = raw.malformed_reason
    crash, details = _outcome(report, raw, run, limits, hidden)
    failed: list[Failure] = []
    for index, case in enumerate(cases):
        records = run.cases.get(index)
        if records is None or run.load_error is not None or raw.malformed:
            report.tests.append(TestResult(case.name, 0.0, case.points, False,
                                           crash or say("run.not_run"), details=details,
                                           visible=case.visible, name_zh=case.zh))
            continue
        result = judge.judge(case, records, bundle.expected.get(index), limits.memory_mib, source)
        if not result.passed:
            failed.append(Failure(index, result, records))
        report.tests.append(result)
    if failed:
        mistakes = bundle.known_mistakes()
        premises = Premises(source, _starter(bundle.exercise_id))
        explain.name_mistakes(cases, failed, report, bundle.expected, mistakes,
                              bundle.diagnose if hidden else None, premises)
        if hidden:  # unnamed failures: what differs first, in the learner's terms
            observe.observe(cases, failed, bundle.expected, bundle.exercise_id, premises)
    explain.say_once(report)
    summarise(report, crash)
    return report


def _starter(exercise_id: str) -> str:
    """The exercise's starter code ("" for a bundle built without an exercise)."""
    from grader.exercises import UnknownExercise, get

    try:
        return get(exercise_id).starter if exercise_id else ""
    except (UnknownExercise, OSError):
        return ""


def run_in_sandbox(cases: list[TestCase], source: str, pool: WorkerPool,
                   limits: JobLimits) -> tuple[RawResult, Run]:
    """Send the cases' inputs (never expected values) with the source to a sandboxed child.

    Hidden cases run in a fresh random order per submission (indexed back to canonical order
    here), with fixtures renamed per submission, so replaying earlier feedback in call order
    or reading fixture names gains nothing.
    """
    hidden = any(not c.visible for c in cases)
    nonce = secrets.token_hex(8) if hidden else None
    order = list(range(len(cases)))
    if hidden:
        secrets.SystemRandom().shuffle(order)
    raw = pool.run(Job(source=source, cases=[cases[i].to_wire(nonce) for i in order], limits=limits))
    run = Run.of(raw.messages)
    run.cases = {order[pos]: recs for pos, recs in run.cases.items() if 0 <= pos < len(order)}
    return raw, run


def _level_text(level: dict) -> str:
    return level.get("summary") or (", ".join(f"{k}={v}" for k, v in level.items()) if level else "unknown")


def _outcome(report: Report, raw: RawResult, run: Run, limits: JobLimits,
             hidden: bool) -> tuple[dict | None, str]:
    """Set the report's status; return the message for cases that did not run, and details."""
    # After "loaded" a hidden run's inputs existed in the child: how it ended (exit code,
    # signal) is then the learner's choice and is told without numbers.
    chosen_late = hidden and any(isinstance(m, dict) and m.get("kind") == "loaded"
                                 for m in raw.messages)
    crash = None if (run.done and raw.status == "ok" and not raw.malformed) else feedback.crash_message(
        raw, limits, quiet=chosen_late)
    err = run.load_error
    if err is None:
        if crash is not None:
            # the same cause as the message: a CPU-limit kill is a timeout, not a crash
            report.status = ("malformed" if raw.malformed else "timeout" if feedback.timed_out(raw)
                             else "output_limit" if raw.status == "output_limit" else "crashed")
        return crash, ""
    # Shown in full: the hidden inputs reach the child only after its code has loaded (and a
    # load error after "loaded" is rejected as malformed), so loading cannot see them.
    if run.load_kind == "syntax":
        report.status = "syntax_error"
        return say("run.syntax_error", message=err.message), err.traceback
    report.status = "load_error"
    msg = feedback.error_message(err, limits.memory_mib)
    return say("run.while_loading", message=msg), err.traceback


def summarise(report: Report, crash: dict | None = None) -> None:
    """The report's summary line from its tests ("3 of 5 tests passed; score 4/12."), with a
    crash's message after it; also used to show a stored submission again."""
    passed = sum(t.passed for t in report.tests)
    report.summary = say("run.summary", passed=passed, total=len(report.tests), score=report.score,
                         top=report.max_score)
    if crash is not None:
        report.summary = {k: report.summary[k] + "\n" + crash[k] for k in ("en", "zh")}
