"""The learner's own exception on a hidden test, shown as raised where that cannot carry hidden data.

When learner code raises, its exception is theirs to read: torch's "view size is not compatible
with input tensor's size and stride … Use .reshape(...) instead" says more than any paraphrase.
But on a hidden test the message is built while hidden inputs exist, and the code chooses what
goes into it: which words, which punctuation, which numbers (a red team encoded whole float64
values in punctuation, in number words picked from the source, in the digits of a reshape
error). Filtering the message token by token cannot close that: the code picks the order.

So a message is shown only when it is one of the messages below, the ones Python and torch
raise for the slips learners make, matched whole (ASCII digits only). Their only variable parts
are typed slots, re-rendered from their values: a size slot is shown when it is a size of this
case's own inputs, an axis slot when it is a small axis number, a dtype or type slot from a
fixed list; a shape list or a name always reads "…". What the slots, the template chosen and
the line can still say is a few tens of bits per case at most (a red team measured the
channels), less than the eight traceback frames said before; the app draws fresh hidden inputs
for every submission, so nothing learnt carries over. Any other message is not shown (the
public examples show it in full).
"""

from __future__ import annotations

import ast
import re
from functools import lru_cache

HIDDEN = "…"
AXIS = 4  # an axis or rank slot is shown up to this size (tensors here have at most 4 axes)
SHAPE_LEN = 6  # a shape slot is shown when it has at most this many entries, each a size

_DTYPE = (r"(?:Float|Double|Half|BFloat16|Long|Int|Short|Char|Byte|Bool|ComplexFloat|ComplexDouble"
          r"|float|double|half|long int|long|int|bool|c10::Half|c10::BFloat16)")
_TYPE = (r"(?:Tensor|Parameter|NoneType|int|float|bool|complex|str|list|tuple|dict|set|ndarray"
         r"|function|method|builtin_function_or_method|module|generator|Linear|Module)")
_SHAPE = r"(?:-?\d+(?:, -?\d+)*)?"  # torch's own format, nothing else

