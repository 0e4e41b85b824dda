"""The class list on the page: the teacher's paste box and join links (inside the Instructor
page, checked like its every other action), and a learner joining by opening their link
(sign_in.py calls :func:`join_from_link` on load). The rules are webapp.services.class_list's
and gradebook.roster's."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import gradio as gr
import pandas as pd

from gradebook import identity as ids
from webapp.lab import Lab
from webapp.pages.common import lang_of, t, tr, warn
from webapp.services import class_list
from webapp.serving.ratelimit import locked_message
from webapp.views import gradebook_lang
from webapp.views.markdown import md_literal

# The button sends the page's own address as its last input: the links carry the host and
# path the teacher sees (a Space's, a proxy's prefix).
WITH_URL = "(...a) => { a[a.length - 1] = window.location.href; return a; }"
Authorize = Callable[..., tuple[str | None, str]]  # instructor.authorize


def join_from_link(lab: Lab, key: str | None, query: Any, lang: str) -> tuple[str | None, str | None]:
    """On load: ``(member name, notice)`` when the page was opened with ``?join=<code>``,
    ``(None, notice)`` for a code that is not (or no longer) a member's, ``(None, None)`` for
    no join link. Wrong codes are counted per browser like recovery codes."""
    code = dict(query or {}).get(class_list.JOIN_KEY)
    if not code:
        return None, None
    if not ids.valid_browser_key(key):
        return None, tr("recovery.no_key", lang)
    book = lab.submitter.book
    found: list[str] = []
    before = member_name(lab, key)  # this browser's name on the list until now, if any

    def verify() -> bool:
        member = class_list.join(book, str(key), str(code)[:100])
        found.extend([member.name] if member else [])
        return member is not None

    ok, wait = lab.serving.recovery_tries.attempt(
        f"recovery:{ids.key_hash(str(key))[:24]}", verify)
    if ok:
        if before and before != found[0]:  # a shared computer, or a classmate's link: say so
            return found[0], tr("join.switched", lang, old=md_literal(before),
                                name=md_literal(found[0]))
        return found[0], tr("join.ok", lang, name=md_literal(found[0]))
    if wait > 0:
        return None, "⚠️ " + locked_message(wait)["zh" if lang == "zh" else "en"]
    if before:  # still the member it was: not "work here as a guest"
        return None, tr("join.bad_member", lang, name=md_literal(before))
    return None, tr("join.bad", lang)


def member_name(lab: Lab, key: str | None) -> str | None:
    """The class-list name this browser joined as, or None."""
    if not ids.valid_browser_key(key):
        return None
    book = lab.submitter.book
    return book.member_name(book.linked_learner(ids.key_hash(str(key))))


def problems_text(problems: list[class_list.Problem], lang: str) -> list[str]:
    """Each problem of a paste as one line in ``lang``."""
    out = []
    for p in problems:
        why = p.message["zh" if lang == "zh" else "en"] if p.message else tr(p.key, lang, **p.fields)
        out.append("⚠️ " + (tr("roster.line", lang, line=p.line, why=why) if p.line else why))
    return out


def roster_frame(members: list, page_url: str | None, lang: str) -> pd.DataFrame:
    """Everyone on the list: name, browsers joined, link."""
    return pd.DataFrame(
        [(m.name, m.browsers, class_list.join_link(page_url, m.code)) for m in members],
        columns=[tr(k, lang) for k in ("roster.col.name", "roster.col.browsers",
                                       "roster.col.link")])


def build(lab: Lab, authorize: Authorize, password: gr.Textbox, key: gr.BrowserState) -> Any:
    """The class list's part of the Instructor page (an accordion, folded); returns the add
    event, after which the page redraws its class view (the new names' rows)."""
    with gr.Accordion(t("roster.title"), open=False, elem_id="roster-box"):
        gr.Markdown(t("roster.help"))
        names = gr.Textbox(label=t("roster.names"), lines=6, max_length=class_list.MAX_TEXT_CHARS,
                           elem_id="roster-names")
        renew = gr.Checkbox(False, label=t("roster.renew"), elem_id="roster-renew")
        with gr.Row():
            add = gr.Button(t("roster.add"), variant="primary", elem_id="roster-add")
            show = gr.Button(t("roster.show"), elem_id="roster-show")
        status = gr.Markdown(elem_id="roster-status")
        links = gr.Textbox(label=t("roster.links"), lines=6, interactive=False, buttons=["copy"],
                           visible=False, elem_id="roster-links")
        table = gr.Dataframe(label=t("roster.table"), interactive=False, wrap=True,
                             visible=False, elem_id="roster-table")
        url = gr.Textbox(visible=False)

    def answer(pw, browser_key, request, profile, page_url, text=None, renew_them=False):
        lang = lang_of(request)
        address = lab.serving.client_of(request).address or "unknown"
        who, refusal = authorize(pw, profile, address, lang, browser_key)
        if who is None:
            warn(refusal, lang)
            return gr.update(value="", visible=False), gr.update(value=None, visible=False), refusal
        book = lab.submitter.book
        lines: list[str] = []
        if text is not None:
            names_in, problems = class_list.parse_names(text)
            issued, full = class_list.add(book, names_in, bool(renew_them))
            counts = {w: sum(i.what == w for i in issued) for w in ("added", "kept", "renewed")}
            book.log_access(who, "class list", gradebook_lang.access_text(
                "gb.detail.roster_names", f"{len(issued)} ({counts['renewed']} renewed)"))
            members = book.members()
            lines = problems_text(problems + full, lang)
            if issued:
                lines.insert(0, tr("roster.done", lang, total=len(members), **counts))
            shown = [i.member for i in issued]
        else:
            book.log_access(who, "view", "class list")
            members = shown = book.members()
            lines = [tr("roster.count", lang, total=len(members)) if members
                     else tr("roster.none_yet", lang)]
        return (gr.update(value=class_list.links_text(shown, page_url), visible=bool(shown)),
                gr.update(value=roster_frame(members, page_url, lang), visible=bool(members)),
                "\n\n".join(lines))

    def on_roster_add(pw, text, renew_them, browser_key, page_url, request: gr.Request,
               profile: gr.OAuthProfile | None):
        return answer(pw, browser_key, request, profile, page_url, text or "", renew_them)

    def on_roster_show(pw, browser_key, page_url, request: gr.Request, profile: gr.OAuthProfile | None):
        return answer(pw, browser_key, request, profile, page_url)

    # "undocumented" like the Instructor page's other events: every call is checked above.
    ui = dict(api_visibility="undocumented")
    added = add.click(on_roster_add, [password, names, renew, key, url], [links, table, status],
                      js=WITH_URL, api_name="instructor_class_list_add", **ui)
    show.click(on_roster_show, [password, key, url], [links, table, status], js=WITH_URL,
               api_name="instructor_class_list", **ui)
    return added
