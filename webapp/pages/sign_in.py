"""Who is submitting: a Hugging Face sign-in where offered, else a key owned by this browser.

Every browser gets a random key on its first visit, kept in its localStorage (gr.BrowserState);
history, progress and stored code belong to that key (or to the verified HF username), never
to the typed name, which is only a label. See gradebook/identity.py for the rules.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

import gradio as gr

from gradebook import ANONYMOUS, Claim, Learner, Refused
from gradebook import identity as ids
from webapp.i18n import tr
from webapp.lab import Lab
from webapp.pages.common import lang_of, t
from webapp.services import key_stamps
from webapp.serving.who import ClientKey
from webapp.settings import WebSettings

STORAGE_KEY = "transformer-lab-learner"  # the typed label
KEY_STORAGE_KEY = "transformer-lab-key"  # the browser's learner key
# gr.BrowserState encrypts in the browser with a key it sends to every page, so it hides
# nothing from the page's user; but a random one per process (Gradio's default) would make
# every browser forget its learner key whenever the app restarts. Hence a fixed one.
BROWSER_STATE_SECRET = WebSettings.read("browser_state_secret")


def oauth_available() -> bool:
    """True on a Space with `hf_oauth: true` (it sets SPACE_ID and OAUTH_CLIENT_ID).

    Elsewhere gr.LoginButton would make Gradio mock a login with the machine's HF token and
    fail at start-up without one, so the button is only offered where it really signs in.
    """
    return bool(os.environ.get("SPACE_ID") and os.environ.get("OAUTH_CLIENT_ID"))


@dataclass
class Identity:
    """The components that say who is submitting; pass `inputs()` to any event."""

    stored: gr.BrowserState  # the typed label, kept in the browser's localStorage
    key: gr.BrowserState  # this browser's learner key (secret; only its hash reaches the gradebook)
    name: gr.Textbox
    status: gr.Markdown
    login: gr.LoginButton | None
    # exercise id -> the learner's unsaved code, kept in this browser. Made here, outside the
    # tabs: a BrowserState inside a tab not yet shown is not read back from storage on load.
    drafts: gr.BrowserState | None = None
    # {"exercise": id}: the exercise this browser had open, so a reload returns to it
    place: gr.BrowserState | None = None

    def inputs(self) -> list:
        """[label box, browser key]: event inputs that become claim(typed, key, profile)."""
        return [self.name, self.key]


DRAFTS_KEY = "transformer-lab-drafts"  # localStorage key of the unsaved code per exercise
PLACE_KEY = "transformer-lab-place"  # localStorage key of the exercise last open


def username(profile: gr.OAuthProfile | None) -> str | None:
    """The verified HF username of a signed-in visitor (Gradio injects the profile), else None."""
    name = getattr(profile, "username", None) if profile is not None else None
    return str(name) if name else None


def key_for(lab: Lab, key: str | None, session: str | None,
            address: str | None = None) -> str | None:
    """This browser's key: the one it sent, else the one made for its page session (made now
    if needed, stamped for ``address``: webapp.services.key_stamps; the load event hands the
    same one to the browser to keep). The app's ``lab`` keeps the keys made per session."""
    if ids.valid_browser_key(key) or not session:
        return key if ids.valid_browser_key(key) else None
    return lab.session_keys.key(session, lambda: key_stamps.new_key(
        lab.submitter.book, allowance=lab.serving.key_stamps, address=address))


def claim(lab: Lab, typed: str | None, key: str | None, profile: gr.OAuthProfile | None,
          via_api: bool = False, session: str | None = None) -> Claim:
    """What this request says about its sender; Submitter.resolve_learner checks it.
    ``session``: the page session, so a click racing the first page load still gets a key."""
    if not via_api:
        key = key_for(lab, key, session)
    return Claim(typed=typed, browser_key=key or None, username=username(profile), via_api=via_api)


def learner(lab: Lab, typed: str | None, key: str | None, profile: gr.OAuthProfile | None,
            session: str | None = None) -> Learner:
    """The learner a browser event acts for; ValueError (English, then Chinese) when none."""
    try:
        return lab.submitter.resolve_learner(claim(lab, typed, key, profile, session=session))
    except Refused as err:
        raise ValueError(str(err)) from None


def client_of(lab: Lab, request: gr.Request | None) -> ClientKey:
    """Session and address of a request, as the serving wing reads them (only the
    X-Forwarded-For entry our own proxy appended is trusted: webapp.serving.who)."""
    return lab.serving.client_of(request)


def address_of(lab: Lab, request: gr.Request | None) -> str:
    """The client's address, for the per-address limits of passwords and recovery codes."""
    return client_of(lab, request).address or "unknown"


