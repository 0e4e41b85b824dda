"""Turns sandbox results into a report: expected values from the reference, mistakes named."""

from __future__ import annotations

import math
import secrets
import signal as _signal
import time

import numpy as np

from grader import compare, feedback
from grader.exercises import Exercise
from grader.model import Check, ErrorInfo, Mistake, Record, Run, TestCase
from grader.pool import RawResult, WorkerPool
from grader.report import Report, TestResult
from grader.report import bilingual as _m
from grader.spec import Case, Job, Limits

NOTE = "[output printed during the hidden tests is not shown; run the public examples to see it]"


def _hidden_output(raw: RawResult) -> str:
    """What the learner may see of what their code printed in a hidden run: only what it
    printed while loading, before any hidden input reached the child (the pool sends the
    cases after 'loaded'), plus a note when the tests printed more."""
    shown = raw.load_output
    if len(raw.output) <= len(shown):
        return shown
    return (shown + "\n" if shown and not shown.endswith("\n") else shown) + NOTE


def judge_case(case: TestCase, got: list[Record], expected: list[Record] | None) -> tuple[bool, dict | None]:
    """Pass/fail for one case and the first problem found."""
    hidden = not case.visible
    for i, step in enumerate(case.steps):
        if not step.checks:
            if i < len(got) and got[i].error is not None:
                return False, compare.check_record(Check(), got[i], None, case.labels[i],
                                                   hidden=hidden)
            continue
        if i >= len(got):
            return False, _m("This test did not finish.", "该测试没有运行完。")
        ref = expected[i] if expected is not None and i < len(expected) else None
        for check in step.checks:
            problem = compare.check_record(check, got[i], compare.expected_of(check, ref),
                                           case.labels[i], hidden=hidden)
            if problem:
                return False, problem
    return True, None


def _matches(case: TestCase, got: list[Record], other: list[Record]) -> bool:
    """Whether a mistake's run explains the learner's on this case. When the learner's code
    raised, only the same exception with the same text counts (the type alone says little:
    a ValueError from a 2-D length is not a mistake file's ValueError)."""
    for i, step in enumerate(case.steps):
        checks = step.checks or ((Check(),) if i < len(got) and got[i].error else ())
        if not checks:
            continue
        if i >= len(got) or i >= len(other):
            return i >= len(got) and i >= len(other)
        if not all(compare.records_match(one, got[i], other[i]) for one in checks):
            return False
        if got[i].error is not None and got[i].error.message != other[i].error.message:
            return False  # records_match above: both raised, the same type
    return True


def _crash_message(raw: RawResult, limits) -> dict[str, str]:
    if raw.malformed:
        return _m("Your code wrote into the grader's private result channel (malformed output); the "
                  "run cannot be trusted and scores 0.",
                  "你的代码向评分器的内部结果通道写入了数据（输出格式不合法）；本次运行不可信，记 0 分。")
    if raw.status == "timeout" or raw.signal in (_signal.SIGXCPU, ):
        return _m(f"Time limit reached ({limits.wall_s:g} s wall clock, {limits.cpu_s} s CPU): look "
                  "for an infinite loop or very slow code.",
                  f"超出时间限制（{limits.wall_s:g} 秒墙钟时间，{limits.cpu_s} 秒 CPU）：请检查死循环或过慢的代码。")
    if raw.status == "output_limit":
        return _m(f"Your code printed too much (more than {limits.output_hard_bytes // 2**20} MiB); "
                  "it was stopped.", f"你的代码输出过多（超过 {limits.output_hard_bytes // 2**20} MiB），已被终止。")
    if raw.status == "result_limit":
        return _m("Your code returned values far larger than the tests need; it was stopped.",
                  "你的代码返回的数据远大于测试所需，已被终止。")
    if raw.signal is not None:
        name = _signal.Signals(raw.signal).name if raw.signal in iter(_signal.Signals) else raw.signal
        if raw.signal == _signal.SIGXFSZ:
            return _m("Your code wrote a file larger than allowed.", "你的代码写入的文件超出了允许的大小。")
        return _m(f"Your code crashed the Python process (signal {name}), e.g. through ctypes or "
                  "native code; no result could be collected.",
                  f"你的代码使 Python 进程崩溃（信号 {name}），例如通过 ctypes 或原生代码；无法收集结果。")
    if raw.exit_code is not None:
        return _m(f"Your code ended the process early (exit code {raw.exit_code}, e.g. os._exit or "
                  "sys.exit) before all tests ran.",
                  f"你的代码提前结束了进程（退出码 {raw.exit_code}，例如 os._exit 或 sys.exit），测试未全部运行。")
    return _m("The test run stopped unexpectedly.", "测试运行意外停止。")


# Errors the grader explains in its own words (the learner's text matters little for them).
_OWN_WORDS = ("MemoryError", "SystemExit", "PermissionError", "BlockingIOError", "ModuleNotFoundError",
              "ImportError")


