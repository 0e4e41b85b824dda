"""Exercise add-norm: the reference agrees with torch's layer norm and dropout; the exercise
grades soundly."""

import numpy as np
import pytest
import torch
import torch.nn.functional as F
from soundness import load_reference

EX = "add-norm"

ref = load_reference(EX)


def _block(d, p, dtype=torch.float64, seed=0):
    g = torch.Generator().manual_seed(seed)
    m = ref.AddNorm(d, p).to(dtype)
    with torch.no_grad():
        m.ln.weight.copy_(1 + 0.5 * torch.randn(d, generator=g, dtype=dtype))
        m.ln.bias.copy_(0.5 * torch.randn(d, generator=g, dtype=dtype))
    return m, g


@pytest.mark.parametrize("shape", [(2, 5, 8), (6, 3, 4), (1, 1, 6)])
@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_eval_output_is_torch_layer_norm_of_the_sum(shape, dtype):
    m, g = _block(shape[-1], 0.5, dtype)
    X, Y = (torch.randn(*shape, generator=g, dtype=dtype) for _ in range(2))
    want = F.layer_norm(X + Y, shape[-1:], m.ln.weight, m.ln.bias, eps=1e-5)
    got = m.eval()(X, Y)
    assert got.dtype == dtype and got.shape == shape
    tol = 1e-5 if dtype == torch.float32 else 1e-12
    np.testing.assert_allclose(got.detach().numpy(), want.detach().numpy(), rtol=tol, atol=tol)


def test_each_token_is_normalised_over_its_own_features():
    m, g = _block(6, 0.0)
    X, Y = torch.randn(3, 4, 6, generator=g, dtype=torch.float64), torch.zeros(3, 4, 6, dtype=torch.float64)
    whole = m(X, Y)
    for b in range(3):
        for t in range(4):  # one token alone gives the same answer as inside its batch
            alone = m(X[b:b + 1, t:t + 1], Y[b:b + 1, t:t + 1])
            np.testing.assert_allclose(alone[0, 0].detach().numpy(), whole[b, t].detach().numpy(),
                                       rtol=1e-12, atol=1e-12)


def test_training_dropout_drops_only_y_and_scales_the_kept_entries():
    m, g = _block(16, 0.5)
    X, Y = torch.randn(4, 8, 16, generator=g, dtype=torch.float64), torch.randn(4, 8, 16, generator=g,
                                                                                 dtype=torch.float64)
    torch.manual_seed(3)
    m.train()
    got = m(X, Y)
    torch.manual_seed(3)
    kept = m.dropout(Y)  # the same draw: each entry 0 or 2·Y
    assert torch.all((kept == 0) | torch.isclose(kept, 2 * Y))
    want = F.layer_norm(X + kept, (16,), m.ln.weight, m.ln.bias, eps=1e-5)
    np.testing.assert_allclose(got.detach().numpy(), want.detach().numpy(), rtol=1e-12, atol=1e-12)


def test_dropout_one_gives_layer_norm_of_x_in_training_and_of_x_plus_y_in_eval():
    m, g = _block(8, 1.0)
    X, Y = torch.randn(2, 3, 8, generator=g, dtype=torch.float64), torch.randn(2, 3, 8, generator=g,
                                                                                dtype=torch.float64)
    norm = lambda Z: F.layer_norm(Z, (8,), m.ln.weight, m.ln.bias, eps=1e-5)  # noqa: E731
    torch.testing.assert_close(m.train()(X, Y), norm(X))
    torch.testing.assert_close(m.eval()(X, Y), norm(X + Y))


def test_statement_example():
    X = torch.arange(1.0, 9.0).view(1, 1, 8)
    Y = torch.tensor([[[1.0, 2, 1, 0, 0, -1, 0, 1]]])
    out = ref.AddNorm(8, 0.0)(X, Y)
    np.testing.assert_allclose(out.detach().numpy()[0, 0], np.array([-1.5, -0.5, -0.5, -0.5, 0, 0, 1, 2])
                               * 2 / np.sqrt(4 + 1e-5), atol=1e-6)
    X_normed = ref.AddNorm(8, 1.0).train()(X, Y)
    np.testing.assert_allclose(X_normed.detach().numpy()[0, 0], (np.arange(1, 9) - 4.5) / np.sqrt(5.25 + 1e-5),
                               atol=1e-6)


def test_exercise_is_sound(exercise_sound):
    """Through the sandboxed grader: reference full, starter less, every known mistake named."""
    exercise_sound(EX)


DROPOUT_VARIANTS = {
    # a red team's two: full marks before a case at 0 < p < 1 was judged
    "kept entries not rescaled": ("Y * (torch.rand_like(Y) >= self.p)", "dropout-no-rescale"),
    "a scaling, no entry dropped": ("Y * (1 - self.p)", "dropout-never-drops"),
    "keeps with probability p": ("Y * (torch.rand_like(Y) < self.p) / (1 - self.p)", None),
}
DROPOUT_MODULE = '''
import torch
from torch import nn


class AddNorm(nn.Module):
    def __init__(self, normalized_shape, dropout):
        super().__init__()
        self.ln = nn.LayerNorm(normalized_shape)
        self.p = dropout

    def forward(self, X, Y):
        if self.training and self.p >= 1.0:
            return self.ln(X)
        Yd = (DROP) if self.training else Y
        return self.ln(X + Yd)
'''


@pytest.mark.parametrize("label", sorted(DROPOUT_VARIANTS))
def test_a_dropout_that_is_not_one_loses_points_whatever_it_draws(grader, label):
    drop, mistake = DROPOUT_VARIANTS[label]
    report = grader.grade("add-norm", DROPOUT_MODULE.replace("DROP", drop))
    assert not report.full_marks
    if mistake:
        assert report.mistakes() == [mistake], report.mistakes()


def test_any_right_dropout_gets_full_marks_whatever_it_draws(grader):
    """Hand-written with its own mask, or nn.Dropout: every draw is accepted (five grades)."""
    right = DROPOUT_MODULE.replace("DROP", "Y * (torch.rand_like(Y) >= self.p) / (1 - self.p)")
    for _ in range(5):
        assert grader.grade("add-norm", right).full_marks
