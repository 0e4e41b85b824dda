"""Reads a submission from pasted text, a .py file or a Jupyter notebook (code cells only)."""

from __future__ import annotations

from pathlib import Path

MAX_SOURCE_BYTES = 1_000_000


class SubmissionError(ValueError):
    """The submission could not be read (missing file, bad notebook, too large)."""


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
        if len(raw) > MAX_SOURCE_BYTES:
            raise SubmissionError(f"{path} is larger than {MAX_SOURCE_BYTES} bytes")
        text = raw.decode("utf-8", errors="replace")
        return notebook_to_source(text) if path.suffix == ".ipynb" else text
    if not isinstance(source, str):
        raise TypeError(f"a submission is source text or a path, not {type(source).__name__}")
    if len(source.encode("utf-8", errors="replace")) > MAX_SOURCE_BYTES:
        raise SubmissionError(f"the submission is larger than {MAX_SOURCE_BYTES} bytes")
    if source.lstrip().startswith("{") and '"cells"' in source[:5000]:
        return notebook_to_source(source)
    return source