def _error_message(err: ErrorInfo, memory_mib: int) -> dict[str, str]:
    kind = err.type
    if kind == "MemoryError":
        return _m(f"Your code ran out of memory (limit about {memory_mib} MiB above the worker).",
                  f"你的代码内存不足（限制约为 {memory_mib} MiB）。")
    if kind in ("ModuleNotFoundError", "ImportError"):
        what = err.message[:200]
        return _m(f"This module is not available in the grader{': ' + what if what else ''}. "
                  "Use torch, numpy, math and the common standard library.",
                  f"评分器中没有这个模块{'：' + what if what else ''}。请使用 torch、numpy、math 和常用标准库。")
    if kind == "SystemExit":
        return _m("Your code called sys.exit(); the tests need it to return normally.",
                  "你的代码调用了 sys.exit()；测试需要它正常返回。")
    if kind == "BlockingIOError" or (kind in ("PermissionError",) or
                                     "Operation not permitted" in err.message):
        return _m("Your code tried something the grader does not allow (network, new processes, "
                  "signals, or files outside its own folder).",
                  "你的代码尝试了评分器不允许的操作（网络、新进程、信号或访问自身目录以外的文件）。")
    return _m(f"Your code raised {kind}: {err.message[:300]}",
              f"你的代码抛出了 {kind}：{err.message[:300]}")


def _diagnose(exercise: Exercise, cases: list[TestCase], failed: list, mistakes: list[Mistake]) -> None:
    """Name still-unnamed failed cases from properties of the learner's outputs."""
    diagnose = exercise.diagnoser()
    if not failed or diagnose is None:
        return
    messages = {m.name: m.message for m in mistakes}
    for index, result, records in failed:
        if result.mistake:
            continue
        try:  # hidden/<id>/diagnose.py reads the case as authored and records as sent
            name = diagnose(cases[index].authored, [r.to_wire() for r in records])
        except Exception:  # noqa: BLE001 - a diagnosis is optional; never fail the report on it
            name = None
        if name in messages:
            result.mistake, result.message = name, messages[name]


def _name_mistakes(cases: list[TestCase], failed: list, report: Report,
                   expected: dict[int, list[Record]], mistakes: list[Mistake]) -> None:
    """Name each failed case after the known mistake that best explains the whole submission.

    A mistake explains a failed case when it fails that case too, with the same outputs. Booleans
    and errors are coarse, so several mistakes can match one case: prefer the mistake that matches
    the most failed cases and is contradicted least (it fails a case the learner passed).
    """
    if not failed or not mistakes:
        for index, result, records in failed:
            _add_hint(cases[index], result, records)
        return
    passed = [i for i, t in enumerate(report.tests) if t.passed]
    matches: dict[str, set[int]] = {}
    rank: dict[str, float] = {}
    for order, m in enumerate(mistakes):
        oc = m.records
        matches[m.name] = {index for index, _r, records in failed
                           if index in oc and not judge_case(cases[index], oc[index], expected.get(index))[0]
                           and _matches(cases[index], records, oc[index])}
        contradicted = sum(1 for i in passed
                           if i in oc and not judge_case(cases[i], oc[i], expected.get(i))[0])
        rank[m.name] = len(matches[m.name]) - 2 * contradicted - order * 1e-3
    messages = {m.name: m.message for m in mistakes}
    for index, result, records in failed:
        if result.mistake:  # a probe already named what it found
            continue
        candidates = [n for n in matches if index in matches[n]]
        if candidates:
            best = max(candidates, key=lambda n: rank[n])
            result.mistake, result.message = best, messages[best]
        else:
            _add_hint(cases[index], result, records)


def _non_finite(value) -> bool:
    """Whether a returned value holds NaN or ±inf anywhere (arrays, numbers, nested tuples)."""
    if isinstance(value, np.ndarray):
        return value.dtype.kind in "fc" and not np.isfinite(value).all()
    if isinstance(value, float):
        return not math.isfinite(value)
    if isinstance(value, (list, tuple)):
        return any(_non_finite(v) for v in value)
    if isinstance(value, dict):
        return any(_non_finite(v) for v in value.values())
    return False


def _add_hint(case: TestCase, result: TestResult, records: list[Record]) -> None:
    """A case's fixed hint is about numerical stability (every hint in hidden/ is): shown only
    when the code returned NaN or inf there, the symptom it explains; never on a crash (then
    only the crash message is true) or on finite wrong values, whose cause it would misname."""
    raised = any(r.error is not None for r in records)
    if case.hint and not raised and any(_non_finite(r.value) for r in records):
        result.message = {k: f"{v}\n{case.hint.get(k, '')}".strip() for k, v in result.message.items()}


