"""Hidden tests on a public Space: fetch them from a private dataset repo at start-up."""

from __future__ import annotations

import os
import tempfile
import threading

from grader.api import GraderSettings
from webapp.settings import WebSettings

_LOCK = threading.Lock()
_DONE = False


def ensure_hidden_tests() -> str | None:
    """If LAB_HIDDEN_REPO names a private HF dataset and LAB_HIDDEN_DIR is unset, download it
    once (token: HF_TOKEN, a Space secret) and point LAB_HIDDEN_DIR at it. Returns the folder.

    A public Space shows its files to everyone, so hidden tests must not live in its repo. The
    grader's workers start with a scrubbed environment, so the token never reaches learner code.
    """
    global _DONE
    with _LOCK:
        repo = WebSettings.read("hidden_repo")
        chosen = GraderSettings.chosen("hidden_dir")  # a deployment's own folder wins
        if _DONE or not repo or chosen:
            _DONE = True
            return chosen
        from huggingface_hub import snapshot_download

        target = tempfile.mkdtemp(prefix="lab-hidden-")
        snapshot_download(repo_id=repo, repo_type="dataset", local_dir=target,
                          token=os.environ.get("HF_TOKEN"))
        GraderSettings.write("hidden_dir", target)  # the grader reads it from here on
        _DONE = True
        return target
