"""English that Gradio's and Plotly's frontends write themselves, and its Chinese (en + zh-CN).

Gradio 6.31 writes some labels in its own code rather than as i18n keys that gr.I18n could
translate (an icon button's tooltip "Copy table data", a slider's "Reset to default value");
Plotly's modebar says "Zoom" and "Pan" unless a locale is registered. On a Chinese page the
head script (webapp/pages/frontend_text.py) puts the Chinese in their place. Each English text
here is exactly what the frontend writes (Plotly: its locale dictionary's key); "{label}" stands
for the component's own label inside such a text.
"""

from __future__ import annotations

EN: dict[str, str] = {
    # Gradio: tooltips and screen-reader labels of icon buttons, tables, sliders, uploads, toasts
    "fe.gradio.copy": "Copy",
    "fe.gradio.copy_lower": "copy",  # a Markdown code block's copy button
    "fe.gradio.download": "Download",
    "fe.gradio.copy_table": "Copy table data",
    "fe.gradio.copied_table": "Copied to clipboard",
    "fe.gradio.fullscreen": "Fullscreen",
    "fe.gradio.exit_fullscreen": "Exit fullscreen mode",
    "fe.gradio.table_actions": "Table actions",
    "fe.gradio.empty_value": "Empty value",
    "fe.gradio.upload": "Click to upload or drop files",
    "fe.gradio.footer": "Gradio footer navigation",
    "fe.gradio.reset_slider": "Reset to default value",
    "fe.gradio.slider_number": "number input for {label}",
    "fe.gradio.slider_range": "range slider for {label}",
    "fe.gradio.close": "Close",
    "fe.gradio.code_input": "Code input container",
    # Plotly's modebar and its messages (2-D plots)
    "fe.plotly.autoscale": "Autoscale",
    "fe.plotly.box_select": "Box Select",
    "fe.plotly.lasso_select": "Lasso Select",
    "fe.plotly.compare_hover": "Compare data on hover",
    "fe.plotly.closest_hover": "Show closest data on hover",
    "fe.plotly.toggle_closest": "Toggle show closest data on hover",
    "fe.plotly.spikes": "Toggle Spike Lines",
    "fe.plotly.zoom_back": "Double-click to zoom back out",
    "fe.plotly.isolate": "Double-click on legend to isolate one trace",
    "fe.plotly.png": "Download plot as a PNG",
    "fe.plotly.download": "Download plot",
    "fe.plotly.pan": "Pan",
    "fe.plotly.produced": "Produced with Plotly.js",
    "fe.plotly.reset": "Reset",
    "fe.plotly.reset_axes": "Reset axes",
    "fe.plotly.reset_view": "Reset view",
    "fe.plotly.snapshot_ok": "Snapshot succeeded",
    "fe.plotly.snapshot_wait": "Taking snapshot - this may take a few seconds",
    "fe.plotly.snapshot_failed": "Sorry, there was a problem downloading your snapshot!",
    "fe.plotly.zoom": "Zoom",
    "fe.plotly.zoom_in": "Zoom in",
    "fe.plotly.zoom_out": "Zoom out",
}

ZH: dict[str, str] = {
    "fe.gradio.copy": "复制",
    "fe.gradio.copy_lower": "复制",
    "fe.gradio.download": "下载",
    "fe.gradio.copy_table": "复制表格数据",
    "fe.gradio.copied_table": "已复制到剪贴板",
    "fe.gradio.fullscreen": "全屏",
    "fe.gradio.exit_fullscreen": "退出全屏",
    "fe.gradio.table_actions": "表格操作",
    "fe.gradio.empty_value": "空值",
    "fe.gradio.upload": "点击上传或拖放文件",
    "fe.gradio.footer": "Gradio 页脚导航",
    "fe.gradio.reset_slider": "恢复默认值",
    "fe.gradio.slider_number": "{label}（数字输入框）",
    "fe.gradio.slider_range": "{label}（滑块）",
    "fe.gradio.close": "关闭",
    "fe.gradio.code_input": "代码输入框",
    "fe.plotly.autoscale": "自动缩放",
    "fe.plotly.box_select": "矩形框选",
    "fe.plotly.lasso_select": "套索选择",
    "fe.plotly.compare_hover": "悬停时比较数据",
    "fe.plotly.closest_hover": "悬停时显示最近的数据",
    "fe.plotly.toggle_closest": "切换悬停时显示最近的数据",
    "fe.plotly.spikes": "切换辅助线",
    "fe.plotly.zoom_back": "双击缩小回原样",
    "fe.plotly.isolate": "双击图例只显示这一条",
    "fe.plotly.png": "下载为 PNG 图片",
    "fe.plotly.download": "下载图表",
    "fe.plotly.pan": "平移",
    "fe.plotly.produced": "由 Plotly.js 绘制",
    "fe.plotly.reset": "重置",
    "fe.plotly.reset_axes": "重置坐标轴",
    "fe.plotly.reset_view": "重置视图",
    "fe.plotly.snapshot_ok": "快照已生成",
    "fe.plotly.snapshot_wait": "正在生成快照，可能需要几秒钟",
    "fe.plotly.snapshot_failed": "抱歉，下载快照时出了问题！",
    "fe.plotly.zoom": "缩放",
    "fe.plotly.zoom_in": "放大",
    "fe.plotly.zoom_out": "缩小",
}
