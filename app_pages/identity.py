"""Who is submitting: Hugging Face sign-in on a Space with OAuth, else a name kept in the browser."""

from __future__ import annotations

import os
from dataclasses import dataclass

import gradio as gr

from app_support.gradebook_glue import learner_name
from grader.gradebook import ANONYMOUS, SubmissionRejected

from .common import lang_of, t
from .gradebook_text import say

STORAGE_KEY = "transformer-lab-learner"


def oauth_available() -> bool:
    """True on a Space with `hf_oauth: true` (it sets SPACE_ID and OAUTH_CLIENT_ID).

    Elsewhere gr.LoginButton would make Gradio mock a login with the machine's HF token and
    fail at start-up without one, so the button is only offered where it really signs in.
    """
    return bool(os.environ.get("SPACE_ID") and os.environ.get("OAUTH_CLIENT_ID"))


@dataclass
class Identity:
    """The components that say who is submitting; pass `name` as an input to any event."""

    stored: gr.BrowserState  # the typed display name, kept in the browser's localStorage
    name: gr.Textbox
    status: gr.Markdown
    login: gr.LoginButton | None


CURRENT: Identity | None = None  # the latest build(): other pages wire their events to it


def resolve(typed: str | None, profile: gr.OAuthProfile | None) -> tuple[str | None, bool]:
    """(name as given, signed in?): the HF username when signed in, else the typed name."""
    username = getattr(profile, "username", None) if profile is not None else None
    if username:
        return str(username), True
    return (typed or None), False


def stored_learner(typed: str | None, profile: gr.OAuthProfile | None) -> str:
    """The gradebook name of this visitor ("anonymous" when none); ValueError for an odd name."""
    name, signed_in = resolve(typed, profile)
    try:
        return learner_name(name, signed_in)
    except SubmissionRejected as err:
        raise ValueError(err.message["en"]) from None


def describe(typed: str | None, profile: gr.OAuthProfile | None, lang: str) -> str:
    """One line saying under which name submissions are stored (or why the name is refused)."""
    name, signed_in = resolve(typed, profile)
    try:
        who = learner_name(name, signed_in)
    except SubmissionRejected as err:
        return "⚠️ " + err.message["zh" if lang == "zh" else "en"]
    if who == ANONYMOUS:
        return say("who.anonymous", lang)
    return say("who.signed_in" if signed_in else "who.guest", lang, name=who)


def build() -> Identity:
    """A row with the sign-in button (Spaces with OAuth) and the display-name box."""
    global CURRENT
    with gr.Row(equal_height=True):
        login = gr.LoginButton(scale=1) if oauth_available() else None
        name = gr.Textbox(label=t("who.name"), placeholder=t("who.placeholder"), max_length=64,
                          scale=2, elem_id="who-name")  # fmt: skip
        status = gr.Markdown(t("who.anonymous"), elem_id="who-status")
    stored = gr.BrowserState("", storage_key=STORAGE_KEY)

    def on_load(saved, request: gr.Request, profile: gr.OAuthProfile | None):
        if not saved and profile is None:  # nothing to restore: never clobber what is typed
            return gr.skip(), gr.skip()
        return (saved or gr.skip()), describe(saved, profile, lang_of(request))

    def on_name(typed, request: gr.Request, profile: gr.OAuthProfile | None):
        # Keep what was typed even when refused: the status line says what to change.
        return typed, describe(typed, profile, lang_of(request))

    ui = dict(api_visibility="private")
    root = gr.context.Context.root_block
    if root is not None:
        root.load(on_load, [stored], [name, status], **ui)
    # On blur / Enter, not each keystroke; events read the textbox itself, so there is no race.
    gr.on([name.blur, name.submit], on_name, [name], [stored, status], **ui)
    CURRENT = Identity(stored=stored, name=name, status=status, login=login)
    return CURRENT
