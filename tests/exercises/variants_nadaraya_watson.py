"""Learner-style submissions for nadaraya-watson, unlike the mistake files."""

BASE = '''
import torch


def nw_predict(x_query, x_keys, y_values, w=1.0):
    if x_query.ndim != 1 or x_keys.ndim != 1 or y_values.ndim != 1:
        raise ValueError("1-D tensors only")
    if len(x_keys) != len(y_values):
        raise ValueError("one y per x")
    d = x_query.unsqueeze(1) - x_keys.unsqueeze(0)
    logits = LOGITS
    a = SOFTMAX
    return (a * y_values).sum(dim=1), a
'''

DEFAULTS = {
    "LOGITS": "-((d * w) ** 2) / 2",
    "SOFTMAX": "logits.softmax(dim=1)",
}


def src(**changes: str) -> str:
    text = BASE
    for key, value in {**DEFAULTS, **changes}.items():
        text = text.replace(key, value)
    return text


VARIANTS = [
    ("softmax over dim 1", None, src()),
    ("log-sum-exp by hand", None, src(SOFTMAX="torch.exp(logits - torch.logsumexp(logits, dim=1, keepdim=True))")),
    ("every weight 1/m", "average-pooling", src(SOFTMAX="torch.ones_like(d) / d.shape[1]")),
    ("mean of the values for every query", "average-pooling", src(SOFTMAX="torch.full(d.shape, 1 / len(x_keys), dtype=d.dtype)")),
    ("no 1/2", "no-half", src(LOGITS="-(d * w).pow(2)")),
    ("factor 1 instead of 1/2", "no-half", src(LOGITS="-1.0 * (d * w) ** 2")),
    ("plus instead of minus", "sign-error", src(LOGITS="((d * w) ** 2) / 2")),
    ("distance squared without the minus", "sign-error", src(LOGITS="0.5 * (w * d) ** 2")),
    ("exp over sum", "underflowing-softmax", src(SOFTMAX="logits.exp() / logits.exp().sum(1, keepdim=True)")),
    ("gaussian kernel normalised by hand", "underflowing-softmax",
     src(SOFTMAX="torch.exp(logits) / torch.exp(logits).sum(dim=-1).unsqueeze(-1)")),
    ("w times the squared distance", "w-outside-square", src(LOGITS="-w * d ** 2 / 2")),
    ("one max for the whole table", "global-max-shift", src(SOFTMAX="(logits - logits.max()).exp() / (logits - logits.max()).exp().sum(1, keepdim=True)")),
    ("global max with amax", "global-max-shift", src(SOFTMAX="torch.exp(logits - torch.amax(logits)) / torch.exp(logits - torch.amax(logits)).sum(dim=-1, keepdim=True)")),
    ("w outside, written with pow", "w-outside-square", src(LOGITS="-0.5 * w * torch.pow(d, 2)")),
    ("softmax over dim 0", "wrong-axis", src(SOFTMAX="torch.softmax(logits, 0)")),
    ("softmax over the queries with F", "wrong-axis", src(SOFTMAX="torch.nn.functional.softmax(logits, dim=-2)")),
    ("prediction as numpy", "wrong-return-type",
     src().replace("return (a * y_values).sum(dim=1), a", "return (a * y_values).sum(dim=1).numpy(), a.numpy()")),
    ("always float64", "wrong-return-type", src(SOFTMAX="logits.double().softmax(dim=1)")),
]

VARIANTS += [
    ("x_query shifted in place", "changes-input", src().replace(
        "    d = x_query.unsqueeze(1)", "    x_query -= 0.0\n    x_query += 1e-3\n    d = x_query.unsqueeze(1)")),
    ("y_values sorted in place", "changes-input", src().replace(
        "    return (a * y_values).sum(dim=1), a", "    y_values.mul_(1.001)\n    return (a * y_values).sum(dim=1), a")),
]
