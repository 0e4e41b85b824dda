"""Learner-style submissions for manual-attention, unlike the mistake files."""

PART_A = '''
import math
import torch

scores = [[1, 0, 1], [0, 1, 1], [1, 1, 2]]
weights = [[0.4223, 0.1554, 0.4223], [0.1554, 0.4223, 0.4223], [0.2119, 0.2119, 0.5761]]
context = CONTEXT
'''

PART_B = '''

def attention(Q, K, V, mask=None):
    d_k = Q.size(-1)
    s = torch.einsum("...nd,...md->...nm", Q, K) SCALE
    if mask is not None:
        MASK
    w = SOFTMAX
    POST
    return torch.einsum("...nm,...mv->...nv", w, V), w
'''

DEFAULTS = {
    "CONTEXT": "(torch.tensor(weights[0]) @ torch.arange(1.0, 13.0).view(3, 4)).tolist()",
    "SCALE": "/ math.sqrt(d_k)",
    "MASK": "s = torch.where(mask, s, torch.full_like(s, -1e9))",
    "SOFTMAX": "torch.softmax(s, dim=-1)",
    "POST": "",
}


def src(**changes: str) -> str:
    text = PART_A + PART_B
    for key, value in {**DEFAULTS, **changes}.items():
        text = text.replace(key, value)
    return text


UNSCALED_A = (PART_A.replace("[[1, 0, 1], [0, 1, 1], [1, 1, 2]]", "[[2, 0, 2], [0, 2, 2], [2, 2, 4]]")
              .replace("weights = [[0.4223, 0.1554, 0.4223], [0.1554, 0.4223, 0.4223], [0.2119, 0.2119, 0.5761]]",
                       "weights = torch.softmax(torch.tensor(scores, dtype=torch.float32), -1).tolist()"))
BY_D_A = (PART_A.replace("[[1, 0, 1], [0, 1, 1], [1, 1, 2]]", "[[0.5, 0, 0.5], [0, 0.5, 0.5], [0.5, 0.5, 1]]")
          .replace("weights = [[0.4223, 0.1554, 0.4223], [0.1554, 0.4223, 0.4223], [0.2119, 0.2119, 0.5761]]",
                   "weights = torch.softmax(torch.tensor(scores), dim=1).tolist()"))


def with_a(part_a: str, **changes: str) -> str:
    text = part_a + PART_B
    for key, value in {**DEFAULTS, **changes}.items():
        text = text.replace(key, value)
    return text


VARIANTS = [
    ("einsum with torch.where -1e9", None, src()),
    ("matmul with masked_fill -inf", None, src(
        MASK="s = s.masked_fill(mask.logical_not(), float('-inf'))")),
    ("no scale anywhere", "no-scale", with_a(UNSCALED_A, SCALE="")),
    ("no scale, written as * 1", "no-scale", with_a(UNSCALED_A, SCALE="* 1.0")),
    ("divided by d_k", "scale-by-d", with_a(BY_D_A, SCALE="/ d_k")),
    ("times 1/d_k", "scale-by-d", with_a(BY_D_A, SCALE="* (1.0 / d_k)")),
    ("softmax over dim -2", "softmax-wrong-axis", src(SOFTMAX="torch.softmax(s, dim=-2)")),
    ("softmax over the queries with F", "softmax-wrong-axis",
     src(SOFTMAX="torch.nn.functional.softmax(s, dim=s.dim() - 2)")),
    ("exp over sum", "naive-softmax", src(SOFTMAX="s.exp() / s.exp().sum(-1, keepdim=True)")),
    ("exp with torch.sum", "naive-softmax", src(SOFTMAX="torch.exp(s) / torch.sum(torch.exp(s), dim=-1, keepdim=True)")),
    ("exp after subtracting the tensor's maximum", "global-max-shift",
     src(SOFTMAX="(s - s.max()).exp() / (s - s.max()).exp().sum(-1, keepdim=True)")),
    ("one max for every row, with torch.exp", "global-max-shift",
     src(SOFTMAX="torch.exp(s - torch.max(s)) / torch.exp(s - torch.max(s)).sum(dim=-1, keepdim=True)")),
    ("mask inverted, -1e9", "mask-inverted", src(MASK="s = torch.where(mask, torch.full_like(s, -1e9), s)")),
    ("mask inverted with masked_fill -1e4", "mask-inverted", src(MASK="s = s.masked_fill(mask, -1e4)")),
    ("mask multiplied into the scores", "mask-ignored", src(MASK="s = s * torch.ones_like(s)")),
    ("mask never used", "mask-ignored", src(MASK="pass")),
    ("masked scores filled with 0", "zero-fill", src(MASK="s = s.masked_fill(~mask, 0.0)")),
    ("scores times the mask", "zero-fill", src(MASK="s = s * mask")),
    ("weights times the mask", "mask-after-softmax", src(MASK="pass", POST="w = w * mask if mask is not None else w")),
    ("weights zeroed with where", "mask-after-softmax",
     src(MASK="pass", POST="w = torch.where(mask, w, torch.zeros_like(w)) if mask is not None else w")),
    ("context is a column, by a comprehension", "context-wrong-row",
     src(CONTEXT="[r[0] for r in (torch.tensor(weights) @ torch.arange(1.0, 13.0).view(3, 4)).tolist()]")),
    ("context from V's first column", "context-wrong-row",
     src(CONTEXT="(torch.tensor(weights) @ torch.arange(1.0, 13.0).view(3, 4))[:, 0].tolist()")),
]

