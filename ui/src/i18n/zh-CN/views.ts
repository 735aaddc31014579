import type { Catalogue } from "../catalogue";
import type { views as english } from "../en/views";

/** 服务器自有视图（MCP Apps）周围的文字。 */
export const views: Catalogue<typeof english> = {
  "views.frame.label": "来自 {server} 的应用",
  "views.frame.heading": "来自 <strong>{server}</strong> 的应用",
  "views.frame.title": "来自 {server} 的应用：{tool}",
  "views.frame.policy": "可加载的内容",
  "views.frame.fullscreen": "全屏",
  "views.frame.inline": "恢复内嵌显示",
  "views.frame.close": "关闭",
  "views.frame.error": "无法显示应用：{error}",
  "views.frame.skipped": "未显示：应用已更改，你选择了不显示它。",
  "views.changed.label": "{server} 的应用已更改",
  "views.changed.intro": "<strong>{server}</strong> 的应用自 {shownAt} 显示以来已有更改。在你同意之前，它不会显示。",
  "views.changed.server": "它的服务器的启动方式与当时不同。",
  "views.changed.page":
    "它的页面已不同：当时 {sizeThen}，现在 {sizeNow}（SHA-256 当时为 <code>{hashThen}…</code>，现在为 <code>{hashNow}…</code>）。",
  "views.changed.policy": "它可以加载的内容已更改：",
  "views.changed.dontShow": "不显示",
  "views.changed.show": "显示更改后的应用",
  "views.link.title": "{server} 的应用想要打开一个网页",
  "views.link.fine": "这个地址看起来没有异常。请仅在你让应用打开它时才打开。",
  "views.link.dontOpen": "不打开",
  "views.link.open": "在浏览器中打开",
  "views.download.title": "{server} 的应用想要保存{count, plural, =1 {一个文件} other { # 个文件}}",
  "views.download.files": "文件",
  "views.download.typeAndSize": "{type}，{size}",
  "views.download.note": "每个文件保存到哪里，由你选择。",
  "views.download.dontSave": "不保存",
  "views.download.save": "保存…",
};
