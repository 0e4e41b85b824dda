"""Learner-style submissions for cross-attention, unlike the mistake files."""

BASE = '''
import torch


def cross_attention(dec, enc, W_q, W_k, W_v, enc_valid_lens=None):
    q = QUERY
    k = KEY
    v = VALUE
    s = torch.einsum("bnk,bmk->bnm", q, k) SCALE
    if enc_valid_lens is not None:
        MASK
    w = torch.softmax(s, dim=AXIS)
    return torch.bmm(w, v), w
'''

DEFAULTS = {
    "QUERY": "torch.matmul(dec, W_q)",
    "KEY": "torch.matmul(enc, W_k)",
    "VALUE": "torch.matmul(enc, W_v)",
    "SCALE": "/ W_k.shape[-1] ** 0.5",
    "MASK": "keep = torch.arange(s.shape[2]).view(1, 1, -1) < enc_valid_lens.view(-1, 1, 1)\n"
            "        s = torch.where(keep, s, torch.full_like(s, float('-inf')))",
    "AXIS": "-1",
}


def src(**changes: str) -> str:
    text = BASE
    for key, value in {**DEFAULTS, **changes}.items():
        text = text.replace(key, value)
    return text


VARIANTS = [
    ("einsum, torch.where with -inf", None, src()),
    ("masked_fill with -1e9 and math.sqrt", None, src(
        SCALE="/ math.sqrt(q.size(-1))",
        MASK="pad = torch.arange(s.size(-1))[None, :] >= enc_valid_lens[:, None]  # (B, m)\n"
             "        s = s.masked_fill(pad.unsqueeze(1), -1e9)").replace("import torch", "import math\nimport torch")),
    ("K and V from dec", "self-attention", src(KEY="torch.matmul(dec, W_k)", VALUE="torch.matmul(dec, W_v)")),
    ("one sequence x for all three", "self-attention", src(
        QUERY="(x := dec) @ W_q", KEY="x @ W_k", VALUE="x @ W_v",
        MASK="keep = torch.arange(s.shape[2]).view(1, 1, -1) < enc_valid_lens.view(-1, 1, 1)\n"
             "        s = s.masked_fill(~keep, -1e9)")),
    ("Q from enc, K and V from dec", "queries-from-encoder",
     src(QUERY="enc @ W_q", KEY="dec @ W_k", VALUE="dec @ W_v")),
    ("arguments read the other way round", "queries-from-encoder", src().replace(
        "    q = torch.matmul(dec, W_q)", "    dec, enc = enc, dec  # the encoder asks\n    q = torch.matmul(dec, W_q)")),
    ("lengths compared with the decoder positions", "mask-on-queries", src(
        MASK="rows = torch.arange(s.shape[1]).view(1, -1, 1) < enc_valid_lens.view(-1, 1, 1)\n"
             "        s = s.masked_fill(~rows, -1e9)")),
    ("mask built for the queries with finfo.min", "mask-on-queries", src(
        MASK="pad = torch.arange(dec.shape[1])[None, :] >= enc_valid_lens[:, None]  # (B, n)\n"
             "        s = s.masked_fill(pad[:, :, None], torch.finfo(s.dtype).min)")),
    ("enc_valid_lens never used", "ignores-valid-lens", src(MASK="pass")),
    ("mask built but not applied", "ignores-valid-lens", src(
        MASK="keep = torch.arange(s.shape[2]).view(1, 1, -1) < enc_valid_lens.view(-1, 1, 1)\n"
             "        torch.where(keep, s, torch.full_like(s, float('-inf')))")),
    ("softmax over dim 1", "softmax-over-queries", src(AXIS="1", MASK="keep = torch.arange(s.shape[2]).view(1, 1, -1) < enc_valid_lens.view(-1, 1, 1)\n"
             "        s = s.masked_fill(~keep, -1e9)")),
    ("softmax over dim -2", "softmax-over-queries", src(AXIS="-2")),
    ("no division", "no-scale", src(SCALE="")),
    ("scale of 1.0", "no-scale", src(SCALE="* 1.0")),
    ("divided by sqrt of the input width", "scale-by-model-width", src(SCALE="/ dec.shape[-1] ** 0.5")),
    ("divided by sqrt of enc's width with math", "scale-by-model-width",
     src(SCALE="/ math.sqrt(enc.size(2))").replace("import torch", "import math\nimport torch")),
    ("results returned as numpy", "wrong-return-type",
     src().replace("return torch.bmm(w, v), w", "return torch.bmm(w, v).numpy(), w.numpy()")),
    ("results always float32", "wrong-return-type",
     src().replace("return torch.bmm(w, v), w", "return torch.bmm(w, v).float(), w.float()")),
    ("dec scaled in place", "changes-input", src().replace(
        "    q = torch.matmul(dec, W_q)", "    dec /= W_q.shape[-1] ** 0.5\n    q = torch.matmul(dec, W_q)").replace(
        "    s = torch.einsum(\"bnk,bmk->bnm\", q, k) / W_k.shape[-1] ** 0.5", "    s = torch.einsum(\"bnk,bmk->bnm\", q, k)")),
    ("enc centred in place", "changes-input", src().replace(
        "    k = torch.matmul(enc, W_k)", "    enc.sub_(1e-3)\n    k = torch.matmul(enc, W_k)")),
]

# A fill of -inf makes the fully blocked columns (rows) NaN where the mistake files' finite fill
# makes them uniform: the diagnoser names these from the weights of the real keys (queries).
VARIANTS += [
    ("Tensor.softmax over dim 1, -inf fill", "softmax-over-queries",
     src().replace("torch.softmax(s, dim=-1)", "s.softmax(1)")),
    ("lengths on the queries, -inf fill", "mask-on-queries", src(
        MASK="rows = torch.arange(s.shape[1]).view(1, -1, 1) < enc_valid_lens.view(-1, 1, 1)\n"
             "        s = torch.where(rows, s, torch.full_like(s, float('-inf')))")),
]

# Hidden after the softmax (a chromium walk's learners wrote it; named in exercise 4, not here
# before): the padded keys' weights zeroed, the rows left unnormalised.
AFTER = BASE.replace('''    w = torch.softmax(s, dim=AXIS)
''', '''    w = torch.softmax(s, dim=AXIS)
    if enc_valid_lens is not None:
        AFTER_MASK
''')
VARIANTS += [
    ("weights times the keep mask after the softmax", "mask-after-softmax",
     AFTER.replace("AFTER_MASK", "w = w * keep")
     .replace("MASK", "keep = torch.arange(s.shape[2]).view(1, 1, -1) < enc_valid_lens.view(-1, 1, 1)").replace("QUERY", DEFAULTS["QUERY"]).replace("KEY", DEFAULTS["KEY"])
     .replace("VALUE", DEFAULTS["VALUE"]).replace("SCALE", DEFAULTS["SCALE"]).replace("AXIS", "-1")),
    ("masked_fill(…, 0) after the softmax", "mask-after-softmax",
     AFTER.replace("AFTER_MASK", "w = w.masked_fill(pad, 0.0)")
     .replace("MASK", "pad = torch.arange(s.size(-1))[None, None, :] >= enc_valid_lens[:, None, None]").replace("QUERY", DEFAULTS["QUERY"])
     .replace("KEY", DEFAULTS["KEY"]).replace("VALUE", DEFAULTS["VALUE"]).replace("SCALE", DEFAULTS["SCALE"])
     .replace("AXIS", "-1")),
]
