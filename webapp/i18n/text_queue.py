"""What the training queue says to a waiting learner: place, estimate, offers, refusals (en + zh-CN)."""

from __future__ import annotations

EN: dict[str, str] = {
    "trainq.position": "◷ Waiting to train: position {position} in the queue, about {eta} s.",
    "trainq.offer": "The queue is long: the same settings with {offer} steps are already trained. "
                    "Press Stop, set Steps to {offer} and press Train to see them at once.",
    "trainq.busy": "You already have a training run going or waiting in this browser. Wait for it "
                   "or press Stop first.",
    "trainq.stopped": "Stopped while waiting in the queue; nothing was trained.",
    "trainq.twin_moved": "Another learner is still training exactly this run. Your wait for it "
                         "gave its place to a classmate's own run; press Train again once that "
                         "run is done and it replays at once.",
    "trainq.twin_pushed": "The training queue is full, and your network holds more places in it "
                          "than any other: your wait for this run gave its place to someone from "
                          "another network. Press Train again once the run is done and it "
                          "replays at once.",
    "trainq.address_full": "Your network address already has {n} training runs waiting, the most "
                           "one address may have at once. Please retry in {wait} s; nothing was "
                           "trained.",
    "trainq.full": "The training queue is full ({n} runs are waiting). Please retry in {wait} s; "
                   "nothing was trained.",
    "trainq.pushed_out": "The training queue is full, and your network holds more places in it "
                         "than any other: this run gave its place to someone from another "
                         "network. Nothing was trained; try again once your earlier runs are done.",
    "trainq.pushed_out_class": "Your network's places in the training queue are full, and a "
                               "classmate seen here before you, or with fewer places, needed one: "
                               "this run gave its place to them. Nothing was trained; try again "
                               "in a moment.",
    "trainq.same_run": "◷ Another learner is training exactly this run right now; it appears here "
                       "as soon as it is done.",
    "trainq.cached": "⚡ From the cache: this exact run was trained before and is replayed.",
    "queue.client_full": "Your network already has {n} requests waiting on this server. Wait for "
                         "them to finish, then try again.",
    "queue.pushed_out_class": "Your network's places in the line are full, and a classmate seen here "
                              "before you, or with fewer places, needed one: this request gave its "
                              "place to them. Nothing was stored; try again in a moment.",
    "queue.pushed_out": "The line is full, and your network holds more places in it than any other: "
                        "this request gave its place to someone from another network. Nothing was "
                        "stored; try again once your earlier requests are done.",
}

ZH: dict[str, str] = {
    "trainq.position": "◷ 正在排队等待训练：第 {position} 位，预计约 {eta} 秒。",
    "trainq.offer": "队列较长：相同设置、{offer} 步的训练结果已有缓存。按“停止”，把步数改为 {offer}，"
                    "再按“训练”即可立即查看。",
    "trainq.busy": "你在此浏览器中已有一个训练正在进行或排队。请等待它结束，或先按“停止”。",
    "trainq.stopped": "排队期间已停止，未进行训练。",
    "trainq.twin_moved": "另一位学习者仍在训练完全相同的设置。你的等待位置已让给一位同学自己的训练；"
                         "等那次训练完成后再按“训练”，结果会立即重放。",
    "trainq.twin_pushed": "训练队列已满，而你的网络在队列中占的位置比其他任何网络都多：你对这次训练的等待把位置让给了来自其他网络的人。"
                          "等那次训练完成后再按“训练”，结果会立即重放。",
    "trainq.address_full": "你所在的网络地址已有 {n} 个训练在排队，这是同一地址同时排队的上限。请在 {wait} 秒后重试；"
                           "未进行训练。",
    "trainq.full": "训练队列已满（{n} 个训练在等候）。请在 {wait} 秒后重试；未进行训练。",
    "trainq.pushed_out": "训练队列已满，而你的网络在队列中占的位置比其他任何网络都多：这次训练把位置让给了来自其他网络的人。"
                         "未进行训练；请等你之前的训练完成后再试。",
    "trainq.pushed_out_class": "你的网络在训练队列中的位置已满，一位比你先来到这里、或占位更少的同学需要位置：这次训练把位置让给了他。"
                               "未进行训练；请稍后再试。",
    "trainq.same_run": "◷ 另一位学习者正在训练完全相同的设置；训练完成后结果会立即显示在这里。",
    "trainq.cached": "⚡ 来自缓存：相同设置的训练结果已存在，直接重放。",
    "queue.client_full": "你的网络已有 {n} 个请求在此服务器上排队。请等它们完成后再试。",
    "queue.pushed_out_class": "你的网络在队列中的位置已满，一位比你先来到这里、或占位更少的同学需要位置：本次请求把位置让给了他。"
                              "未保存任何内容；请稍后再试。",
    "queue.pushed_out": "队列已满，而你的网络在队列中占的位置比其他任何网络都多：本次请求把位置让给了来自其他网络的人。"
                        "未保存任何内容；请等你之前的请求完成后再试。",
}
