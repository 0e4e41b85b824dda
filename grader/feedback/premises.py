"""What a hint takes for granted about the learner's code, read from the code itself.

A generic hint has a premise: "use torch.softmax" assumes the code does not call it yet; "hide
keys in the scores with a large negative fill" assumes it does not already; "if this is still
the starter's placeholder" assumes a placeholder is left. A hint whose premise is false names a
wrong cause, so the observers (grader/feedback/observe.py, grader/feedback/observe_values.py) and the case hints
(grader/feedback/explain.py) ask these questions first. Each answer is read from the source text only
(names and literals, never run), so it costs microseconds and sees nothing hidden.

``Premises()`` with no source answers as the old text assumed (no softmax called, no fill
written, the placeholder kept): what a caller without the source got before.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field
from functools import cached_property, lru_cache

from grader.feedback.learner_error import parsed

# A library softmax: torch.softmax, F.softmax, x.softmax(...), nn.Softmax(...), and a bare
# softmax(...) only where it is imported (a learner's own `def softmax` is no library one).
_SOFTMAX = re.compile(r"\.softmax\s*\(|\bSoftmax\s*\(")
_BARE_SOFTMAX = re.compile(r"(?<![\w.])softmax\s*\(")
_IMPORTS_SOFTMAX = re.compile(r"^\s*from\s+\S+\s+import\s+[^\n]*\bsoftmax\b", re.M)
# A large negative fill written in the code: -1e6, -1e9, -inf, float("-inf"), finfo(...).min, -10000…
_FILL = re.compile(r"-\s*(?:\d+(?:\.\d*)?[eE]\+?\d+|\d{4,}(?:\.\d*)?)"  # -1e6, -1e+09, -100000
                   r"|-\s*(?:torch|math|np|numpy)\.inf\b|float\(\s*['\"]-\s*inf"
                   r"|finfo\([^)]*\)\.min|-\s*float\(\s*['\"]inf")
_MINUS_INF = re.compile(r"-\s*(?:torch|math|np|numpy)\.inf\b|float\(\s*['\"]-\s*inf|-\s*float\(\s*['\"]inf")
# Starter lines that stand for work to do: a placeholder value or a not-written-yet raise.
_PLACEHOLDER = re.compile(r"NotImplementedError|=\s*\[\[?\s*0\.0|zeros|\bpass\b|= None\b")
_COMMENT = re.compile(r"#.*$")


# What a case's hint may name as the fact that makes it false ("unless": …), read as Premises'
# attribute of that name: a hint telling to use torch.softmax is not for code that does.
HINT_PREMISES = ("calls_softmax", "writes_large_fill")


def _code_lines(text: str) -> list[str]:
    """The non-blank lines of ``text`` without comments, stripped (docstrings are kept: harmless)."""
    lines = (_COMMENT.sub("", line).strip() for line in text.splitlines())
    return [line for line in lines if line]


def _segment(source: str, name: str) -> str | None:
    """The source text of the top-level def or class ``name``, or None."""
    tree = parsed(source)
    for node in tree.body if tree is not None else ():
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node.name == name:
            return ast.get_source_segment(source, node)
    return None


@lru_cache(maxsize=32)
def _within(source: str, starter: str, name: str) -> Premises | None:
    """One Premises per function of one submission: every failed case asking about the same
    function shares it (and the facts it has already read); None when ``name`` is no def."""
    segment = _segment(source, name)
    return None if segment is None else Premises(segment, starter)


@dataclass(frozen=True)
class Premises:
    """Facts about one submission's source that decide which hints may be said."""

    source: str | None = None
    starter: str = field(default="", repr=False)

    @cached_property
    def calls_softmax(self) -> bool:
        """The code calls a library softmax (which subtracts each row's maximum itself)."""
        if self.source is None:
            return False
        code = self._code
        return bool(_SOFTMAX.search(code) or (_IMPORTS_SOFTMAX.search(self.source)
                                              and _BARE_SOFTMAX.search(code)))

    @cached_property
    def writes_large_fill(self) -> bool:
        """The code writes a large negative fill (-1e6, -inf, finfo.min, …) somewhere."""
        return self.source is not None and bool(_FILL.search(self._code))

    @cached_property
    def writes_minus_inf(self) -> bool:
        """The code writes −inf itself (float('-inf'), -torch.inf, -math.inf, -np.inf)."""
        return self.source is not None and bool(_MINUS_INF.search(self._code))

    @cached_property
    def keeps_placeholder(self) -> bool:
        """A placeholder line of the starter (zeros to replace, a not-written-yet raise) is still
        in the code, word for word. Without the source: assumed, as the old text did."""
        if self.source is None:
            return True
        mine = set(_code_lines(self.source))
        return any(_PLACEHOLDER.search(line) and line in mine for line in _code_lines(self.starter))

    def within(self, name: object) -> Premises:
        """The premises of the function or class ``name`` alone (a hint about the code under
        test must not read a module-level line: Part A's torch.softmax says nothing of Part B's
        hand-written one); the whole source when ``name`` is not a def or class in it."""
        if self.source is None or not isinstance(name, str):
            return self
        return _within(self.source, self.starter, name.split(".")[0]) or self

    @cached_property
    def _code(self) -> str:
        return "\n".join(_code_lines(self.source or ""))


# No source known: every premise as the old texts assumed it (see the module's docstring).
UNKNOWN = Premises()
