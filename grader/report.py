"""Grading results: per-test results, the report, and its Gradescope results.json form."""

from __future__ import annotations

import json
import math
from dataclasses import asdict, dataclass, field

from transformer_lab.message import Message


def bilingual(en: str, zh: str) -> dict[str, str]:
    """A message in English and Simplified Chinese (transformer_lab.message.Message), in the
    {"en", "zh"} wire form every report, results.json and gradebook row keeps."""
    return Message(en, zh).as_dict()


def render(message: dict[str, str], lang: str = "both") -> str:
    """Pick one language of a bilingual message, or both on two lines."""
    if lang == "both":
        parts = [message.get("en", ""), message.get("zh", "")]
        return "\n".join(p for p in parts if p)
    return message.get(lang) or message.get("en", "")


@dataclass
class TestResult:
    """The outcome of one case."""

    name: str
    score: float
    max_score: float
    passed: bool
    message: dict[str, str]
    mistake: str | None = None
    details: str = ""  # the learner's own traceback, when there is one
    visible: bool = False
    name_zh: str = ""  # the case's Chinese name, for display; ``name`` is the stored key
    # The output whose values first differ (a check's label, e.g. "weights"), as a field the
    # gradebook stores: the class view's stage never depends on the message's wording.
    differs_at: str | None = None
    # Where the learner's code raised, as data: [line, function] of their innermost frame. A
    # page renders it in its own language (``where``); ``details`` keeps Python's own text.
    frame: list | None = None

    @property
    def status(self) -> str:
        return "passed" if self.passed else "failed"

    def to_dict(self) -> dict:
        """The stored form (the gradebook's per-test row, JSON)."""
        return asdict(self)

    @classmethod
    def from_dict(cls, t: object) -> TestResult | None:
        """A stored row as a TestResult again, or None when a field is not of its type (a row
        edited by hand, migrated or imported must not break the page that shows it)."""
        if not isinstance(t, dict):
            return None
        name, score, most, passed = t.get("name"), t.get("score"), t.get("max_score"), t.get("passed")
        message, details, zh = t.get("message", {}), t.get("details", ""), t.get("name_zh", "")
        numbers = all(isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x)
                      for x in (score, most))
        if not (isinstance(name, str) and numbers and isinstance(passed, bool)
                and isinstance(message, dict) and isinstance(details, str) and isinstance(zh, str)
                and all(isinstance(k, str) and isinstance(v, str) for k, v in message.items())):
            return None
        mistake, frame, at = t.get("mistake"), t.get("frame"), t.get("differs_at")
        frame_ok = (isinstance(frame, list) and len(frame) == 2 and isinstance(frame[0], int)
                    and not isinstance(frame[0], bool) and isinstance(frame[1], str)
                    and len(frame[1]) <= 80)
        return cls(name=name, score=float(score), max_score=float(most), passed=passed,
                   message=message, mistake=mistake if isinstance(mistake, str) else None,
                   details=details, visible=t.get("visible") is True, name_zh=zh,
                   differs_at=at if isinstance(at, str) else None, frame=frame if frame_ok else None)

    def where(self, lang: str = "en") -> str:
        """What a page shows under the message: the frame in ``lang`` when there is one and
        ``details`` says no more than it (a hidden case), else ``details`` as raised."""
        from grader.words import say

        if self.frame and (not self.details or self.details == frame_text(self.frame)):
            return render(say("run.frame", line=self.frame[0], fn=self.frame[1]), lang)
        return self.details


def frame_text(frame: list) -> str:
    """A frame as Python's traceback writes it (what ``details`` holds for a hidden case)."""
    return f'File "submission.py", line {frame[0]}, in {frame[1]}'[:120]


@dataclass
class Report:
    """Everything a learner (or the app) needs about one graded submission."""

    exercise_id: str
    tests: list[TestResult] = field(default_factory=list)
    status: str = "graded"  # graded | syntax_error | load_error | timeout | crashed | ...
    summary: dict[str, str] = field(default_factory=dict)
    output: str = ""  # what the submission printed (capped)
    learner: str | None = None
    sandbox: str = ""
    elapsed_s: float = 0.0
    # Why the sandbox's result bytes were rejected, for the operator's log only: never in the
    # learner's report, Gradescope's results.json or to_dict (it may quote the child's bytes).
    malformed_reason: str = field(default="", repr=False)

    @property
    def score(self) -> float:
        return round(sum(t.score for t in self.tests), 6)

    @property
    def max_score(self) -> float:
        return round(sum(t.max_score for t in self.tests), 6)

    @property
    def full_marks(self) -> bool:
        return bool(self.tests) and all(t.passed for t in self.tests)

    def mistakes(self) -> list[str]:
        """Names of the known mistakes recognised in this submission."""
        return sorted({t.mistake for t in self.tests if t.mistake})

    def to_gradescope(self, lang: str = "both") -> dict:
        """The Gradescope results.json shape."""
        tests = []
        for t in self.tests:
            text = render(t.message, lang)
            if t.details:
                text += "\n\n" + t.details
            tests.append({"name": t.name, "score": t.score, "max_score": t.max_score,
                          "status": t.status, "output": text, "visibility": "visible"})
        return {"score": self.score, "max_score": self.max_score,
                "output": render(self.summary, lang), "stdout_visibility": "visible",
                "tests": tests,
                "extra_data": {"exercise": self.exercise_id, "status": self.status,
                               "learner": self.learner, "stdout": self.output,
                               "mistakes": self.mistakes(), "sandbox": self.sandbox,
                               # test name -> its Chinese name, for a Chinese page's table
                               "names_zh": {t.name: t.name_zh for t in self.tests if t.name_zh},
                               "elapsed_s": round(self.elapsed_s, 4)}}

    def to_json(self, lang: str = "both") -> str:
        return json.dumps(self.to_gradescope(lang), ensure_ascii=False, indent=2)

    def to_dict(self) -> dict:
        d = asdict(self)
        del d["malformed_reason"]
        d.update(score=self.score, max_score=self.max_score)
        return d