VARIANTS += [
    ("Part B returns numpy", "wrong-return-type",
     src().replace('return torch.einsum("...nm,...mv->...nv", w, V), w',
                   'return torch.einsum("...nm,...mv->...nv", w, V).numpy(), w.numpy()')),
    ("Part B computes in float32", "wrong-return-type", src(SOFTMAX="torch.softmax(s.float(), dim=-1)")
     .replace('return torch.einsum("...nm,...mv->...nv", w, V), w',
              'return torch.einsum("...nm,...mv->...nv", w, V.float()), w')),
]

VARIANTS += [
    ("Q scaled in place", "changes-input", src(SCALE="").replace(
        "    d_k = Q.size(-1)\n", "    d_k = Q.size(-1)\n    Q /= math.sqrt(d_k)\n")),
    ("the caller's mask flipped in place", "changes-input",
     src(MASK="mask.logical_not_()\n        s = s.masked_fill(mask, float('-inf'))")),
]

# Part A divided by d_k = 4 by hand, Part B right (the scale-by-d mistake file has both wrong).
BY_D_TORCH_A = """
import math
import torch

Qm = torch.tensor([[1.0, 0, 1, 0], [0, 1, 0, 1], [1, 1, 1, 1]])
scores = Qm @ Qm.T / Qm.shape[1]
weights = torch.softmax(scores, dim=-1)
context = weights[0] @ torch.arange(1.0, 13.0).view(3, 4)
"""

VARIANTS += [
    ("Part A by hand over d_k, Part B right", "part-a-scale-by-d", with_a(BY_D_A)),
    ("Part A with torch over Q.shape[1], Part B right", "part-a-scale-by-d", with_a(BY_D_TORCH_A)),
    ("float32 inputs upcast to float64", "wrong-return-type", src().replace(
        "    d_k = Q.size(-1)\n", "    Q, K, V = Q.double(), K.double(), V.double()\n    d_k = Q.size(-1)\n")),
]

# `attention` divides the caller's Q in place, then Part A is worked out from that Q after the
# call: its scores read Q·Kᵀ/4 while its weights and context are right (the red team's case).
IN_PLACE_THEN_A = PART_B.replace("    d_k = Q.size(-1)\n", "    d_k = Q.size(-1)\n    SHRINK\n") + """
Q = torch.tensor([[1.0, 0, 1, 0], [0, 1, 0, 1], [1, 1, 1, 1]])
K = Q.clone()
V = torch.arange(1.0, 13.0).view(3, 4)
context_all, weights = attention(Q, K, V)
scores = Q @ K.T / math.sqrt(4)
context = context_all[0]
"""

VARIANTS += [
    ("attention does Q /= sqrt(d_k), Part A from that Q", "changes-input", (
        "import math\nimport torch\n" + IN_PLACE_THEN_A).replace("SCALE", "").replace(
        "SHRINK", "Q /= math.sqrt(d_k)").replace("MASK", DEFAULTS["MASK"]).replace(
        "SOFTMAX", DEFAULTS["SOFTMAX"]).replace("POST", "")),
    ("attention does Q.div_(d_k ** 0.5), Part A with matmul", "changes-input", (
        "import math\nimport torch\n" + IN_PLACE_THEN_A).replace("SCALE", "").replace(
        "SHRINK", "Q.div_(d_k ** 0.5)").replace("MASK", DEFAULTS["MASK"]).replace(
        "SOFTMAX", DEFAULTS["SOFTMAX"]).replace("POST", "").replace(
        "scores = Q @ K.T / math.sqrt(4)", "scores = torch.matmul(Q, K.transpose(0, 1)) / 2")),
]

# The lesson's worked example handed in for Part A, graded for a learner who has numbers of
# their own (grader/variants.py): literal answers, or the lesson's Q and V computed with torch.
# GRADED_FOR: the learner id a variant expecting that mistake is graded for.
GRADED_FOR = {"lesson-numbers": "g:a-learner-with-own-numbers"}
LESSON_COMPUTED_A = """
import math
import torch

Q = torch.tensor([[1.0, 0, 1, 0], [0, 1, 0, 1], [1, 1, 1, 1]])
K = Q.clone()
V = torch.arange(1.0, 13.0).view(3, 4)
scores = Q @ K.T / math.sqrt(4)
weights = torch.softmax(scores, dim=-1)
context = (weights @ V)[0]
"""
VARIANTS += [
    ("the lesson's answers typed into Part A", "lesson-numbers", src()),
    ("the lesson's Q and V computed with torch", "lesson-numbers", with_a(LESSON_COMPUTED_A)),
]
