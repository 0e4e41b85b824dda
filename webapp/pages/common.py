"""Shared pieces of the pages: gr.I18n over the catalogue, the request's language, friendly errors."""

from __future__ import annotations

import functools
import logging

import gradio as gr

from transformer_lab.message import LabError
from webapp.i18n import EN, ZH, error_text, tr
from webapp.i18n import lang_of as i18n_lang_of

# "zh-CN" is the locale Gradio's frontend picks for a Simplified Chinese browser.
__all__ = ["I18N", "friendly", "lang_of", "message", "quiet", "t", "tr", "warn"]

I18N = gr.I18n(en=EN, **{"zh-CN": ZH})
t = I18N

log = logging.getLogger("transformer_lab.app")


def lang_of(request: gr.Request | None) -> str:
    """'zh' when the browser's first language is Chinese, else 'en' (figures are drawn server-side)."""
    return i18n_lang_of(request)


def _find_request(args, kwargs) -> gr.Request | None:
    for value in list(args) + list(kwargs.values()):
        if isinstance(value, gr.Request):
            return value
    return None


def message(err: Exception, lang: str) -> str:
    """The in-page text for a learner's input error, in the page's language: a keyed error
    (LabError.key) from the catalogue's ``error.<key>`` with its fields; one that carries both
    languages (LabError(Message), Refused) as it is; any other error's own English
    text, or on a Chinese page the catalogue's generic sentence (no English is parsed back)."""
    text = None
    if isinstance(err, LabError) and err.key:
        text = error_text(err.key, lang, err.fields)
    bilingual = getattr(err, "message", None)
    if text is None and isinstance(bilingual, dict) and bilingual.get(lang):
        text = bilingual[lang]
    if text is None:
        text = tr("error.unkeyed", lang) if lang == "zh" else str(err)
    return "⚠️ " + tr("input.check", lang, text=text)


def warn(text: str, lang: str) -> None:
    """A toast whose title is in the page's language too. Gradio draws the toast's own icon, so
    the status line's leading ⚠️ is left out."""
    gr.Warning(text.removeprefix("⚠️").lstrip(), title=tr("toast", lang))


def kept_note(text: str, lang: str) -> str:
    """``text`` as a finished sentence, then the note that the outputs are the last good ones
    (Chinese: a full-width stop, and no space after it)."""
    text = text.rstrip()
    if lang == "zh":
        done = text.endswith(("。", "！", "？", "。）"))
        return (text if done else text + "。") + tr("error.kept", lang)
    done = text.endswith((".", "!", "?", ".)"))
    return (text if done else text + ".") + " " + tr("error.kept", lang)


def quiet(n_outputs: int):
    """Like friendly, for live events (every keystroke): the message goes to the page's status
    line only, without a toast, since a half-typed matrix is not a mistake yet."""
    return friendly(n_outputs, toast=False)


def friendly(n_outputs: int, toast: bool = True):
    """Turn ValueError/TypeError into a toast plus a message in the last output (a Markdown).

    The other outputs keep their values (gr.skip()), so a typo never blanks the page. Any other
    exception is logged and shown as a short generic message: never a stack trace.
    """

    def wrap(fn):
        @functools.wraps(fn)
        def inner(*args, **kwargs):
            lang = lang_of(_find_request(args, kwargs))
            try:
                return fn(*args, **kwargs)
            except (ValueError, TypeError) as err:
                text = message(err, lang)
                if n_outputs > 1:  # the other outputs keep their values: say they are stale
                    text = kept_note(text, lang)
            except Exception:  # noqa: BLE001 - the page must stay alive
                log.exception("callback %s failed", fn.__name__)
                text = tr("error.generic", lang)
            if toast:
                warn(text, lang)
            return (*[gr.skip()] * (n_outputs - 1), text)

        return inner

    return wrap