# (template, slots): the template is a regex matched against the whole message; every named
# group is a slot whose kind its name's prefix says: size*, axis*, shape*, dtype*, type*, name*.
TEMPLATES: tuple[str, ...] = (
    r"view size is not compatible with input tensor's size and stride \(at least one dimension "
    r"spans across two contiguous subspaces\)\. Use \.reshape\(\.\.\.\) instead\.",
    r"(?P<type_arg>batch1|batch2|mat1|mat2|self) must be a (?P<axis_n>\d+)D tensor",
    r"Expected (?P<axis_a>\d+)-dimensional tensor, but got (?P<axis_b>\d+)-dimensional tensor for "
    r"argument #(?P<axis_c>\d+) '(?P<type_arg>batch1|batch2|mat1|mat2|self|other)' \(while checking "
    r"arguments for (?P<type_fn>bmm|mm|addmm|baddbmm|matmul)\)",
    r"mat1 and mat2 shapes cannot be multiplied \((?P<size_a>\d+)x(?P<size_b>\d+) and "
    r"(?P<size_c>\d+)x(?P<size_d>\d+)\)",
    r"The size of tensor a \((?P<size_a>\d+)\) must match the size of tensor b \((?P<size_b>\d+)\) "
    r"at non-singleton dimension (?P<axis_d>\d+)",
    r"Expected size for first two dimensions of batch2 tensor to be: \[(?P<size_a>\d+), "
    r"(?P<size_b>\d+)\] but got: \[(?P<size_c>\d+), (?P<size_d>\d+)\]\.",
    r"shape '\[(?P<shape_s>" + _SHAPE + r")\]' is invalid for input of size (?P<size_n>\d+)",
    r"Dimension out of range \(expected to be in range of \[(?P<axis_lo>-\d+), (?P<axis_hi>\d+)\], "
    r"but got (?P<axis_got>-?\d+)\)",
    r"index (?P<size_i>-?\d+) is out of bounds for dimension (?P<axis_d>\d+) with size "
    r"(?P<size_s>\d+)",
    r"expected scalar type (?P<dtype_a>" + _DTYPE + r") but found (?P<dtype_b>" + _DTYPE + r")",
    r"mat1 and mat2 must have the same dtype, but got (?P<dtype_a>" + _DTYPE + r") and "
    r"(?P<dtype_b>" + _DTYPE + r")",
    r"expected m1 and m2 to have the same dtype, but got: (?P<dtype_a>" + _DTYPE + r") != "
    r"(?P<dtype_b>" + _DTYPE + r")",
    r"masked_fill_ only supports boolean masks, but got mask with dtype (?P<dtype_a>" + _DTYPE + r")",
    r"Boolean value of Tensor with more than one value is ambiguous",
    r"only one element tensors can be converted to Python scalars",
    r"a Tensor with (?P<size_n>\d+) elements cannot be converted to Scalar",
    r"element 0 of tensors does not require grad and does not have a grad_fn",
    r"a leaf Variable that requires grad is being used in an in-place operation\.",
    r"Tensors must have same number of dimensions: got (?P<axis_a>\d+) and (?P<axis_b>\d+)",
    r"Sizes of tensors must match except in dimension (?P<axis_d>\d+)\. Expected size "
    r"(?P<size_a>\d+) but got size (?P<size_b>\d+) for tensor number (?P<axis_n>\d+) in the list\.",
    r"The expanded size of the tensor \((?P<size_a>\d+)\) must match the existing size "
    r"\((?P<size_b>\d+)\) at non-singleton dimension (?P<axis_d>\d+)\.  Target sizes: "
    r"\[(?P<shape_t>" + _SHAPE + r")\]\.  Tensor sizes: \[(?P<shape_u>" + _SHAPE + r")\]",
    r"too many indices for tensor of dimension (?P<axis_n>\d+)",
    r"einsum\(\): the number of subscripts in the equation \((?P<axis_a>\d+)\) does not match the "
    r"number of dimensions \((?P<axis_b>\d+)\) for operand (?P<axis_c>\d+)(?: and no ellipsis was "
    r"given)?",
    r"zero-size array to reduction operation (?:maximum|minimum) which has no identity",
    r"max\(\): Expected reduction dim to be specified for input\.numel\(\) == 0\. Specify the "
    r"reduction dim with the 'dim' argument\.",
    r"name '(?P<name_x>[A-Za-z_]\w{0,60})' is not defined",
    r"'(?P<type_obj>" + _TYPE + r")' object has no attribute '(?P<name_x>[A-Za-z_]\w{0,60})'",
    r"'(?P<type_obj>" + _TYPE + r")' object is not (?:callable|subscriptable|iterable)",
    r"unsupported operand type\(s\) for (?P<type_op>\*\*|//|[-+*/@%]): '(?P<type_a>" + _TYPE
    + r")' and '(?P<type_b>" + _TYPE + r")'",
    r"division by zero",
    r"float division by zero",
    r"math domain error",
    r"list index out of range",
    r"tuple index out of range",
)
# Longer messages that begin with a known sentence: the sentence is shown, not the rest.
PREFIXES: tuple[str, ...] = (
    "one of the variables needed for gradient computation has been modified by an inplace "
    "operation",
)
# ASCII digits only: "\d" also matches 64 other scripts' digits, and int() reads them all (a red
# team padded a size with zeros from many scripts, 6 bits a character).
_COMPILED = tuple(re.compile(t, re.ASCII) for t in TEMPLATES)


def _slot(kind: str, text: str, sizes: frozenset[int]) -> str:
    """A slot's text when it may be shown, re-rendered from its value (never echoed: "007" and
    "7" must read alike), else "…" (see the module). A shape list is never shown: its entries,
    each a size, would still say which (a red team got 17–28 bits a case from two of them)."""
    if kind in ("type", "dtype"):
        return text  # one of the template's own fixed alternatives
    if kind == "axis":
        value = int(text)
        return str(value) if abs(value) <= AXIS else HIDDEN
    if kind == "size":
        value = int(text)
        return str(value) if value in sizes else HIDDEN
    return HIDDEN  # names, shapes


def shown_message(message: str, sizes: frozenset[int] = frozenset()) -> str | None:
    """``message`` as it may be shown on a hidden test (slots filled or "…"), or None when it is
    none of the known messages."""
    text = message.strip()
    for prefix in PREFIXES:
        if text.startswith(prefix):
            return prefix
    for pattern in _COMPILED:
        found = pattern.fullmatch(text)
        if not found:
            continue
        out, last = [], 0
        for name in pattern.groupindex:
            start, end = found.span(name)
            if start < 0:
                continue
            out.append(text[last:start])
            out.append(_slot(name.split("_", 1)[0], found.group(name), sizes))
            last = end
        out.append(text[last:])
        return "".join(out)
    return None


