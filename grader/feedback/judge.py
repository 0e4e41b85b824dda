"""Stage 3 of grading: judge each step's record and each case against the expected ones.

Values are compared in grader/feedback/compare.py; here records (a value, an error or what was raised)
and cases (steps in order, each with its checks) get judged, and a known mistake's run is
matched against the learner's.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from grader.feedback import compare
from grader.feedback import raised as feedback
from grader.feedback.learner_error import frames, raise_lines
from grader.report import TestResult
from grader.typed import Check, ErrorInfo, Record, TestCase
from grader.words import say


def judge(case: TestCase, records: list[Record], expected: list[Record] | None,
          memory_mib: int, source: str = "") -> TestResult:
    """The result of one case that ran: passed, or the first problem in words safe to show."""
    passed, problem = judge_case(case, records, expected, source)
    named = problem.pop("mistake", None) if problem else None  # a check's own mistake name
    result = TestResult(case.name, case.points if passed else 0.0, case.points, passed,
                        say("judge.passed") if passed else problem, mistake=named,
                        visible=case.visible, name_zh=case.zh)
    err = None if passed else next((r.error for r in records if r.error is not None), None)
    if err is not None:
        result.details = err.traceback
        found = frames(err.traceback, source) if source else []
        result.frame = list(found[-1]) if found else None  # shown in the page's language
        if err.type in feedback.OWN_WORDS:  # on hidden cases without the learner's text
            result.message = feedback.error_message(err if case.visible else ErrorInfo(
                err.type, (), "", ""), memory_mib)
        if not case.visible:  # line numbers of the learner's frames only
            result.details = feedback.traceback_lines(result.details, source)
        elif err.type == "NotImplementedError" and result.frame and \
                result.frame[0] in raise_lines(source):
            # the learner's own placeholder (a starter's "not written yet"): said in the
            # page's language with its line, as on a hidden case
            result.message = say("error.own_not_implemented", fn=case.labels[_first_error(records)],
                                 line=result.frame[0])
            result.details = ""
    return result


def _status(spec: Check, case: TestCase, got: list[Record], i: int) -> str:
    """What a "verify" check's verifier finds in a run's record ("ok" or a finding). Two runs
    whose outputs no single value fixes (a dropout's) are alike when it finds the same."""
    from grader.exercises import verifier

    if i >= len(got) or got[i].error is not None:
        return "raised:" + (got[i].error.type if i < len(got) else "")
    try:
        return str(verifier(spec.verify)(case, got, i))
    except Exception:  # noqa: BLE001 - an output the verifier cannot read is not a right one
        return "unreadable"


def _verified(spec: Check, case: TestCase, got: list[Record], i: int) -> dict | None:
    """A "verify" check: the exercise's own verifier reads the case's inputs and the learner's
    records and says "ok" or what it found; its words are the check's (``explain`` per finding,
    else ``fail``)."""
    status = _status(spec, case, got, i)
    if status == "ok":
        return None
    found = dict(spec.explain.get(status) or spec.fail or {})
    if "en" not in found and found.get("mistake"):  # a finding that names a mistake: its words
        from grader import mistakes
        from grader.exercises import get

        entry = mistakes.registry(get(spec.verify.partition("/")[0]))[found["mistake"]]
        found.update(entry.message)
    return found or say("check.verify_failed", label=spec.label or case.labels[i])


def _first_error(records: list[Record]) -> int:
    return next(i for i, r in enumerate(records) if r.error is not None)


def judge_case(case: TestCase, got: list[Record], expected: list[Record] | None,
               source: str = "") -> tuple[bool, dict | None]:
    """Pass/fail for one case and the first problem found (``source``: the learner's code, whose
    own words and lines an exception's text may show)."""
    hidden = not case.visible
    raised = any(r.error is not None for r in got)
    sizes = input_sizes(case) if raised else frozenset()
    said = Said(source, hides_keys(case)) if raised else Said()
    for i, step in enumerate(case.steps):
        if not step.checks:
            if i < len(got) and got[i].error is not None:
                return False, check_record(Check(), got[i], None, case.labels[i],
                                           hidden=hidden, sizes=sizes, said=said)
            continue
        if i >= len(got):
            return False, say("judge.not_finished")
        ref = expected[i] if expected is not None and i < len(expected) else None
        for check in step.checks:
            if check.kind == "verify":
                problem = (check_record(Check(), got[i], None, case.labels[i], hidden=hidden,
                                        sizes=sizes, said=said)
                           if got[i].error is not None else _verified(check, case, got, i))
            elif check.again is not None:
                problem = _again_problem(check, got, expected, i, expected_of(check, ref),
                                         case.labels[i], hidden, sizes, said)
            else:
                problem = check_record(check, got[i], expected_of(check, ref),
                                       case.labels[i], hidden=hidden, sizes=sizes, said=said)
            if problem:
                return False, problem
    return True, None


def _again_problem(spec: Check, got: list[Record], reference: list[Record] | None, i: int,
                   expected: Any, fn_label: str, hidden: bool, sizes: frozenset[int],
                   said: Said) -> dict | None:
    """A call on tensors an earlier call was given (spec.again). Whether it passes is judged
    against the reference's answer alone, so only a right answer passes, whatever code in the
    sandbox says. Which words it fails with comes from the learner's tensors read back after
    the calls, which move no score: "changed in place" (``says``) where they are not what the
    reference's run read back (the inputs as passed), otherwise the words any wrong answer
    gets (a function that is wrong, or gives two answers to one question, changed nothing)."""
    plain = replace(spec, again=None)
    problem = check_record(plain, got[i], expected, fn_label, hidden=hidden, sizes=sizes, said=said)
    if problem is None or got[i].error is not None:
        return problem
    at = i + spec.again.get("after", 0)
    after, before = _record_at(got, at), _record_at(reference or [], at)
    if after is None or before is None or at == i or compare.same(after.value, before.value):
        return problem
    return dict(spec.again["says"])


def _record_at(records: list[Record], at: int) -> Record | None:
    return records[at] if 0 <= at < len(records) and records[at].error is None else None


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
        if not all(_status(one, case, got, i) == _status(one, case, other, i) if one.kind == "verify"
                   else records_match(one, got[i], other[i]) for one in checks):
            return False
        if got[i].error is not None and got[i].error.message != other[i].error.message:
            return False  # records_match above: both raised, the same type
    return True


@dataclass(frozen=True)
class Said:
    """What the words for a learner's exception may draw on: their own source (its lines and
    its raise statements) and whether the case's inputs hide keys (only then may a hint speak
    of a mask)."""

    source: str = ""
    masks: bool = False


# Inputs that hide keys: a mask or valid lengths, by keyword or as masked_softmax's 2nd argument.
_MASK_KWARGS = ("mask", "valid_lens", "attn_mask", "key_padding_mask")


def hides_keys(case: TestCase) -> bool:
    """Whether some step of ``case`` passes a mask or valid lengths."""
    for step in case.steps:
        kw = step.kwargs or {}
        if any(kw.get(k) is not None for k in _MASK_KWARGS):
            return True
        if step.name == "masked_softmax" and len(step.args) > 1 and step.args[1] is not None:
            return True
    return False


def input_sizes(case: TestCase) -> frozenset[int]:
    """Every axis length of the case's own tensor inputs (an error message may name them)."""
    found: set[int] = set()

    def walk(v: Any) -> None:
        if isinstance(v, dict):
            for x in v.values():
                walk(x)
        elif isinstance(v, (list, tuple)):
            for x in v:
                walk(x)
        elif hasattr(v, "shape"):
            found.update(int(n) for n in v.shape)

    for step in case.steps:
        walk(step.args)
        walk(step.kwargs)
    return frozenset(found)


def check_record(spec: Check, record: Record, expected: Any, fn_label: str,
                 hidden: bool = False, sizes: frozenset[int] = frozenset(),
                 said: Said | None = None) -> dict | None:
    """Judge one step's record (value / raised / error) against the expected value. ``said``:
    what an exception's words may draw on (the learner's source; whether the case hides keys)."""
    label = spec.label or fn_label
    err = record.error
    if err is not None:
        missing = _undefined(err, fn_label)
        if missing:  # the runner's lookup failed: said from the step's own name, never err.message
            what, name = missing
            return say("judge.undefined", what=say(_WHAT[what]), name=name)
        if hidden:
            said = said or Said()
            return feedback.error_text(err, fn_label, sizes, said.source, said.masks)
        return say("judge.raised_open", fn=fn_label, kind=err.type, message=err.message[:300])
    if spec.kind == "raises":
        raised = record.raised
        if raised is None:
            return say("judge.should_raise", fn=fn_label, expected=expected)
        if expected not in raised:
            name = feedback.safe_type(raised[0], "an exception of your own class") if hidden else raised[0]
            return say("judge.raised_other", fn=fn_label, name=name, expected=expected)
        return None
    got, problem = compare.select(record.value, spec.select, label, hidden)
    if problem:
        return problem
    exp, problem = (expected, None) if spec.literal else compare.select(expected, spec.select, label)
    if problem:
        raise ValueError(f"internal: expected value for {label!r} lacks the selected item")
    return compare.compare(spec, got, exp, hidden)


# What grader/sandbox/runner.py's lookup says when a name is missing, and the key that says it to the learner.
_WHAT = {"the module-level name": "judge.what_name", "the function": "judge.what_function",
         "the class": "judge.what_class"}


def _undefined(err, name: str) -> tuple[str, str] | None:
    """(what, name) when ``err`` is exactly the runner's NameError for this step's own name.
    Learner code can raise a NameError worded the same way around hidden inputs: only the
    grader's own text for the step being judged counts, and only the step's name is echoed."""
    if err.type != "NameError":
        return None
    for what in _WHAT:
        if err.message == f"your code does not define {what} `{name}`":
            return what, name
    return None


def expected_of(spec: Check, ref_record: Record | None) -> Any:
    """The literal expected value of a check, or the reference's output for the step."""
    if spec.literal:
        return spec.expected
    if ref_record is None or ref_record.error is not None:
        raise ValueError(f"internal: the reference failed on a check labelled {spec.label!r}")
    if spec.kind == "raises":
        return ref_record.raised[0] if ref_record.raised else None
    return ref_record.value


def records_match(spec: Check, got: Record, other: Record) -> bool:
    """Whether two runs produced the same checked output (used to name a known mistake)."""
    if got.error is not None or other.error is not None:
        return got.error is not None and other.error is not None and got.error.type == other.error.type
    if spec.kind == "raises":
        # Only called for a case both runs failed: not raising the contract's error is one
        # mistake, whether the run returned normally or raised something else (an assert);
        # but a NameError (the function is not written at all) is no mistake in writing it.
        return ("NameError" in (got.raised or ())) == ("NameError" in (other.raised or ()))
    try:  # the other run's output is raw, like the learner's: select from it as from theirs
        return check_record(replace(spec, literal=False), got, other.value, "x") is None
    except Exception:  # noqa: BLE001 - either value is not comparable data (hostile or odd)
        return False
