"""The app's own CSS (phone layout, status lines), in one place: app.py hands it to launch(),
and a test that builds a page of its own can launch with the same rules."""

from __future__ import annotations

CSS = """
#tl-title h1 { margin-bottom: 0.2em; }
.tl-status:empty { display: none; }
/* Phone (390 px): wide tables scroll inside their own box, never the page. */
.table-wrap, .table-container { max-width: 100%; overflow-x: auto; }
/* Phone: the results table keeps whole header words (it scrolls sideways instead) and its
   header does not stick over the first row; the name box and its status stack. */
@media (max-width: 600px) {
  #ex-tests table { min-width: 720px; }
  /* Gradio 6 draws the body as rows of divs sized in % of the viewport, not of the 720 px
     header table: the columns did not line up and cells wrapped one character per line
     (the result "failed" one per line). The same widths as the header's column_widths (exercises.py), of 720 px. */
  #ex-tests .virtual-row { min-width: 720px; }
  #ex-tests .virtual-row > .body-cell { flex: none !important; }
  #ex-tests .virtual-row > .body-cell:nth-child(1) { width: 180px !important; min-width: 180px !important; }
  #ex-tests .virtual-row > .body-cell:nth-child(2) { width: 79.2px !important; min-width: 79.2px !important; }
  /* Score and max: 9% each (at 7% the header "score" was cut off by 8 px). */
  #ex-tests .virtual-row > .body-cell:nth-child(3),
  #ex-tests .virtual-row > .body-cell:nth-child(4) { width: 64.8px !important; min-width: 64.8px !important; }
  #ex-tests .virtual-row > .body-cell:nth-child(5) { width: 331.2px !important; min-width: 331.2px !important; }
  #ex-tests .body-cell .text { word-break: keep-all; }
  #ex-tests th, #ex-tests th * { white-space: nowrap !important; word-break: keep-all !important; }
  #ex-tests thead, #ex-tests thead tr, #ex-tests th { position: static !important; }
  /* The class view's common mistakes: the same pinning, 640 px (its column_widths). */
  #class-mistakes table { min-width: 640px; }
  #class-mistakes .virtual-row { min-width: 640px; }
  #class-mistakes .virtual-row > .body-cell { flex: none !important; }
  #class-mistakes .virtual-row > .body-cell:nth-child(1),
  #class-mistakes .virtual-row > .body-cell:nth-child(2) { width: 76.8px !important; min-width: 76.8px !important; }
  #class-mistakes .virtual-row > .body-cell:nth-child(3) { width: 332.8px !important; min-width: 332.8px !important; }
  #class-mistakes .virtual-row > .body-cell:nth-child(4) { width: 153.6px !important; min-width: 153.6px !important; }
  #class-mistakes th, #class-mistakes th * { white-space: nowrap !important; word-break: keep-all !important; }
  /* Plotly draws legend entries at 12 px on one line each: the Train curves' longest ("loss on
     256 validation sequences (no dropout, no smoothing)") ran 40 px past the plot's edge. */
  .js-plotly-plot .legendtext { font-size: 10px !important; }
  /* Train: the status line (where an input error of the settings goes) comes right under the
     settings, above the link and the buttons; it was 380-600 px below the box that caused it.
     The order is visual only: a screen reader still reads the buttons first. */
  .column:has(> #train-status) > #train-status { order: 1; }
  .column:has(> #train-status) > #link-row-train,
  .column:has(> #train-status) > .row:has(#train-start) { order: 2; }
  .column:has(> #train-status) > #train-status ~ * { order: 3; }
  #who-row { flex-direction: column !important; align-items: stretch !important; }
  #who-row > * { width: 100% !important; min-width: 0 !important; flex: 1 1 auto !important; }
}
/* A slider's label keeps its words on one line (a narrow slider wrapped the Chinese 'tokens'
   label one character per line); when label and number box do not fit side by side, the box moves below it. */
.head:has(> .tab-like-container) > label { flex: 0 0 auto; white-space: nowrap; }
"""
