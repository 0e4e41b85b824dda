"""The serving wing: many people share a small machine (no gradio, except gradio_patch.py).

- ``settings.py``  every serving setting, read once from the environment into a frozen object
- ``who.py``       who is asking: session, client address behind trusted proxies, learner
- ``turns.py``     the one scheduler of turns, for grading and training (fair by address, then
                   by learner; queue, don't refuse)
- ``limits.py``    the limits policy (per learner, per address, new learners per address);
                   ``ratelimit.py`` the counters in this process, ``counters.py`` the same
                   counts (tries, wrong passwords) in SQLite or PostgreSQL, one table
- ``wing.py``      ``Serving``: settings, lines and limits built together, and the one
                   admission desk (``Serving.admit(kind, client)``) every door goes through
- ``twins.py``     waits for a run being trained, counted beside the training line
- ``memory.py``    the process's memory: the collector's pause, malloc arenas, freed pages
- ``gradio_patch.py``  the one module that touches Gradio's internals, with a loud check

One scheduler: Gradio's queue pools for grading and training have a thread for every place the
lines can hold (``ServingSettings.pools``), so such an event never waits in Gradio's queue; it
waits in its line, and turns.py alone decides who goes next. gradio_patch's fair order by
address sorts only the narrow playground pools ("play", "measure"), where Gradio's queue is the
only line there is.
"""
