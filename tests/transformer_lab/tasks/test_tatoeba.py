"""Tatoeba / D2L fra-eng loading from local files; downloads are faked, never networked."""

import hashlib
import urllib.error
import zipfile

import pytest

from transformer_lab.tasks import download_fra_eng, load_tatoeba, read_pairs
from transformer_lab.tasks.tatoeba import cache_dir

FRA_TXT = (
    "Go.\tVa\u202f!\tCC-BY 2.0 (France) Attribution: tatoeba.org #2877272 (CM) & #1158250 (W)\n"
    "Hi.\tSalut\u202f!\tCC-BY 2.0 (France) Attribution: tatoeba.org #538123 (CM) & #509819 (A)\n"
    "I lost.\tJ'ai perdu.\tCC-BY 2.0 (France) Attribution: tatoeba.org #1 (x) & #2 (y)\n"
)


def make_zip(path, member="fra-eng/fra.txt", text=FRA_TXT):
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr(member, text)
    return hashlib.sha1(path.read_bytes()).hexdigest()


def test_read_pairs_with_and_without_attribution(tmp_path):
    with_attr = tmp_path / "a.txt"
    with_attr.write_text(FRA_TXT, encoding="utf-8")
    two_cols = tmp_path / "b.tsv"
    two_cols.write_text("\ufeffGo.\tVa\u202f!\n\nI lost.\tJ'ai perdu.\r\n", encoding="utf-8")
    expected = [("Go.", "Va\u202f!"), ("I lost.", "J'ai perdu.")]
    assert read_pairs(two_cols) == expected  # BOM, blank line and CRLF handled
    pairs = read_pairs(with_attr)
    assert pairs[0] == expected[0] and pairs[2] == expected[1] and len(pairs) == 3
    assert read_pairs(with_attr, max_pairs=2) == pairs[:2]


def test_read_pairs_errors(tmp_path):
    bad = tmp_path / "bad.tsv"
    bad.write_text("Go.\tVa !\nno tab here\n", encoding="utf-8")
    with pytest.raises(ValueError, match="line 2"):
        read_pairs(bad)
    empty = tmp_path / "empty.tsv"
    empty.write_text("\n\n", encoding="utf-8")
    with pytest.raises(ValueError, match="no sentence pairs"):
        read_pairs(empty)
    with pytest.raises(FileNotFoundError, match="no sentence-pair file"):
        read_pairs(tmp_path / "missing.tsv")
    with pytest.raises(ValueError, match="max_pairs"):
        read_pairs(bad, max_pairs=0)


def test_download_verifies_unpacks_and_caches(tmp_path):
    source = tmp_path / "served.zip"
    sha1 = make_zip(source)
    calls = []

    def fake_fetch(url, dest):
        calls.append(url)
        dest.write_bytes(source.read_bytes())

    cache = tmp_path / "cache"
    path = download_fra_eng(cache=cache, sha1=sha1, fetch=fake_fetch)
    assert path == cache / "fra-eng" / "fra.txt"
    assert path.read_text(encoding="utf-8") == FRA_TXT
    assert download_fra_eng(cache=cache, sha1=sha1, fetch=fake_fetch) == path
    assert len(calls) == 1  # the second call used the cache
    assert load_tatoeba(cache=cache, sha1=sha1, fetch=fake_fetch)[2] == ("I lost.", "J'ai perdu.")


def test_download_through_a_file_url(tmp_path):
    source = tmp_path / "served.zip"
    sha1 = make_zip(source)
    path = download_fra_eng(cache=tmp_path / "c", url=source.as_uri(), sha1=sha1)
    assert read_pairs(path)[0] == ("Go.", "Va\u202f!")


def test_checksum_mismatch_deletes_the_download(tmp_path):
    source = tmp_path / "served.zip"
    make_zip(source)
    cache = tmp_path / "cache"
    with pytest.raises(ValueError, match="checksum mismatch"):
        download_fra_eng(cache=cache, url=source.as_uri(), sha1="0" * 40)
    assert not list(cache.rglob("*.zip")) and not list(cache.rglob("*.part"))
    assert not (cache / "fra-eng" / "fra.txt").exists()


def test_no_network_gives_a_clear_error(tmp_path):
    def offline(url, dest):
        raise urllib.error.URLError("Name or service not known")

    with pytest.raises(ConnectionError, match="could not download.*TranslationConfig"):
        download_fra_eng(cache=tmp_path, fetch=offline)


def test_zip_without_fra_txt_is_rejected(tmp_path):
    source = tmp_path / "other.zip"
    sha1 = make_zip(source, member="something/else.txt")
    with pytest.raises(ValueError, match="does not contain fra-eng/fra.txt"):
        download_fra_eng(cache=tmp_path / "c", url=source.as_uri(), sha1=sha1)


def test_cache_dir_follows_environment(tmp_path, monkeypatch):
    monkeypatch.setenv("LAB_CACHE_DIR", str(tmp_path / "here"))
    assert cache_dir() == tmp_path / "here"
    monkeypatch.delenv("LAB_CACHE_DIR")
    monkeypatch.setenv("HOME", str(tmp_path))
    assert cache_dir() == tmp_path / ".cache" / "transformer_lab"


def test_corpus_pairs_uses_tatoeba_when_it_downloads_and_caches_it(tmp_path, monkeypatch):
    from transformer_lab.tasks.tatoeba import corpus_pairs

    source = tmp_path / "served.zip"
    monkeypatch.setenv("LAB_TATOEBA_URL", source.as_uri())
    monkeypatch.setenv("LAB_TATOEBA_SHA1", make_zip(source))
    pairs, used = corpus_pairs("tatoeba", cache=tmp_path / "cache")
    assert used == "tatoeba" and pairs[:2] == [("Go.", "Va\u202f!"), ("Hi.", "Salut\u202f!")]
    source.unlink()  # the second call reads the cache: no download needed
    assert corpus_pairs("tatoeba", cache=tmp_path / "cache") == (pairs, "tatoeba")


@pytest.mark.parametrize("bad", ["missing", "checksum"])
def test_corpus_pairs_falls_back_to_the_bundled_corpus(tmp_path, monkeypatch, bad):
    from transformer_lab.tasks.tatoeba import corpus_pairs

    source = tmp_path / "served.zip"
    sha1 = make_zip(source)
    if bad == "missing":
        source.unlink()  # no network / nothing there
    monkeypatch.setenv("LAB_TATOEBA_URL", source.as_uri())
    monkeypatch.setenv("LAB_TATOEBA_SHA1", "0" * 40 if bad == "checksum" else sha1)
    pairs, used = corpus_pairs("tatoeba", cache=tmp_path / "cache")
    bundled, name = corpus_pairs("bundled")
    assert name == "bundled" and pairs == bundled
    assert used.startswith("bundled (Tatoeba unavailable")
    assert not (tmp_path / "cache" / "fra-eng.zip").exists()  # a bad download is not kept
