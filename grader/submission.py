"""Reads a submission from pasted text, a .py file or a Jupyter notebook (code cells only), and
holds the one set of input caps (``InputLimits``) that the CLI, the API and the app all apply."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from grader.words import say
from transformer_lab.message import Refused


@dataclass(frozen=True)
class InputLimits:
    """Caps on one submission. An exercise solution is a few kB; 100 kB leaves ample room."""

    max_code_bytes: int = 100_000  # UTF-8 bytes of the Python source the app will grade
    max_upload_bytes: int = 5_000_000  # a raw file or notebook (outputs and images make it big)
    max_learner_chars: int = 64


DEFAULT_LIMITS = InputLimits()


class SubmissionError(Refused):
    """The submission could not be read (a missing file, a notebook refused by its cheap bounds
    or as unreadable, too large): a :class:`Refused` with its reason code. The file-reading
    errors of the command line are in English only (``SubmissionError(reason, en)``)."""


# Cheap bounds on a notebook, checked on the raw text before any JSON is parsed (issue 19,
# property 2): a 4.9 MB nbformat-3 notebook of 55,000 cells cost 15 s in nbformat before it
# was refused as empty, and 5 MB of "[[],[],...]" costs 0.3 s in json.loads alone. A learner's
# notebook has tens of cells and a few thousand JSON containers.
MAX_NOTEBOOK_CELLS = 1_000
MAX_NOTEBOOK_CONTAINERS = 100_000  # "[" and "{" anywhere in the text, strings included
MAX_NOTEBOOK_DEPTH = 64  # a notebook nests about 6 deep
NBFORMATS = (3, 4)


def looks_like_notebook(text: str, filename: str | None = None) -> bool:
    """A Jupyter notebook by its name, or by its JSON head when there is no name."""
    if filename is not None and str(filename).lower().endswith(".ipynb"):
        return True
    head = text.lstrip()[:5000]
    return head.startswith("{") and '"cells"' in head


def notebook_problem(text: str) -> SubmissionError | None:
    """Why ``text`` is refused before it is parsed, or None: counts on the raw text only, each
    one pass in C, so the work is bounded by the bytes received and a few milliseconds."""
    cells = text.count('"cell_type"')
    if cells > MAX_NOTEBOOK_CELLS:
        return _too_many_cells(cells)
    containers = text.count("[") + text.count("{")
    if containers > MAX_NOTEBOOK_CONTAINERS:
        return SubmissionError("notebook_too_complex", **say(
            "notebook.too_complex", containers=containers, limit=MAX_NOTEBOOK_CONTAINERS,
            clear=say("notebook.clear")))
    return None


def _too_many_cells(cells: int) -> SubmissionError:
    return SubmissionError("too_many_cells", **say("notebook.too_many_cells", cells=cells,
                                                    limit=MAX_NOTEBOOK_CELLS))


def _unreadable(detail: str) -> SubmissionError:
    return SubmissionError("bad_notebook", **say("notebook.unreadable", detail=detail))


def _depth_ok(value: object) -> bool:
    stack = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if depth > MAX_NOTEBOOK_DEPTH:
            return False
        if isinstance(item, dict):
            stack.extend((v, depth + 1) for v in item.values())
        elif isinstance(item, list):
            stack.extend((v, depth + 1) for v in item)
    return True


def _cells(nb: object) -> list:
    """The cells of an nbformat 4 or 3 notebook (v3 keeps them in worksheets)."""
    if not isinstance(nb, dict):
        raise _unreadable("it is not a JSON object")
    version = nb.get("nbformat")
    if version not in NBFORMATS:
        raise _unreadable(f"nbformat {str(version)[:20]}; versions 3 and 4 are read")
    if version == 4:
        cells = nb.get("cells")
    else:
        sheets = nb.get("worksheets")
        if not isinstance(sheets, list) or not all(isinstance(w, dict) for w in sheets):
            raise _unreadable("no worksheets")
        cells = [c for w in sheets for c in (w.get("cells") if isinstance(w.get("cells"), list) else [None])]
    if not isinstance(cells, list) or not all(isinstance(c, dict) for c in cells):
        raise _unreadable("no list of cells")
    if len(cells) > MAX_NOTEBOOK_CELLS:
        raise _too_many_cells(len(cells))
    return cells


def _text_of(cell: dict, key: str) -> str:
    src = cell.get(key, "")
    if isinstance(src, list) and all(isinstance(x, str) for x in src):
        return "".join(src)
    if not isinstance(src, str):
        raise _unreadable(f"a cell's {key} is not text")
    return src


def notebook_to_source(text: str) -> str:
    """Join a notebook's code cells; IPython magics (`%`, `%%`) and shell lines (`!`) are dropped.

    Read with json and the few nbformat 3/4 fields a code cell needs, after the cheap bounds of
    ``notebook_problem``: nbformat's full validation is what took seconds on a huge notebook.
    """
    problem = notebook_problem(text)
    if problem is not None:
        raise problem
    try:
        nb = json.loads(text)
    except RecursionError:
        raise _unreadable("nested too deeply") from None
    except ValueError as exc:
        raise SubmissionError("bad_notebook", **say("notebook.bad_json", error=exc)) from None
    if not _depth_ok(nb):
        raise _unreadable("nested too deeply")
    chunks = []
    for cell in _cells(nb):
        if cell.get("cell_type") != "code":
            continue
        src = _text_of(cell, "source" if nb["nbformat"] == 4 else "input")
        if src.lstrip().startswith("%%"):
            continue  # a cell magic makes the whole cell non-Python
        lines = [ln for ln in src.splitlines() if not ln.lstrip().startswith(("%", "!"))]
        chunks.append("\n".join(lines))
    return "\n\n".join(chunks) + "\n"


def read_submission(source: str | Path) -> str:
    """Source text from text, or from a ``Path`` to a .py / .ipynb file.

    A ``str`` is always source text, never a path: otherwise a learner who pastes the
    one line ``hidden/<id>/reference.py`` would have the server's reference graded as theirs.
    """
    if isinstance(source, Path):
        path = Path(source)
        if not path.is_file():
            raise SubmissionError("no_file", f"no such file: {path}")
        try:
            raw = path.read_bytes()
        except OSError as exc:
            raise SubmissionError("unreadable", f"cannot read {path}: {exc.strerror}") from None
        if len(raw) > DEFAULT_LIMITS.max_upload_bytes:
            raise SubmissionError("too_large", f"{path} is larger than {DEFAULT_LIMITS.max_upload_bytes} bytes")
        text = raw.decode("utf-8", errors="replace")
        return notebook_to_source(text) if looks_like_notebook(text, path.name) else text
    if not isinstance(source, str):
        raise TypeError(f"a submission is source text or a path, not {type(source).__name__}")
    if len(source.encode("utf-8", errors="replace")) > DEFAULT_LIMITS.max_upload_bytes:
        raise SubmissionError("too_large", f"the submission is larger than {DEFAULT_LIMITS.max_upload_bytes} bytes")
    if looks_like_notebook(source):
        return notebook_to_source(source)
    return source
