"""The Train tab as one room: what a learner sets, waits for, trains, replays and keeps.

- ``page.py``        the Train page (gradio): its controls, laid out from the offered ranges,
                     wired to ``events.py`` (gradio): what each click, change and load does
- ``api.py``         the ``train`` API and the run loop the page and the API share (gradio)
- ``train_config.py`` the page's choices and presets, checked once into an ExperimentConfig
- ``train_queue.py`` where a run goes: replayed from the run cache, waiting as a twin, or in
                     the training line (the serving wing's desk admits it), then stored
- ``training.py``    a run: built, streamed step by step, applied, shared read-only on replay
- ``sessions.py``    what a browser session keeps between requests (stop flag, last run, kept
                     runs reduced to LightRun), bounded per address and in bytes
- ``view.py``        captions, tables and curve labels in the page's language (plain)

Only ``page.py``, ``events.py`` and ``api.py`` import gradio (tests/webapp/test_structure.py). The run cache
is storage (webapp.services.run_cache); the line itself is the serving wing's
(webapp.serving.turns, webapp.serving.twins).
"""
