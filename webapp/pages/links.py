"""Lesson links in the page: each playground tab registers its controls, gets a "Copy link to
this setup" row, and app.py applies an opened link once on load (webapp.services.link_query checks it)."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlsplit

import gradio as gr

from webapp.i18n import error_text
from webapp.pages.common import lang_of, t, tr
from webapp.services.link_query import (
    Choice,
    Field,
    Flag,
    Link,
    LinkError,
    Range,
    Text,
    decode,
    encode,
)
from webapp.views.markdown import md_literal

__all__ = ["Choice", "Flag", "LessonLinks", "Range", "Text", "copy_row", "divisible", "refusal"]

# The button sends the page's own address as its last input: the link keeps the host and path
# the learner sees (a Space's iframe, a proxy's prefix) and this page's hide/lock.
WITH_URL = "(...a) => { a[a.length - 1] = window.location.href; return a; }"
# The link goes to the clipboard (where the browser allows it) and to the address bar, so a
# reload keeps the setup too.
TO_CLIPBOARD = """(url) => {
  if (!url || !/^https?:/.test(url)) return;
  try { window.history.replaceState(null, '', url); } catch (e) {}
  try { navigator.clipboard.writeText(url).catch(() => {}); } catch (e) {}
}"""


@dataclass
class Page:
    """One tab's part in the links: its controls by link name, their fields and first values."""

    tab: str
    controls: dict[str, Any]
    fields: dict[str, Field]
    defaults: dict[str, Any]
    changers: dict[Any, tuple[str, ...]] = field(default_factory=dict)
    note: Callable[[dict, str], str] | None = None
    adjust: Callable[[dict], dict[str, dict]] | None = None
    # why the values cannot run together, in the page's language (None: they can)
    check: Callable[[dict, str], str | None] | None = None
    root: Any = None  # the Blocks being built when the tab registered


# The notice is Markdown: it says only our catalogue's words and names of our own controls, and
# those only in this alphabet (a name is never taken from the link's text, red team: an unknown
# key "[Sign in](//ev.il/)" was a phishing link in the notice).
SAFE_NAME = re.compile(r"[a-z][a-z0-9_]{0,31}")
LINK_ICON = Path(__file__).resolve().parent / "icons" / "link.svg"


def field_of(component: Any) -> Field:
    """The link field a control's own choices or range give (radio, dropdown, tickbox, slider)."""
    if isinstance(component, gr.Checkbox):
        return Flag()
    if isinstance(component, gr.Radio | gr.Dropdown):
        return Choice(tuple(str(c[1] if isinstance(c, tuple) else c) for c in component.choices))
    if isinstance(component, gr.Slider):
        step = float(component.step or 1)
        whole = step.is_integer() and float(component.minimum).is_integer()
        return Range(float(component.minimum), float(component.maximum), step, integer=whole)
    raise TypeError(f"give {type(component).__name__} its link field (Range or Text)")


@dataclass(frozen=True)
class CopyRow:
    """The "Copy link to this setup" button and the box its link appears in."""

    button: Any
    box: Any


def copy_row(tab: str) -> CopyRow:
    """Lay out ``tab``'s copy row here (register() wires it once every control exists)."""
    with gr.Row(elem_id=f"link-row-{tab}", equal_height=True):
        # An SVG icon, not an emoji: where the font has no 🔗 it drew an empty box. Served from
        # its own folder: a copy in Gradio's cache is deleted with the uploads (delete_cache),
        # and the icon was gone after 10 minutes (a full test run's shared app).
        gr.set_static_paths([str(LINK_ICON.parent)])
        button = gr.Button(t("link.copy"), icon=str(LINK_ICON), elem_id=f"link-copy-{tab}",
                           size="sm", scale=0, min_width=200)
        # shown once there is a link in it: an empty box on every tab would only be clutter
        box = gr.Textbox(label=t("link.box"), elem_id=f"link-box-{tab}", interactive=False,
                         buttons=["copy"], max_lines=2, scale=4, visible=False)
    return CopyRow(button, box)


def divisible(width: str, heads: str, when: Callable[[dict], bool] | None = None,
              ) -> Callable[[dict, str], str | None]:
    """A ``check`` for a tab whose width control ``width`` is split over ``heads`` heads: the
    library's own sentence when it does not divide (it could not run); only where ``when``
    says the two are used (a trained model's own heads ignore them)."""
    def check(values: dict, lang: str) -> str | None:
        d, h = values.get(width), values.get(heads)
        if when is not None and not when(values):
            return None
        if not isinstance(d, int) or not isinstance(h, int) or h < 1 or d % h == 0:
            return None
        return error_text("heads_not_divisor", lang, {"d_model": d, "heads": h})

    return check


