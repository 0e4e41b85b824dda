"""A <head> script for what the frontends write themselves: Chinese for the English labels of
Gradio's own code and Plotly's modebar, and a slider's number box kept within its maximum.

Gradio writes some labels in English in its own code (an icon button's "Copy table data", a
slider's "Reset to default value"), not as i18n keys gr.I18n could translate. On a Chinese
page (``<html lang="zh-…">``, which Gradio sets from the browser's language) the script puts
the catalogue's Chinese (webapp/i18n/text_frontend.py) into those tooltips and screen-reader
labels as they appear, and registers the same catalogue as Plotly's zh-CN locale before the
first plot is drawn (Gradio's bundle sets ``window.Plotly``). Plotly's logo link leaves every
modebar: one button less on a phone.

A slider's number box sent every keystroke to the server: typing 120 under a maximum of 12 raised
Gradio's English "Value 120 is greater than maximum value 12." at the "12"… "120". The box now
keeps to the slider's maximum as one types, as the slider itself does on blur (the server clamps
too: webapp.serving.gradio_patch.clamp_sliders).
"""

from __future__ import annotations

import json

from webapp.i18n import EN, ZH

SCRIPT = """<script>
(() => {
  const GRADIO = __GRADIO__, PLOTLY = __PLOTLY__;
  const zh = () => /^zh/i.test(document.documentElement.lang || navigator.language || '');
  // "number input for {label}": the English around a component's label, the Chinese around it
  const templates = Object.entries(GRADIO).filter(([en]) => en.includes('{label}'))
    .map(([en, cn]) => [...en.split('{label}'), cn]);
  const chinese = (text) => {
    if (Object.hasOwn(GRADIO, text)) return GRADIO[text];
    for (const [head, tail, cn] of templates) {
      if (text.length > head.length + tail.length && text.startsWith(head) && text.endsWith(tail))
        return cn.replace('{label}', text.slice(head.length, text.length - tail.length));
    }
    return null;
  };
  const ATTRS = ['title', 'aria-label', 'placeholder'];
  const fix = (el) => {
    for (const a of ATTRS) {
      const said = el.getAttribute(a), cn = said && chinese(said);
      if (cn) el.setAttribute(a, cn);
    }
  };
  const sweep = (node) => {
    if (node.nodeType !== 1) return;
    fix(node);
    node.querySelectorAll('[title], [aria-label], [placeholder]').forEach(fix);
  };
  new MutationObserver((records) => {
    if (!zh()) return;
    for (const r of records) r.type === 'attributes' ? fix(r.target) : r.addedNodes.forEach(sweep);
  }).observe(document.documentElement,
             {subtree: true, childList: true, attributes: true, attributeFilter: ATTRS});
  let plotly;
  Object.defineProperty(window, 'Plotly', {configurable: true, enumerable: true,
    get: () => plotly,
    set: (p) => {
      plotly = p;
      try {
        p.register({moduleType: 'locale', name: 'zh-CN', dictionary: PLOTLY});
        p.setPlotConfig({displaylogo: false, ...(zh() ? {locale: 'zh-CN'} : {})});
      } catch (err) { console.warn('Plotly locale not set', err); }
    }});
  document.addEventListener('input', (e) => {
    const box = e.target;
    if (!(box instanceof HTMLInputElement) || box.type !== 'number'
        || !box.closest('.tab-like-container')) return;  // a slider's number box
    const max = parseFloat(box.max);
    if (box.value !== '' && !Number.isNaN(max) && parseFloat(box.value) > max) box.value = String(max);
  }, true);  // capturing: before the slider reads the box
})();
</script>"""


def pairs(part: str) -> dict[str, str]:
    """English → Chinese for the catalogue's ``fe.<part>.*`` keys."""
    prefix = f"fe.{part}."
    return {EN[k]: ZH[k] for k in EN if k.startswith(prefix)}


def head() -> str:
    """The script, with the catalogue's pairs for Gradio and Plotly."""
    return (SCRIPT.replace("__GRADIO__", json.dumps(pairs("gradio")))
            .replace("__PLOTLY__", json.dumps(pairs("plotly"))))
