"""Your own numbers for Part A: every learner gets a Q (= K) and a V of their own.

Q is 3x4 with entries 0, 1 or 2 (small, so it can be worked by hand), V is 3x4 with small
whole numbers. The scores and weights depend on Q only through Q·Qᵀ: with entries 0 or 1 there
were 329 such matrices and a class of 30 shared one 83% of the time (red team, 2026-12-07);
with 0, 1 or 2 there are about 13,000 and two learners share one with probability 1e-4.
A draw is kept only where the first token's context vector changes when the scores are not
divided by sqrt(d_k) (so an unscaled answer cannot pass by luck; the lesson's own numbers give
the same first row either way), and never where Q·Qᵀ is the lesson's (whose answers are in the
lesson). Which learner gets which draw is keyed by a secret of the deployment (the app passes
a signed key, not the learner id), so nobody can search for a convenient draw offline.
"""

import math
import random

NAMES = ("Q", "V")
LESSON_Q = [[1.0, 0.0, 1.0, 0.0], [0.0, 1.0, 0.0, 1.0], [1.0, 1.0, 1.0, 1.0]]


def _first_context(Q, V, scale):
    row = [sum(a * b for a, b in zip(Q[0], k, strict=True)) / scale for k in Q]
    top = max(row)
    e = [math.exp(s - top) for s in row]
    w = [x / sum(e) for x in e]
    return [sum(w[j] * V[j][c] for j in range(3)) for c in range(4)]


def _gram(Q):
    return [[sum(a * b for a, b in zip(r, s, strict=True)) for s in Q] for r in Q]


def _telling(Q, V):
    right = _first_context(Q, V, 2.0)
    return all(max(abs(a - b) for a, b in zip(right, _first_context(Q, V, s), strict=True)) > 0.05
               for s in (1.0, 4.0))


def draw(rng: random.Random) -> dict:
    while True:
        Q = [[float(rng.randint(0, 2)) for _ in range(4)] for _ in range(3)]
        V = [[float(rng.randint(0, 12)) for _ in range(4)] for _ in range(3)]
        rows = {tuple(r) for r in Q}
        if len(rows) == 3 and all(any(r) for r in Q) and _gram(Q) != _gram(LESSON_Q) and _telling(Q, V):
            return {"Q": Q, "V": V}


def _matrix(rows, indent):
    cells = [", ".join(f"{x:g}" for x in r) for r in rows]
    return ("[[" + f"],\n{' ' * indent}[".join(cells) + "]]")


def show(values: dict) -> str:
    return f"Q = K = {_matrix(values['Q'], 9)}\n\nV = {_matrix(values['V'], 5)}"
