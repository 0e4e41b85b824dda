"""What lesson links say: the copy row, an unreadable link, a locked lesson (en + zh-CN)."""

from __future__ import annotations

EN: dict[str, str] = {
    "link.copy": "Copy link to this setup",
    "link.box": "Link to this setup",
    "link.fix_first": "⚠️ Some settings hold no valid value yet ({names}): fix them, then copy "
                      "the link again.",
    "link.invalid": "⚠️ This link's settings could not be read, so the page opened with its usual "
                    "settings.",
    "link.invalid_key": "⚠️ This link's “{name}” could not be read, so this tab opened with its "
                        "usual settings.",
    "link.invalid_unknown": "⚠️ This link names a setting this tab does not have, so this tab "
                            "opened with its usual settings.",
    "link.cannot_run": "⚠️ This link's settings cannot run together ({why}), so this tab opened "
                       "with its usual settings.",
    "link.cannot_run_open": "⚠️ These settings cannot run together yet ({why}): change one "
                            "before you start.",
    "link.locked": "🔒 This lesson link fixes the settings of this tab.",
    "link.locked_some": "🔒 This lesson link fixes some settings of this tab: {names}.",
    "link.cached": "⚡ This exact run is already trained: press Train to see it at once.",
    "link.cx_stale": "◷ The measurement shown is the server's first one (sizes 128, 256, 512, "
                     "1024; d = 64). Press “Run the benchmark” to time this link's settings.",
}

ZH: dict[str, str] = {
    "link.copy": "复制此设置的链接",
    "link.box": "此设置的链接",
    "link.fix_first": "⚠️ 有些设置还不是有效值（{names}）：请先改正，再复制链接。",
    "link.invalid": "⚠️ 无法读取此链接中的设置，页面已按默认设置打开。",
    "link.invalid_key": "⚠️ 无法读取此链接中的“{name}”，本页已按默认设置打开。",
    "link.invalid_unknown": "⚠️ 此链接含有本页没有的设置，本页已按默认设置打开。",
    "link.cannot_run": "⚠️ 此链接中的设置无法同时使用（{why}），本页已按默认设置打开。",
    "link.cannot_run_open": "⚠️ 这些设置还不能同时使用（{why}）：开始之前请先修改其中一项。",
    "link.locked": "🔒 此课程链接固定了本页的设置。",
    "link.locked_some": "🔒 此课程链接固定了本页的部分设置：{names}。",
    "link.cached": "⚡ 这组设置的训练结果已有缓存：按“训练”即可立即查看。",
    "link.cx_stale": "◷ 下面显示的是服务器启动时的测量（长度 128、256、512、1024；d = 64）。"
                     "按“运行基准测试”即可测量此链接的设置。",
}
