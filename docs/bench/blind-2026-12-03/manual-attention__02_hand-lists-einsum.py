import math
import torch

Q = torch.tensor([[1.0, 0.0, 1.0, 0.0], [0.0, 1.0, 0.0, 1.0], [1.0, 1.0, 1.0, 1.0]])
K = Q.clone()
V = torch.tensor([[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0], [9.0, 10.0, 11.0, 12.0]])

# 手算：Q·Kᵀ 再除以 sqrt(4) = 2
# 第一行: [2,0,2]/2 = [1,0,1] ; 第二行 [0,2,2]/2 ; 第三行 [2,2,4]/2
scores = [[1.0, 0.0, 1.0],
          [0.0, 1.0, 1.0],
          [1.0, 1.0, 2.0]]
# softmax([1,0,1]) = e/(2e+1), 1/(2e+1), e/(2e+1)
weights = [[0.4223, 0.1554, 0.4223],
           [0.1554, 0.4223, 0.4223],
           [0.2119, 0.2119, 0.5761]]
# 0.4223*[1,2,3,4] + 0.1554*[5,6,7,8] + 0.4223*[9,10,11,12] -> [5,6,7,8]
context = [5.0, 6.0, 7.0, 8.0]


def attention(Q, K, V, mask=None):
    d_k = Q.shape[-1]
    # einsum 写法，"..." 表示任意多的批次维
    scores = torch.einsum("...nd,...md->...nm", Q, K) / math.sqrt(d_k)
    if mask is not None:
        # True = 可以关注；False 的位置填一个非常小的数
        scores = scores.masked_fill(mask.logical_not(), float("-inf"))
    weights = scores.softmax(dim=-1)
    context = torch.einsum("...nm,...mv->...nv", weights, V)
    return context, weights