def _say_once(report: Report) -> None:
    """One message per distinct mistake: a repeat points back to the first test that said it."""
    first: dict[str, TestResult] = {}
    for t in report.tests:
        if t.passed:
            continue
        key = t.mistake or t.message.get("en", "")
        if key in first:
            en, zh = first[key].name, first[key].name_zh or first[key].name
            t.message = (_m(f"Same mistake as in “{en}”.", f"与“{zh}”中的错误相同。") if t.mistake
                         else _m(f"Same problem as in “{en}”.", f"与“{zh}”中的问题相同。"))
        else:
            first[key] = t


def grade_cases(exercise: Exercise, source: str, authored: list[Case], pool: WorkerPool,
                expected: dict[int, list[Record]] | None, mistakes,
                limits: Limits | None = None) -> Report:
    """Run ``cases`` on ``source`` in the sandbox and judge them.

    Hidden cases run in a fresh random order per submission (reported in canonical order),
    with fixtures renamed per submission, so replaying earlier feedback in call order or
    reading fixture names gains nothing.
    """
    t0 = time.perf_counter()
    cases = [TestCase.of(c) for c in authored]
    expected = expected or {}
    report = Report(exercise_id=exercise.id)
    limits = limits or exercise.limits
    hidden = any(not c.visible for c in cases)
    nonce = secrets.token_hex(8) if hidden else None
    order = list(range(len(cases)))
    if hidden:
        secrets.SystemRandom().shuffle(order)
    sent = [cases[i].to_wire(nonce) for i in order]
    job = Job(source=source, cases=sent, limits=limits)
    raw = pool.run(job)
    got = Run.of(raw.messages)
    got.cases = {order[pos]: recs for pos, recs in got.cases.items() if 0 <= pos < len(order)}
    report.output = _hidden_output(raw) if hidden else raw.output
    level = got.sandbox or {}
    report.sandbox = level.get("summary") or (", ".join(f"{k}={v}" for k, v in level.items()) if level else "unknown")
    crash = None if (got.done and raw.status == "ok" and not raw.malformed) else _crash_message(
        raw, limits)
    loaded = got.load_error is None
    if not loaded:
        report.status = "syntax_error" if got.load_kind == "syntax" else "load_error"
        err = got.load_error
        # Shown in full: the hidden inputs reach the child only after its code has loaded (and
        # a load error after "loaded" is rejected as malformed), so loading cannot see them.
        if report.status == "syntax_error":
            msg = _m(f"Syntax error: {err.message}", f"语法错误：{err.message}")
        else:
            msg = _error_message(err, limits.memory_mib)
        if report.status == "load_error":
            msg = {k: v + (" (while loading your code)" if k == "en" else "（加载代码时）")
                   for k, v in msg.items()}
        crash, details = msg, err.traceback
    else:
        details = ""
        if crash is not None:
            report.status = "malformed" if raw.malformed else {
                "timeout": "timeout", "output_limit": "output_limit"}.get(raw.status, "crashed")
    failed: list = []
    for index, case in enumerate(cases):
        records = got.cases.get(index)
        if records is None or not loaded or raw.malformed:
            report.tests.append(TestResult(case.name, 0.0, case.points, False,
                                           crash or _m("Not run.", "未运行。"), details=details,
                                           visible=case.visible, name_zh=case.zh))
            continue
        passed, problem = judge_case(case, records, expected.get(index))
        named = problem.pop("mistake", None) if problem else None
        result = TestResult(case.name, case.points if passed else 0.0, case.points, passed,
                            _m("Passed.", "通过。") if passed else problem, mistake=named,
                            visible=case.visible, name_zh=case.zh)
        if not passed:
            err = next((r.error for r in records if r.error is not None), None)
            if err is not None:
                result.details = err.traceback
                if err.type in _OWN_WORDS:
                    result.message = _error_message(err if case.visible else ErrorInfo(
                        err.type, (), "", ""), limits.memory_mib)
                if not case.visible:  # line numbers of the learner's frames only
                    result.details = feedback.traceback_lines(result.details)
            failed.append((index, result, records))
        report.tests.append(result)
    if failed and callable(mistakes):
        mistakes = mistakes()
    _name_mistakes(cases, failed, report, expected, mistakes if failed else [])
    if failed and any(not c.visible for c in cases):
        _diagnose(exercise, cases, failed, mistakes)
    _say_once(report)
    passed = sum(t.passed for t in report.tests)
    report.summary = _m(f"{passed} of {len(report.tests)} tests passed; score {report.score:g}/{report.max_score:g}.",
                        f"通过 {passed}/{len(report.tests)} 项测试；得分 {report.score:g}/{report.max_score:g}。")
    if crash is not None:
        report.summary = {k: report.summary[k] + "\n" + crash[k] for k in ("en", "zh")}
    report.elapsed_s = time.perf_counter() - t0
    return report
