"""Tables (pandas DataFrames) behind the figures: matrices, layer complexity and tensor shapes."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from transformer_lab.message import LANGS
from transformer_lab.words import SHAPE_STEPS, WORDS

TEXT: dict[str, dict[str, str]] = {lang: {k: m.text(lang) for k, m in WORDS.items()} for lang in LANGS}


def normalise_lang(lang: str) -> str:
    """Map a language code ("en", "zh", "zh-CN", "zh_CN", ...) to a key of `TEXT`."""
    if not isinstance(lang, str):
        raise TypeError(f"lang must be a string such as 'en' or 'zh', got {type(lang).__name__}.")
    code = lang.strip().lower().replace("_", "-")
    if code == "en" or code.startswith("en-"):
        return "en"
    if code == "zh" or code.startswith("zh-"):
        return "zh"
    raise ValueError(f"Unsupported language {lang!r}: use 'en' (English) or 'zh' (Simplified Chinese).")


def word(key: str, lang: str = "en") -> str:
    """One learner-facing word in the requested language."""
    return TEXT[normalise_lang(lang)][key]


def as_array(x: Any, name: str, ndim: int | tuple[int, ...] | None = None) -> np.ndarray:
    """Turn a tensor, array or nested list into a float numpy array, checking its rank.

    Torch tensors are detached and moved to the CPU first, so weights straight out of a model
    (on a GPU, with grad) can be plotted; torch itself is not imported here.
    """
    if hasattr(x, "detach"):  # a torch.Tensor, possibly bfloat16 / on a GPU / requiring grad
        x = x.detach().cpu().float().numpy()
    try:
        arr = np.asarray(x, dtype=float)
    except (TypeError, ValueError) as exc:
        raise TypeError(
            f"{name} must be a tensor, a numpy array or a (nested) list of numbers; "
            f"could not read a {type(x).__name__} ({exc})."
        ) from None
    if ndim is not None:
        allowed = (ndim,) if isinstance(ndim, int) else ndim
        if arr.ndim not in allowed:
            want = " or ".join(f"{d}-D" for d in allowed)
            raise ValueError(f"{name} must be {want}, but it has shape {tuple(arr.shape)}.")
    return arr


def check_labels(labels: Sequence[Any] | None, size: int, name: str, prefix: str = "") -> list[str]:
    """Return `size` string labels: the given ones (checked) or `prefix0, prefix1, ...`."""
    if labels is None:
        return [f"{prefix}{i}" for i in range(size)]
    if isinstance(labels, str):
        raise TypeError(f"{name} must be a list of tokens, not one string ({labels!r}).")
    labels = [str(tok) for tok in labels]
    if len(labels) != size:
        raise ValueError(
            f"{name} has {len(labels)} labels but the matrix has {size} along that axis; "
            "give exactly one label per row/column."
        )
    return labels


def unique_labels(labels: Sequence[str]) -> list[str]:
    """Make repeated tokens distinct ("the", "the" -> "the", "the (2)").

    DataFrame columns with the same name are ambiguous (df["the"] returns two columns), and a
    sentence often repeats a word, so later copies get their occurrence number.
    """
    seen: dict[str, int] = {}
    out = []
    for tok in labels:
        seen[tok] = seen.get(tok, 0) + 1
        out.append(tok if seen[tok] == 1 else f"{tok} ({seen[tok]})")
    return out


def matrix_table(
    matrix: Any,
    row_labels: Sequence[Any] | None = None,
    col_labels: Sequence[Any] | None = None,
    decimals: int = 4,
    lang: str = "en",
    corner: str = "corner",
) -> pd.DataFrame:
    """A (n, m) matrix of scores or weights as a table, rounded to `decimals`.

    `corner` names the header of the row labels: a key of the word list ("corner" = query \\
    key, "corner_out" for an output, "corner_pos" for positions × dimensions).

    The row labels form the first column (header "query \\ key") rather than the index, because
    `gr.Dataframe` does not show a DataFrame's index. Numbers: `df.iloc[:, 1:].to_numpy()`.
    """
    arr = as_array(matrix, "matrix", ndim=2)  # (n, m)
    if not isinstance(decimals, int) or decimals < 0:
        raise ValueError(f"decimals must be a whole number >= 0, got {decimals!r}.")
    n, m = arr.shape
    rows = check_labels(row_labels, n, "row_labels", prefix="q")
    cols = unique_labels(check_labels(col_labels, m, "col_labels", prefix="k"))
    corner = word(corner, lang)
    if corner in cols:
        raise ValueError(f"A column label may not be {corner!r}: that is the row-label header.")
    df = pd.DataFrame(np.round(arr, decimals), columns=cols)
    df.insert(0, corner, rows)
    return df


def positional_frame(table: Any, dims: Sequence[int]) -> pd.DataFrame:
    """Long table (position, dimension, value) of chosen columns of a (T, d) encoding table."""
    arr = as_array(table, "table", ndim=2)  # (T, d)
    T, d = arr.shape
    dims = list(dims)
    if not dims:
        raise ValueError("dims is empty: choose at least one dimension to plot.")
    for i in dims:
        if not isinstance(i, (int, np.integer)) or isinstance(i, bool) or not 0 <= i < d:
            raise ValueError(f"dims must be whole numbers from 0 to {d - 1} (d = {d}); got {i!r}.")
    return pd.DataFrame(
        {
            "position": np.tile(np.arange(T), len(dims)),
            "dimension": np.repeat(np.asarray(dims, dtype=int), T),
            "value": arr[:, dims].T.reshape(-1),  # (len(dims), T) -> one block per dimension
        }
    )


# train.py's long history (one row per step, phase "train", plus phase "eval" rows) -> the wide
# table the curves use: eval rows contribute their loss as eval_loss and their held-out scores.
_EVAL_RENAME = {"loss": "eval_loss", "token_acc": "token_accuracy", "exact_acc": "exact_match"}


def history_frame(history: pd.DataFrame) -> pd.DataFrame:
    """One row per step: step, loss, lr, seconds and, on evaluated steps, eval_loss,
    token_accuracy, exact_match (NaN elsewhere) and decoded (True = free-running decoding).

    Accepts train.py's history (a "phase" column with "train"/"eval" rows); a table that is
    already wide is returned unchanged. Training-batch accuracies are dropped: the curves show
    held-out scores.
    """
    if not isinstance(history, pd.DataFrame):
        raise TypeError(f"history must be a pandas DataFrame, got {type(history).__name__}.")
    if "phase" not in history.columns:
        return history
    if "step" not in history.columns:
        raise ValueError(f"history has no 'step' column; columns: {list(history.columns)}.")
    train = history[history["phase"] == "train"]
    train = train[[c for c in ("step", "loss", "lr", "seconds") if c in train.columns]]
    evals = history[history["phase"] == "eval"].rename(columns=_EVAL_RENAME)
    evals = evals[[c for c in ("step", *_EVAL_RENAME.values(), "decoded") if c in evals.columns]]
    evals = evals.drop_duplicates("step", keep="last")  # a final check may repeat the last step
    return train.merge(evals, on="step", how="outer").sort_values("step", ignore_index=True)


def collect_runs(
    history: pd.DataFrame | None, compare: Mapping[str, pd.DataFrame] | None, name: str = "run"
) -> dict[str, pd.DataFrame]:
    """Name -> wide history (see `history_frame`) for `history` and every run in `compare`."""
    runs = {} if history is None else {name: history}
    runs.update(compare or {})
    if not runs:
        raise ValueError("Nothing to plot: give a history DataFrame or a compare dict of runs.")
    for run, df in runs.items():
        if not isinstance(df, pd.DataFrame):
            raise TypeError(f"Run {run!r} must be a pandas DataFrame, got {type(df).__name__}.")
        runs[run] = df = history_frame(df)
        if len(df.columns) and "step" not in df.columns:
            raise ValueError(f"Run {run!r} has no 'step' column; columns: {list(df.columns)}.")
    return runs


# The lesson's table (Vaswani et al., table 1): n = length, d = width, k = kernel, r = window.
_COMPLEXITY = [
    ("self-attention", "O(n²·d)", "O(1)", "O(1)"),
    ("recurrent", "O(n·d²)", "O(n)", "O(n)"),
    ("convolutional", "O(k·n·d²)", "O(1)", "O(log_k n)"),
    ("restricted self-attention", "O(r·n·d)", "O(1)", "O(n/r)"),
]


def complexity_table(lang: str = "en") -> pd.DataFrame:
    """Per-layer cost, sequential operations and maximum path length of each layer type."""
    rows = [(word(layer, lang), cost, seq, path) for layer, cost, seq, path in _COMPLEXITY]
    cols = [word(k, lang) for k in ("layer", "per_layer", "sequential", "path")]
    return pd.DataFrame(rows, columns=cols)


def shapes_table(steps: Sequence[tuple[str, tuple[int, ...]]], lang: str = "en") -> pd.DataFrame:
    """One row per step: its name, the tensor shape as text and its number of elements."""
    rows = []
    for i, step in enumerate(steps):
        if not (isinstance(step, (tuple, list)) and len(step) == 2):
            raise ValueError(f"Step {i} must be a pair (name, shape), got {step!r}.")
        name, shape = step
        if not isinstance(name, str):
            raise TypeError(f"Step {i}: the name must be a string, got {type(name).__name__}.")
        if hasattr(shape, "shape") and not isinstance(shape, tuple):  # a tensor was passed
            shape = tuple(shape.shape)
        shape = tuple(shape)
        if not all(isinstance(s, (int, np.integer)) and s >= 0 for s in shape):
            raise ValueError(f"Step {i} ({name!r}): a shape is a tuple of sizes >= 0, got {shape}.")
        rows.append((name, "(" + ", ".join(str(int(s)) for s in shape) + ")", int(np.prod(shape))))
    return pd.DataFrame(rows, columns=[word(k, lang) for k in ("step", "shape", "elements")])




def multihead_shape_steps(
    batch: int, n_queries: int, n_keys: int, num_hiddens: int, num_heads: int, lang: str = "en"
) -> list[tuple[str, tuple[int, ...]]]:
    """Shapes through multi-head attention in the library's (B, h, T, d_k) layout.

    Feed the result to `shapes_table`. D2L folds heads into the batch instead, (B·h, T, d_k);
    the numbers are the same, only the layout differs.
    """
    for name, v in [("batch", batch), ("n_queries", n_queries), ("n_keys", n_keys),
                    ("num_hiddens", num_hiddens), ("num_heads", num_heads)]:
        if not isinstance(v, (int, np.integer)) or v < 1:
            raise ValueError(f"{name} must be a whole number >= 1, got {v!r}.")
    if num_hiddens % num_heads:
        raise ValueError(
            f"num_hiddens ({num_hiddens}) must be divisible by num_heads ({num_heads}) "
            "so that every head gets the same width d_k = num_hiddens / num_heads."
        )
    B, n, m, H, h = batch, n_queries, n_keys, num_hiddens, num_heads
    d_k = H // h
    shapes = [(B, n, H), (B, n, H), (B, m, H), (B, h, n, d_k), (B, h, m, d_k),
              (B, h, n, m), (B, h, n, d_k), (B, n, H), (B, n, H)]
    names = [step.text(normalise_lang(lang)) for step in SHAPE_STEPS]
    return list(zip(names, shapes, strict=True))


def check_timings(df: pd.DataFrame) -> pd.DataFrame:
    """Validate a benchmark table (columns layer, n, d, ms); return it sorted by layer order, n."""
    if not isinstance(df, pd.DataFrame):
        raise TypeError(f"df must be a pandas DataFrame, got {type(df).__name__}.")
    missing = [c for c in ("layer", "n", "d", "ms") if c not in df.columns]
    if missing:
        raise ValueError(f"df lacks columns {missing}; it needs layer, n, d and ms.")
    if (df["n"] <= 0).any() or (df["ms"] <= 0).any():
        raise ValueError("n and ms must be positive to be drawn on log-log axes.")
    return df.sort_values("n", kind="stable")  # keeps the layers in the order they came


def log_log_slope(n: Any, ms: Any) -> float:
    """Least-squares slope of log(ms) against log(n): ~2 for quadratic growth, ~1 for linear.

    NaN with fewer than two distinct n, where no slope can be fitted.
    """
    x, y = np.log(as_array(n, "n", 1)), np.log(as_array(ms, "ms", 1))
    if len(np.unique(x)) < 2:
        return float("nan")
    return float(np.polyfit(x, y, 1)[0])


def timing_slopes(df: pd.DataFrame) -> pd.DataFrame:
    """One row per (layer, d) of a benchmark table with its fitted log-log slope."""
    df = check_timings(df)
    rows = [(layer, d, log_log_slope(part["n"], part["ms"]))
            for (layer, d), part in df.groupby(["layer", "d"], sort=False)]
    return pd.DataFrame(rows, columns=["layer", "d", "slope"])
