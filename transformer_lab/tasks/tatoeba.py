"""Read English-French sentence pairs from a TSV file, and fetch D2L's `fra-eng` copy of Tatoeba."""

from __future__ import annotations

import hashlib
import os
import shutil
import urllib.error
import urllib.request
import zipfile
from collections.abc import Callable
from pathlib import Path

from ..errors import lab_error
from ..settings import D2L_FRA_ENG_SHA1, D2L_FRA_ENG_URL, LibrarySettings

MEMBER = "fra-eng/fra.txt"  # the one file we need inside the zip

Fetch = Callable[[str, Path], None]


def read_pairs(path: str | os.PathLike, max_pairs: int | None = None) -> list[tuple[str, str]]:
    """(english, french) pairs from a UTF-8 file of `english<TAB>french[<TAB>anything]` lines.

    Tatoeba's `fra.txt` has a third column (attribution); it is ignored. Blank lines are
    skipped. Text is returned raw: preprocessing is the task's job.
    """
    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"no sentence-pair file at {path}.")
    if max_pairs is not None and (isinstance(max_pairs, bool) or not isinstance(max_pairs, int)
                                  or max_pairs < 1):
        raise ValueError(f"max_pairs must be a positive integer or None, got {max_pairs!r}.")
    pairs: list[tuple[str, str]] = []
    with path.open(encoding="utf-8") as f:
        for lineno, line in enumerate(f, start=1):
            line = line.rstrip("\r\n").lstrip("\ufeff")
            if not line.strip():
                continue
            cols = line.split("\t")
            if len(cols) < 2 or not cols[0].strip() or not cols[1].strip():
                raise ValueError(
                    f"{path}, line {lineno}: expected 'english<TAB>french', got {line[:60]!r}."
                )
            pairs.append((cols[0].strip(), cols[1].strip()))
            if max_pairs is not None and len(pairs) >= max_pairs:
                break
    if not pairs:
        raise ValueError(f"{path} holds no sentence pairs.")
    return pairs


def cache_dir() -> Path:
    """Where downloads are kept: $LAB_CACHE_DIR, else ~/.cache/transformer_lab."""
    return LibrarySettings.read("cache_dir")


def sha1_of(path: Path) -> str:
    h = hashlib.sha1()
    with path.open("rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def _urlretrieve(url: str, dest: Path) -> None:
    """Default fetch: stream `url` into `dest` (file:// URLs work too, which tests use)."""
    with urllib.request.urlopen(url, timeout=30) as resp, dest.open("wb") as out:
        shutil.copyfileobj(resp, out)


def download_fra_eng(
    cache: str | os.PathLike | None = None,
    url: str = D2L_FRA_ENG_URL,
    sha1: str = D2L_FRA_ENG_SHA1,
    fetch: Fetch | None = None,
) -> Path:
    """Path of `fra.txt`, downloading and checking D2L's zip on first use.

    The zip is verified against `sha1` before it is unpacked; a mismatch deletes it and
    raises. Later calls find the unpacked file in the cache and touch no network.
    `fetch(url, dest)` can be swapped (tests pass a local copy instead of the network).
    """
    root = Path(cache).expanduser() if cache is not None else cache_dir()
    target = root / MEMBER
    if target.is_file():
        return target
    root.mkdir(parents=True, exist_ok=True)
    zip_path = root / "fra-eng.zip"
    if not (zip_path.is_file() and sha1_of(zip_path) == sha1):
        partial = zip_path.with_suffix(".part")
        try:
            (fetch or _urlretrieve)(url, partial)
        except (urllib.error.URLError, OSError) as err:
            partial.unlink(missing_ok=True)
            raise ConnectionError(
                f"could not download {url} ({err}). Without network access, download "
                f"fra-eng.zip elsewhere and put it in {root}, or pass the path of fra.txt "
                "to TranslationConfig(path=...)."
            ) from err
        got = sha1_of(partial)
        if got != sha1:
            partial.unlink(missing_ok=True)
            raise ValueError(
                f"checksum mismatch for {url}: expected sha1 {sha1}, got {got}. The download "
                "is damaged or not the expected file; it was deleted."
            )
        partial.replace(zip_path)
    with zipfile.ZipFile(zip_path) as zf:
        if MEMBER not in zf.namelist():
            raise ValueError(f"{zip_path} does not contain {MEMBER}.")
        target.parent.mkdir(parents=True, exist_ok=True)
        # extract only the member we know, by name, so a crafted zip cannot write elsewhere;
        # write beside the target first so an interrupted run leaves no half file behind
        tmp = target.with_suffix(".part")
        with zf.open(MEMBER) as src, tmp.open("wb") as dst:
            shutil.copyfileobj(src, dst)
        tmp.replace(target)
    return target


def load_tatoeba(
    path: str | os.PathLike | None = None,
    max_pairs: int | None = None,
    **download_kwargs,
) -> list[tuple[str, str]]:
    """Pairs of the full Tatoeba EN-FR file: from `path`, or downloaded (see `download_fra_eng`)."""
    if path is None:
        path = download_fra_eng(**download_kwargs)
    return read_pairs(path, max_pairs=max_pairs)


CORPORA = ("bundled", "tatoeba")
# The hand-written pairs shipped with the library (here, not in translation.py, which reads
# this module: defining it there made the two modules import each other).
BUNDLED_CORPUS = Path(__file__).resolve().parent.parent / "data" / "en_fr.tsv"
TATOEBA_PAIRS = 10_000  # the first lines of fra.txt: short sentences, as D2L's chapter uses


def corpus_pairs(corpus: str = "bundled", max_pairs: int | None = None,
                 bundled: str | os.PathLike | None = None,
                 **download_kwargs) -> tuple[list[tuple[str, str]], str]:
    """(pairs, name of the corpus actually used) for "bundled" or "tatoeba".

    "tatoeba" downloads D2L's fra-eng.zip once (checksum verified, cached; see download_fra_eng)
    and reads its first ``max_pairs`` lines (TATOEBA_PAIRS by default). Without network, or on a
    bad checksum, it falls back to the bundled corpus and says so in the returned name.
    $LAB_TATOEBA_URL and $LAB_TATOEBA_SHA1 point elsewhere (a mirror, or a local test file).
    """
    if corpus not in CORPORA:
        raise lab_error("unknown_choice", what="corpus", value=corpus, choices=", ".join(CORPORA))
    local = bundled or BUNDLED_CORPUS
    if corpus == "bundled":
        return read_pairs(local, max_pairs=max_pairs), "bundled"
    download_kwargs.setdefault("url", LibrarySettings.read("tatoeba_url"))
    download_kwargs.setdefault("sha1", LibrarySettings.read("tatoeba_sha1"))
    try:
        return load_tatoeba(max_pairs=max_pairs or TATOEBA_PAIRS, **download_kwargs), "tatoeba"
    except (ConnectionError, ValueError, OSError) as err:
        reason = str(err).split(".")[0]
        return read_pairs(local, max_pairs=max_pairs), f"bundled (Tatoeba unavailable: {reason})"