def describe(lab: Lab, typed: str | None, profile: gr.OAuthProfile | None, lang: str,
             key: str | None = None) -> str:
    """One line saying where this visitor's work is kept and under which label.

    A browser that joined the class list (``key``, linked by its class link) is that member
    whatever is typed; otherwise only the label is checked, so a name typed before the page's
    load event has made this browser's key gets its answer too.
    """
    user = username(profile)
    if user:
        return tr("who.signed_in", lang, name=user)
    from webapp.pages import class_list

    member = class_list.member_name(lab, key)
    if member:
        from webapp.views.markdown import md_literal

        return tr("who.member", lang, name=md_literal(member))
    try:
        label = ids.label_for(typed, ids.GUEST_SUFFIX, lab.submitter.signed_in_folds())
    except Refused as err:
        return "⚠️ " + err.message["zh" if lang == "zh" else "en"]
    if label == ANONYMOUS:
        return tr("who.anonymous", lang)
    from webapp.views.gradebook_lang import show_label

    return tr("who.guest", lang, name=show_label(label, lang))  # Chinese guest suffix in zh


def build(lab: Lab, notice: gr.Markdown | None = None) -> Identity:
    """A row with the sign-in button (Spaces with OAuth) and the label box; the browser key.
    The returned handle goes to the pages that submit or show a learner's work. ``notice``:
    where a class list's join link (``?join=``) says whether the browser joined."""
    with gr.Row(equal_height=True, elem_id="who-row"):  # stacked on phones (app.py CSS)
        login = gr.LoginButton(scale=1) if oauth_available() else None
        name = gr.Textbox(label=t("who.name"), placeholder=t("who.placeholder"), max_length=64,
                          scale=2, elem_id="who-name")
        status = gr.Markdown(t("who.loading"), elem_id="who-status")
    stored = gr.BrowserState("", storage_key=STORAGE_KEY, secret=BROWSER_STATE_SECRET)
    key = gr.BrowserState("", storage_key=KEY_STORAGE_KEY, secret=BROWSER_STATE_SECRET)

    def on_load(saved, key_now, typed, request: gr.Request):
        # First visit (or a key that is not ours): make one; the browser keeps it from now on.
        key_now = key_for(lab, key_now, getattr(request, "session_hash", None),
                          address_of(lab, request)) or ids.new_browser_key()
        # A class link joins this browser to its name on the class list, which is its label.
        from webapp.pages import class_list

        member, said = class_list.join_from_link(lab, key_now, getattr(request, "query_params", None),
                                                 lang_of(request))
        # Restore the saved label only into an empty box: never clobber what is being typed.
        name_now = member or (saved if saved and not typed else gr.skip())
        shown = gr.update(value=said, visible=True) if said else gr.skip()
        return (key_now, name_now, shown) if notice is not None else (key_now, name_now)

    def on_status(typed, key_now, request: gr.Request, profile: gr.OAuthProfile | None):
        # A name typed while the page loaded is kept too: its own blur/Enter event may not
        # have reached the browser yet when the page is closed or reloaded.
        key_now = key_for(lab, key_now, getattr(request, "session_hash", None))
        return (typed if typed else gr.skip()), describe(lab, typed, profile, lang_of(request), key_now)

    def on_name(typed, key_now, request: gr.Request, profile: gr.OAuthProfile | None):
        # Keep what was typed even when refused: the status line says what to change.
        key_now = key_for(lab, key_now, getattr(request, "session_hash", None))
        return typed, describe(lab, typed, profile, lang_of(request), key_now)

    ui = dict(api_visibility="private")
    root = gr.context.Context.root_block
    if root is not None:
        # The status is written after the load, from the box as it is *then*: a name typed
        # while the page was still loading must not be described as "no name given".
        # Not queued (both are cheap): behind the page's first computations in the play pool
        # the key reached localStorage only after 20 s in a full test run.
        shown = [notice] if notice is not None else []
        root.load(on_load, [stored, key, name], [key, name, *shown], queue=False, **ui).then(
            on_status, [name, key], [stored, status], queue=False, **ui)
    # On blur / Enter, not each keystroke; events read the textbox itself, so there is no race.
    gr.on([name.blur, name.submit], on_name, [name, key], [stored, status], **ui)
    drafts = gr.BrowserState({}, storage_key=DRAFTS_KEY, secret=BROWSER_STATE_SECRET)
    place = gr.BrowserState({}, storage_key=PLACE_KEY, secret=BROWSER_STATE_SECRET)
    return Identity(stored=stored, key=key, name=name, status=status, login=login, drafts=drafts,
                    place=place)
