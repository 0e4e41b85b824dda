"""Reads a submission from pasted text, a .py file or a Jupyter notebook (code cells only), and
holds the one set of input caps (``InputLimits``) that the CLI, the API and the app all apply."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class InputLimits:
    """Caps on one submission. An exercise solution is a few kB; 100 kB leaves ample room."""

    max_code_bytes: int = 100_000  # UTF-8 bytes of the Python source the app will grade
    max_upload_bytes: int = 5_000_000  # a raw file or notebook (outputs and images make it big)
    max_learner_chars: int = 64


DEFAULT_LIMITS = InputLimits()


class SubmissionError(ValueError):
    """The submission could not be read (missing file, bad notebook, too large)."""


def looks_like_notebook(text: str, filename: str | None = None) -> bool:
    """A Jupyter notebook by its name, or by its JSON head when there is no name."""
    if filename is not None and str(filename).lower().endswith(".ipynb"):
        return True
    head = text.lstrip()[:5000]
    return head.startswith("{") and '"cells"' in head


def notebook_to_source(text: str) -> str:
    """Join a notebook's code cells; IPython magics (`%`, `%%`) and shell lines (`!`) are dropped."""
    import nbformat

    try:
        nb = nbformat.reads(text, as_version=4)
    except Exception as exc:
        raise SubmissionError(f"this notebook could not be read: {exc}") from None
    chunks = []
    for cell in nb.cells:
        if cell.get("cell_type") != "code":
            continue
        src = cell.get("source", "")
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
            raise SubmissionError(f"no such file: {path}")
        try:
            raw = path.read_bytes()
        except OSError as exc:
            raise SubmissionError(f"cannot read {path}: {exc.strerror}") from None
        if len(raw) > DEFAULT_LIMITS.max_upload_bytes:
            raise SubmissionError(f"{path} is larger than {DEFAULT_LIMITS.max_upload_bytes} bytes")
        text = raw.decode("utf-8", errors="replace")
        return notebook_to_source(text) if looks_like_notebook(text, path.name) else text
    if not isinstance(source, str):
        raise TypeError(f"a submission is source text or a path, not {type(source).__name__}")
    if len(source.encode("utf-8", errors="replace")) > DEFAULT_LIMITS.max_upload_bytes:
        raise SubmissionError(f"the submission is larger than {DEFAULT_LIMITS.max_upload_bytes} bytes")
    if looks_like_notebook(source):
        return notebook_to_source(source)
    return source
