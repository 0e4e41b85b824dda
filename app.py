"""Transformer Lab's Gradio app: playground pages and exercises; `import app` gives `app.demo`."""

from __future__ import annotations

import logging
import threading

import gradio as gr

from webapp.lab import Lab
from webapp.pages import (
    basics,
    complexity,
    exercises,
    frontend_text,
    instructor,
    links,
    multihead,
    pooling,
    positional,
    progress,
    sign_in,
)
from webapp.pages.common import I18N, t, tr
from webapp.pages.style import CSS
from webapp.serving import gradio_patch
from webapp.settings import AppSettings
from webapp.train import page as train

log = logging.getLogger("transformer_lab.app")

# Separate queue pools: a long training run never holds a slot that grading or the playground needs.
# "submit" (Submit, Run examples and the `grade` API) and "train" are as wide as the serving
# wing's lines are long (ServingSettings.pools): each event only waits in its line
# (webapp.serving.turns), which shows its position and ETA and gives the workers out fairly
# by address and learner; a narrower pool left the rest in Gradio's own first-come queue.
# "measure" (the complexity benchmark) takes the CPU for seconds: one at a time.
# A waiting event costs one thread blocked on an event; the line refuses before the pool fills.
# Every LAB_* variable, read once here (webapp/settings.py) and handed to its consumers; a bad
# value stops the app with the variable's name. Reading opens nothing: `import app` opens no
# database (the wing's limits open on first use).
APP_SETTINGS = AppSettings.from_env()
SETTINGS = APP_SETTINGS.serving  # the serving wing's part
# The app's parts, made here once and handed to the pages (webapp/lab.py): the serving wing,
# the submitter and gradebook, the run cache, the Train sessions, the exports. Nothing opens yet.
LAB = Lab(APP_SETTINGS)
LINKS = links.LessonLinks()  # the playground tabs' lesson links (webapp/pages/links.py)
POOLS = SETTINGS.pools()


# Toasts live outside the app's container, where Gradio's prefixing of `css` rules inside @media
# would never reach them: this sheet goes into the page's <head> as it is.
TOAST_HEAD = """<style>
/* Gradio groups toasts by kind and lists every message, expanded: a burst of warnings covered a
   third of a phone and stacked three boxes on a desktop. Show the newest message only (the group
   header keeps the count; the pages' status lines keep the whole text), on a phone in at most
   three lines. */
.toast-messages > :not(:last-child) { display: none !important; }
@media (max-width: 640px) {
  .toast-message-text { display: -webkit-box; -webkit-box-orient: vertical; -webkit-line-clamp: 3;
                        line-clamp: 3; overflow: hidden; }
  .toast-wrap { max-height: 25vh; overflow: hidden; }
}
</style>"""


def toast_titles_css() -> str:
    """Gradio 6.31 heads a toast group with its kind in English ("Warning (3)") and ignores
    gr.Warning's title; on a Chinese page the catalogue's title is drawn in its place."""
    rules = []
    for kind, key in (("warning", "toast.kind.warning"), ("error", "common.error")):
        rules.append(f'html:lang(zh) .toast-title.{kind} {{ font-size: 0; }}\n'
                     f'html:lang(zh) .toast-title.{kind}::before {{ content: "{tr(key, "zh")} "; '
                     'font-size: var(--text-md); }\n'
                     f'html:lang(zh) .toast-title.{kind} .toast-count {{ font-size: var(--text-md); }}')
    return "\n".join(rules)


# The playground's tabs, in display order: each page's build() needs nothing from the others.
PLAYGROUND = [("tab.basics", basics), ("tab.pooling", pooling), ("tab.multihead", multihead),
              ("tab.positional", positional), ("tab.train", train),
              ("tab.complexity", complexity)]


def build_demo() -> gr.Blocks:
    """The whole app: a title and one tab per page. Nothing heavy runs here."""
    with gr.Blocks(title="Transformer Lab") as blocks:
        gr.Markdown(t("app.title"), elem_id="tl-title")
        link_notice = gr.Markdown(elem_id="link-notice", elem_classes=["tl-status"])  # lesson links
        # Gradio 6.31 still writes a "hidden" event's progress ("queue: 1/1 | 0.2s", in English)
        # into every output at opacity 0, where screen readers and innerText read it: such
        # events show it on this hidden input instead (below).
        sink = gr.Number(0, visible=False, elem_id="tl-progress-sink")
        # who is submitting: handed to Exercises, Progress, Instructor (a class link joins here)
        who = sign_in.build(LAB, link_notice)
        # Train writes each browser's last run and stop flag, Multi-head reads them, unload drops them
        s = SETTINGS  # every serving setting, read once
        blocks.train_sessions = sessions = LAB.sessions
        gradio_patch.attach(blocks, sessions, s)  # a closed tab gives its models and runs back at once
        gradio_patch.clamp_sliders()  # a typed number past a slider's end is that end
        with gr.Tabs(overflow_behavior="wrap") as tabs:  # a phone shows every tab, on rows
            for key, page in PLAYGROUND:
                with gr.Tab(t(key), id=key.split(".")[1]) as tab:
                    if page is multihead:  # it shows the Train page's last run; reads its tab
                        page.build(LINKS, sessions, tab)
                    elif page is train:
                        page.build(LAB, LINKS)
                    else:
                        page.build(LINKS)
            with gr.Tab(t("tab.exercises"), id="exercises"):
                editor = exercises.build(LAB, who)
            with gr.Tab(t("tab.progress"), id="progress") as progress_tab:
                mine = progress.build(LAB, who, progress_tab)  # fresh tables each time it is opened
            with gr.Tab(t("tab.instructor"), id="instructor") as instructor_tab:
                instructor.build(LAB, who, instructor_tab)  # opening it redraws the class view
        progress.connect_editor(LAB, mine, editor, tabs=tabs)
        LINKS.connect(blocks, tabs, link_notice)  # a lesson link's tab and settings, on load
    # Every event names its pool; the limit is the pool's, whatever event comes first.
    gradio_patch.assign_pools(blocks, POOLS, sink, default="play")
    blocks.queue(max_size=s.queue_max, default_concurrency_limit=POOLS["play"])
    # One client cannot fill the queue for everyone (red team N5); a lecture hall still fits.
    # The wing is looked up per request: building the page opens none of its databases.
    gradio_patch.guard_blocks(blocks, s.queue_per_address, s.queue_per_session,
                              lambda request: LAB.serving.client_of(request).address)
    return blocks