def make_link(page: Page, values: dict, url: str, lang: str) -> str:
    """The link to ``page`` with ``values`` on the address ``url`` (keeping its hide and lock for
    this tab), or a sentence naming the controls that hold no valid value yet."""
    bad = []
    for name, fld in page.fields.items():
        try:
            fld.parse(fld.show(values[name]))
        except (LinkError, TypeError, ValueError):
            bad.append(name)
    if bad:
        return tr("link.fix_first", lang, names=", ".join(bad))
    parts = urlsplit(str(url or ""))
    hide: tuple[str, ...] = ()
    lock: tuple[str, ...] = ()
    try:
        current = decode(dict(parse_qsl(parts.query)), {page.tab: page.fields})
    except LinkError:
        current = None
    if current is not None and current.tab == page.tab:
        hide, lock = current.hide, current.lock
    query = encode(page.tab, page.fields, values, hide, lock)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        return "?" + query
    return f"{parts.scheme}://{parts.netloc}{parts.path or '/'}?{query}"


def _own(spec: Mapping[str, Field], names: Any) -> list[str]:
    """Those of our own names (``spec``'s, then hide and lock) that ``names`` holds, our own
    strings in our order, each in SAFE_NAME's alphabet: never a string of the link's."""
    wanted = {n for n in names if isinstance(n, str)} if names else set()
    return [n for n in (*spec, "hide", "lock") if n in wanted and SAFE_NAME.fullmatch(n)]


def _inert(name: str) -> str:
    """One of our own names as Markdown that shows just itself (d_model, not d<em>model)."""
    return md_literal(name)


def refusal(err: LinkError, specs: Mapping[str, Mapping[str, Field]], lang: str) -> str:
    """The notice for a link that could not be read: our catalogue's words and, at most, the
    name of one of the tab's own controls. Nothing of the link's own text (a key this tab does
    not have, a bad value) is said: it would be Markdown in an attacker's words."""
    spec = specs.get(err.tab) if isinstance(err.tab, str) else None
    if spec is None or err.key is None:
        return tr("link.invalid", lang)
    named = _own(spec, (err.key,))
    if named:
        return tr("link.invalid_key", lang, name=_inert(named[0]))
    return tr("link.invalid_unknown", lang)  # a key this tab does not have: not repeated


def _updates(page: Page, link: Link | None) -> list:
    """The page's control updates (then its changers') for ``link`` (None: nothing changes)."""
    n = len(page.controls) + len(page.changers)
    if link is None or link.tab != page.tab:
        return [gr.skip()] * n
    extra = page.adjust({**page.defaults, **link.values}) if page.adjust else {}
    out = []
    for name in page.controls:
        kwargs = dict(extra.get(name, {}))
        if name in link.values:
            kwargs["value"] = link.values[name]
        if name in link.hide:
            kwargs["visible"] = False
        if name in link.lock:
            kwargs["interactive"] = False
        out.append(gr.update(**kwargs) if kwargs else gr.skip())
    for names in page.changers.values():
        out.append(gr.update(interactive=False) if set(names) <= set(link.lock) else gr.skip())
    return out


