"""Stage 3 of grading: judge each case's records against the expected ones, one result per case."""

from __future__ import annotations

from grader import compare, feedback
from grader.model import Check, ErrorInfo, Record, TestCase
from grader.report import TestResult
from grader.report import bilingual as _m


def judge(case: TestCase, records: list[Record], expected: list[Record] | None,
          memory_mib: int) -> TestResult:
    """The result of one case that ran: passed, or the first problem in words safe to show."""
    passed, problem = judge_case(case, records, expected)
    named = problem.pop("mistake", None) if problem else None  # a check's own mistake name
    result = TestResult(case.name, case.points if passed else 0.0, case.points, passed,
                        _m("Passed.", "通过。") if passed else problem, mistake=named,
                        visible=case.visible, name_zh=case.zh)
    err = None if passed else next((r.error for r in records if r.error is not None), None)
    if err is not None:
        result.details = err.traceback
        if err.type in feedback.OWN_WORDS:  # on hidden cases without the learner's text
            result.message = feedback.error_message(err if case.visible else ErrorInfo(
                err.type, (), "", ""), memory_mib)
        if not case.visible:  # line numbers of the learner's frames only
            result.details = feedback.traceback_lines(result.details)
    return result


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


def explains(case: TestCase, got: list[Record], other: list[Record]) -> bool:
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
