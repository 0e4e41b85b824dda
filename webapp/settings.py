"""Every ``LAB_*`` variable the web app reads, and ``AppSettings``: the whole product's settings.

``WebSettings`` declares the web app's own variables in the product's one form
(transformer_lab/settings.py); the serving wing's are ``webapp.serving.settings.ServingSettings``.
``AppSettings`` holds every package's settings object: app.py reads it once and hands each part
to its consumer; scripts/settings_table.py writes the README's Settings table from it. No gradio.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from gradebook.settings import GradebookSettings
from grader.api import GraderSettings
from transformer_lab.settings import (
    LibrarySettings,
    Parser,
    Settings,
    Var,
    is_one,
    number,
    setting,
    text,
)
from webapp.serving.settings import ServingSettings

RUN_CACHE_OFF = ("off", "0", "false", "no")


@dataclass(frozen=True)
class WebSettings(Settings):
    """The web app's own: the instructor view, exports, the run cache and the Train page.

    Also the browser's stored keys and where a Space fetches its hidden tests."""

    hidden_repo: str = setting(
        "LAB_HIDDEN_REPO", "", "a private Hugging Face dataset holding the hidden tests (a Space; "
        "token `HF_TOKEN`)", text("a dataset id, `owner/name`", strip=False), shown="unset")
    instructor_password: str = setting(
        "LAB_INSTRUCTOR_PASSWORD", "", "the instructor password, at least 12 characters",
        text("text (12 characters or more to open the view)", strip=False), shown="unset (view off)")
    instructors: str = setting(
        "LAB_INSTRUCTORS", "", "Hugging Face usernames allowed to the instructor view (a Space "
        "with sign-in)", text("usernames separated by commas or spaces"), shown="unset")
    instructor_trust_days: float = setting(
        "LAB_INSTRUCTOR_TRUST_DAYS", 90.0, "how long a browser or address that logged in keeps "
        "its own password allowance", number(float, 0))
    export_ttl_s: float = setting("LAB_EXPORT_TTL_S", 300.0,
                                  "seconds an instructor's CSV export is kept", number(float, 0))
    browser_state_secret: str = setting(
        "LAB_BROWSER_STATE_SECRET", "transformer-lab-browser-v1", "the key Gradio's BrowserState "
        "uses in the browser (hides nothing from the page's user; fixed so keys survive restarts)",
        text(strip=False), shown="a fixed string")
    run_cache: bool = setting(
        "LAB_RUN_CACHE", True, "`off` disables the run cache",
        Parser(lambda name, raw: raw.lower() not in RUN_CACHE_OFF,
               "`off` (or 0, false, no); anything else is on"), shown="on")
    run_cache_mb: float = setting("LAB_RUN_CACHE_MB", 256.0, "the run cache's size",
                                  number(float, 1e-9))
    run_cache_version: str = setting(
        "LAB_RUN_CACHE_VERSION", "", "the run cache's key version (pin it, e.g. to the deployed "
        "commit, when replicas share it)", text(), shown="the code's hash")
    warm_run_cache: bool = setting(
        "LAB_WARM_RUN_CACHE", False, "1 trains the Train presets at start, so they open as cache "
        "hits", is_one())
    corpus: str = setting(
        "LAB_CORPUS", "bundled", "the translation corpus: `bundled`, or `tatoeba` (downloaded "
        "once, checksum verified)", text("`bundled` or `tatoeba`"), shown="`bundled`")
    # A Space offers it whatever this says (webapp.train.api.tatoeba_offered)
    tatoeba: bool = setting(
        "LAB_TATOEBA", False, "1 offers the Tatoeba corpus on the Train page (the host has "
        "internet)", is_one(), shown="1 on a Space, else 0")


def _default(kind: type[Settings]) -> Settings:
    return field(default_factory=kind)


@dataclass(frozen=True)
class AppSettings:
    """Every package's settings, read once by app.py (``from_env``) and handed down."""

    library: LibrarySettings = _default(LibrarySettings)
    grader: GraderSettings = _default(GraderSettings)
    gradebook: GradebookSettings = _default(GradebookSettings)
    web: WebSettings = _default(WebSettings)
    serving: ServingSettings = _default(ServingSettings)

    PARTS = (LibrarySettings, GraderSettings, GradebookSettings, WebSettings, ServingSettings)

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> AppSettings:
        """Every variable, read now; ValueError naming the first one that is set badly."""
        return cls(*(part.from_env(env) for part in cls.PARTS))

    @classmethod
    def variables(cls) -> list[tuple[type[Settings], Var]]:
        """Every declared variable with the class that declares it, in the README's order."""
        return [(part, var) for part in cls.PARTS for var in part.variables().values()]