demo = build_demo()


def warm_up() -> None:
    """Import torch and the library off the request path, so the first click is quick."""
    import torch

    from transformer_lab.threads import default_threads

    # The thread policy (transformer_lab/threads.py): 1 on a 2-vCPU Space, so the other core
    # stays free for grading, and a single-threaded parent forks the grader's workers safely.
    torch.set_num_threads(APP_SETTINGS.library.torch_threads or default_threads({}))
    import webapp.compute.basics  # noqa: F401
    import webapp.compute.explore  # noqa: F401
    from webapp.services.run_cache import library_version

    library_version()  # the run cache's key describes the code loaded now, not later edits
    from grader import api
    from webapp.services.hidden_tests import ensure_hidden_tests

    ensure_hidden_tests()  # on a Space: hidden tests from a private dataset (LAB_HIDDEN_REPO)
    api.default_grader()  # starts the sandbox worker: it imports torch once, then is reused
    from webapp.serving.memory import freeze_startup_objects

    freeze_startup_objects()  # a full collection of start-up's objects held the event loop 210 ms
    if APP_SETTINGS.web.warm_run_cache:  # presets as cache hits (issue 12)
        from webapp.train.train_queue import warm_presets

        threading.Thread(target=warm_presets, name="warm-run-cache", daemon=True,
                         kwargs={"cache": LAB.run_cache(), "serving": LAB.serving}).start()


def launch(**kwargs) -> tuple:
    """demo.launch with the app's translations and footer; kwargs go to Gradio (port, ...)."""
    kwargs.setdefault("footer_links", ["api", "gradio", "settings"])
    # Each event of a pool may hold a thread (a run waiting its turn blocks in one): room for
    # every pool at once, plus Gradio's own work.
    kwargs.setdefault("max_threads", sum(POOLS.values()) + 16)
    # Chinese for the English of Gradio's and Plotly's own code (frontend_text.py)
    kwargs["head"] = TOAST_HEAD + frontend_text.head() + kwargs.get("head", "")
    # Only the serving wing reads X-Forwarded-For (LAB_FORWARDED_HOPS, LAB_TRUSTED_PROXIES):
    # uvicorn's own reading trusted any loopback peer (red team, issue 29, item 5).
    from webapp.serving.who import server_reads_no_forwarded_headers

    if (ignored := server_reads_no_forwarded_headers()) is not None:
        log.warning("FORWARDED_ALLOW_IPS=%r is ignored: set LAB_FORWARDED_HOPS and "
                    "LAB_TRUSTED_PROXIES instead", ignored)
    # Every request body is bounded before Gradio reads it: event calls (red team, issue 17,
    # A5), uploads per file and per client address, every other route (issue 29, item 9).
    from starlette.middleware import Middleware
    from starlette.requests import Request

    from webapp.serving.body_limit import ENVELOPE, BodyLimit, UploadBudget

    serving = LAB.serving
    s = serving.settings
    kwargs.setdefault("max_file_size", s.max_upload_bytes)  # Gradio's own check, per file
    # Gradio deletes uploaded files (and its copies of served ones) once this old (a
    # Blocks constructor argument, read when the server starts): uploads no longer pile up.
    demo.delete_cache = (max(1, int(min(60.0, s.upload_keep_s / 4))), int(s.upload_keep_s))
    demo.upload_budget = budget = UploadBudget(s.upload_bytes_per_address, s.upload_window_s)
    app_kwargs = dict(kwargs.pop("app_kwargs", None) or {})
    app_kwargs["middleware"] = [*app_kwargs.get("middleware", []), Middleware(
        BodyLimit, max_bytes=s.max_body_bytes, other_bytes=s.max_other_body_bytes,
        upload_bytes=s.max_upload_bytes + ENVELOPE, budget=budget,
        address_of=lambda scope: serving.client_of(Request(scope)).address)]
    kwargs["app_kwargs"] = app_kwargs
    # Finished results nobody reads are dropped after a while, a few per session (item 8).
    gradio_patch.drop_unread(demo, s.unread_keep_s, s.unread_per_session, s.unread_max)
    return demo.launch(i18n=I18N, css=CSS + toast_titles_css(), **kwargs)


def main() -> None:
    """Serve on GRADIO_SERVER_NAME:GRADIO_SERVER_PORT (Gradio reads them; 127.0.0.1:7860 by default)."""
    logging.basicConfig(level=logging.INFO)
    from grader.api import set_undumpable

    set_undumpable()  # before anything else: same-uid learner code must not read our /proc files
    launch(prevent_thread_lock=True)
    # Warm up only once the server answers: torch's import would otherwise compete with start-up.
    threading.Thread(target=warm_up, name="warm-up", daemon=True).start()
    demo.block_thread()


if __name__ == "__main__":
    main()