_FRAME = re.compile(r'File "submission\.py", line (\d+), in (\S+)')
_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ListComp, ast.SetComp,
           ast.DictComp, ast.GeneratorExp)


@lru_cache(maxsize=8)
def parsed(source: str) -> ast.Module | None:
    """``source`` parsed once for everything the trusted side reads of it (frames, own raises,
    premises); None when it does not parse. Callers only read the tree."""
    try:
        return ast.parse(source)
    except (SyntaxError, ValueError):
        return None


def _span(node: ast.AST) -> tuple[int, int]:
    return node.lineno, node.end_lineno or node.lineno


def _covered(spans: list[tuple[int, int]]) -> list[bool]:
    """Which lines (index = line number) lie in at least one span: a difference array, so
    nested spans cost their count, not their length (a red-team-sized source of 150 nested
    calls around 30,000 lines took 0.4 s of the trusted side's CPU marking line by line)."""
    last = max((b for _, b in spans), default=0)
    depth, out, delta = 0, [False] * (last + 2), [0] * (last + 2)
    for first, end in spans:
        delta[first] += 1
        delta[end + 1] -= 1
    for n in range(1, last + 1):
        depth += delta[n]
        out[n] = depth > 0
    return out


@lru_cache(maxsize=64)
def _scopes(source: str) -> dict[int, str]:
    """Each line of ``source`` that holds a statement or expression, mapped to the name of the
    innermost function (or comprehension) around it, "<module>" at top level: what a real
    traceback frame on that line is called. Linear in the source (one sweep with a stack)."""
    tree = parsed(source)
    if tree is None:
        return {}
    code = _covered([_span(node) for node in tree.body])  # every line a statement spans
    scopes = []
    for node in ast.walk(tree):
        if isinstance(node, _SCOPES):
            name = getattr(node, "name", None) or {
                ast.Lambda: "<lambda>", ast.ListComp: "<listcomp>", ast.SetComp: "<setcomp>",
                ast.DictComp: "<dictcomp>", ast.GeneratorExp: "<genexpr>"}[type(node)]
            first, last = _span(node)
            scopes.append((first, -last, name))
    scopes.sort()  # by first line, the wider of two that start together first
    names: dict[int, str] = {}
    stack: list[tuple[int, str]] = []  # (last line, name), innermost on top
    i = 0
    for n in range(1, len(code)):
        while i < len(scopes) and scopes[i][0] == n:
            stack.append((-scopes[i][1], scopes[i][2]))
            i += 1
        while stack and stack[-1][0] < n:
            stack.pop()
        if code[n]:
            names[n] = stack[-1][1] if stack else "<module>"
    return names


def frames(traceback: str, source: str) -> list[tuple[int, str]]:
    """The (line, function) frames of the learner's traceback that ``source`` accounts for: a
    line that holds code in it, in the function that holds that line. Code compiled at run
    time under the same file name (a red team padded the source and chose line numbers from
    hidden inputs, 64 bits a case) names lines and functions the source does not have there."""
    scopes = _scopes(source)
    out = []
    for number, name in _FRAME.findall(traceback):
        line = int(number)
        real = scopes.get(line)
        if real is not None and (name == real or real == "<module>" and name.startswith("<")):
            out.append((line, name))
    return out


def learner_line(traceback: str, source: str) -> int | None:
    """The line of the learner's code the exception passed last (the innermost frame that the
    source accounts for, see :func:`frames`)."""
    found = frames(traceback, source)
    return found[-1][0] if found else None


@lru_cache(maxsize=64)
def raise_lines(source: str) -> frozenset[int]:
    """Every line of ``source`` inside a ``raise`` or ``assert`` statement, or a call of
    exec/eval/compile (code that raises what it likes: its text is the learner's own)."""
    tree = parsed(source)
    if tree is None:
        return frozenset()
    spans = [_span(node) for node in ast.walk(tree)
             if isinstance(node, (ast.Raise, ast.Assert)) or (
                 isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                 and node.func.id in ("exec", "eval", "compile"))]
    return frozenset(n for n, inside in enumerate(_covered(spans)) if inside)
