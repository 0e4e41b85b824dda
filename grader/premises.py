"""What a hint takes for granted about the learner's code, read from the code itself.

A generic hint has a premise: "use torch.softmax" assumes the code does not call it yet; "hide
keys in the scores with a large negative fill" assumes it does not already; "if this is still
the starter's placeholder" assumes a placeholder is left. A hint whose premise is false names a
wrong cause, so the observers (grader/observe.py, grader/observe_values.py) and the case hints
(grader/explain.py) ask these questions first. Each answer is read from the source text only
(names and literals, never run), so it costs microseconds and sees nothing hidden.

``Premises()`` with no source answers as the old text assumed (no softmax called, no fill
written, the placeholder kept): what a caller without the source got before.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cached_property

# torch.softmax, F.softmax, x.softmax(...), nn.Softmax(...), torch.nn.functional.softmax, scipy's
_SOFTMAX = re.compile(r"\bsoftmax\s*\(|\bSoftmax\s*\(")
# A large negative fill written in the code: -1e6, -1e9, -inf, float("-inf"), finfo(...).min, -10000…
_FILL = re.compile(r"-\s*(?:\d+(?:\.\d*)?[eE]\+?\d+|\d{4,}(?:\.\d*)?)"  # -1e6, -1e+09, -100000
                   r"|-\s*(?:torch|math|np|numpy)\.inf\b|float\(\s*['\"]-\s*inf"
                   r"|finfo\([^)]*\)\.min|-\s*float\(\s*['\"]inf")
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


@dataclass(frozen=True)
class Premises:
    """Facts about one submission's source that decide which hints may be said."""

    source: str | None = None
    starter: str = field(default="", repr=False)

    @cached_property
    def calls_softmax(self) -> bool:
        """The code calls a library softmax (which subtracts each row's maximum itself)."""
        return self.source is not None and bool(_SOFTMAX.search(self._code))

    @cached_property
    def writes_large_fill(self) -> bool:
        """The code writes a large negative fill (-1e6, -inf, finfo.min, …) somewhere."""
        return self.source is not None and bool(_FILL.search(self._code))

    @cached_property
    def keeps_placeholder(self) -> bool:
        """A placeholder line of the starter (zeros to replace, a not-written-yet raise) is still
        in the code, word for word. Without the source: assumed, as the old text did."""
        if self.source is None:
            return True
        mine = set(_code_lines(self.source))
        return any(_PLACEHOLDER.search(line) and line in mine for line in _code_lines(self.starter))

    @cached_property
    def _code(self) -> str:
        return "\n".join(_code_lines(self.source or ""))


# No source known: every premise as the old texts assumed it (see the module's docstring).
UNKNOWN = Premises()