class LessonLinks:
    """One app's lesson links: the tabs register their controls while the app is built
    (``register``), app.py connects them to its Blocks once (``connect``), and the tabs' events
    read the opened link through it (``locked``, ``opened_values``). app.py makes one and hands
    it to each playground tab's build()."""

    def __init__(self) -> None:
        self._pending: list[Page] = []  # registered while the app is built; connect() takes them
        self._specs: dict[str, dict[str, Field]] = {}  # the connected app's tabs

    def register(self, tab: str, controls: Mapping[str, Any], row: CopyRow | None = None,
                 changers: Mapping[Any, tuple[str, ...]] | None = None,
                 note: Callable[[dict, str], str] | None = None,
                 adjust: Callable[[dict], dict[str, dict]] | None = None,
                 check: Callable[[dict, str], str | None] | None = None) -> None:
        """Make ``controls`` (link name → component, or (component, field) where the component has
        no choices or range of its own: a number box, a text box) the state of ``tab``'s links, and
        wire its copy ``row`` (laid out here when not given). ``changers``: buttons that rewrite some
        controls (locked with them); ``note(values, lang)``: a line to show when a link opens this
        tab; ``adjust(values)``: more update fields per control (a radio whose choices follow another);
        ``check(values, lang)``: why the values cannot run together (d_model not divisible by
        heads), or None. A link whose values fail it is refused when it locks any control (the
        learner could not fix it: like an unreadable link, the tab opens with its defaults and
        one sentence); an unlocked one opens with a note saying what to change."""
        comps, fields = {}, {}
        for name, item in controls.items():
            comp, fld = item if isinstance(item, tuple) else (item, field_of(item))
            comps[name], fields[name] = comp, fld
            if comp.elem_id is None:  # every linked control findable as #tab-name (tests, teachers' css)
                comp.elem_id = f"{tab}-{name}"
        page = Page(tab, comps, fields, {n: c.value for n, c in comps.items()}, dict(changers or {}),
                    note, adjust, check)
        row = row or copy_row(tab)
        here = gr.Textbox(visible=False)  # the page's address (WITH_URL)

        def on_copy(request: gr.Request, *args):  # gradio puts the request first, then the inputs
            *values, url = args
            link = make_link(page, dict(zip(comps, values, strict=True)), url, lang_of(request))
            return gr.update(value=link, visible=True)

        row.button.click(on_copy, [*comps.values(), here], [row.box], js=WITH_URL,
                         api_visibility="private", queue=False, show_progress="hidden").then(
            None, [row.box], None, js=TO_CLIPBOARD, api_visibility="private", queue=False)
        page.root = gr.context.Context.root_block
        self._pending.append(page)

    def specs(self) -> dict[str, dict[str, Field]]:
        """The connected app's tabs and their controls' link fields (link name → field)."""
        return {tab: dict(fields) for tab, fields in self._specs.items()}


    def locked(self, request: gr.Request | None, tab: str, name: str) -> bool:
        """Whether the page's link locks control ``name`` of ``tab`` (for an event that would make it
        live again, e.g. basics' √d tickbox when the scoring changes)."""
        try:
            link = decode(dict(getattr(request, "query_params", None) or {}), self._specs)
        except LinkError:
            return False
        return link is not None and link.tab == tab and name in link.lock


    def opened_values(self, request: gr.Request | None, tab: str) -> dict[str, Any]:
        """The values the page's link gives ``tab`` (empty when it has no link there, or one that
        cannot be read): for a tab's first computation, which runs beside the link's own update
        and so cannot read the controls it sets (the Train page's untrained preview showed 4
        heads for a link of 2)."""
        try:
            link = decode(dict(getattr(request, "query_params", None) or {}), self._specs)
        except LinkError:
            return {}
        return dict(link.values) if link is not None and link.tab == tab else {}

    def connect(self, blocks: gr.Blocks, tabs: gr.Tabs, notice: gr.Markdown) -> None:
        """Apply an opened link once on load: select its tab, set, hide and lock its controls, and
        say in ``notice`` when a link could not be read (the page then opens as usual)."""
        # Only this app's tabs: a Blocks built before (a test's own page) and never connected must
        # not lend its components to this one's load event (they are not in its config).
        pages = [p for p in self._pending if p.root is blocks]
        self._pending.clear()
        specs = {p.tab: p.fields for p in pages}
        self._specs = specs
        outputs = [tabs, notice]
        for p in pages:
            outputs += [*p.controls.values(), *p.changers]

        def apply(request: gr.Request):
            lang = lang_of(request)
            try:
                link = decode(dict(request.query_params or {}), specs)
            except LinkError as err:  # the link's own tab (when valid), with its defaults
                said = refusal(err, specs, lang)
                return [gr.Tabs(selected=err.tab) if err.tab else gr.skip(),
                        gr.update(value=said, visible=True),
                        *[u for p in pages for u in _updates(p, None)]]
            if link is None:
                return [gr.skip()] * len(outputs)
            page = next(p for p in pages if p.tab == link.tab)
            why = page.check({**page.defaults, **link.values}, lang) if page.check else None
            why = why.rstrip("。. ") if why else why  # a clause inside the notice's brackets
            if why and link.lock:  # locked: the learner could not make it run
                return [gr.Tabs(selected=link.tab),
                        gr.update(value=tr("link.cannot_run", lang, why=why), visible=True),
                        *[u for p in pages for u in _updates(p, None)]]
            shown = [n for n in page.fields if n not in link.hide]
            if link.lock and set(shown) <= set(link.lock):
                lines = [tr("link.locked", lang)]
            else:
                names = ", ".join(_inert(n) for n in _own(page.fields, link.lock))
                lines = [tr("link.locked_some", lang, names=names)] if names else []
            if why:
                lines.append(tr("link.cannot_run_open", lang, why=why))
            if page.note is not None:
                lines.append(page.note({**page.defaults, **link.values}, lang))
            text = "\n\n".join(x for x in lines if x)
            return [gr.Tabs(selected=link.tab),
                    gr.update(value=text, visible=True) if text else gr.skip(),
                    *[u for p in pages for u in _updates(p, link)]]

        # Not queued: reading a link is cheap and bounded (decode's limits), and a page's first
        # computations queue in the play pool on load; behind them (a class opening the same link,
        # a loaded host) the notice and the link's values waited past 30 s in full test runs.
        blocks.load(apply, None, outputs, api_visibility="private", show_progress="hidden",
                    queue=False)
