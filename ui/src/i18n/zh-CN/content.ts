import type { Catalogue } from "../catalogue";
import type { content as english } from "../en/content";

/** 服务器发来的内容周围的文字。 */
export const content: Catalogue<typeof english> = {
  "content.annotations.for": "面向{audience}",
  "content.annotations.user": "用户",
  "content.annotations.assistant": "助手",
  "content.annotations.otherRole": "{role}",
  "content.annotations.priority": "优先级 {priority}",
  "content.annotations.modified": "修改于 {when}",

  "content.binary.unknownType": "未知类型",
  "content.binary.notBase64": "{kind}：数据不是有效的 base64，因此不予显示。",
  "content.binary.image": "图像（{kind}，{size}）",
  "content.binary.audio": "音频（{kind}，{size}）",
  "content.binary.caption": "{kind}，{size}",
  "content.binary.svg": "SVG 图像，{size}：SVG 可能携带脚本，因此不予绘制。",
  "content.binary.svgSource": "SVG 源代码",
  "content.binary.other": "二进制数据，{kind}，{size}",

  "content.unknown.ofType": "本应用无法显示的内容（{type}）：",
  "content.unknown.untyped": "本应用无法显示的内容：",

  "content.resource.empty": "该资源没有内容。",
  "content.link.typeAndSize": "{type}，{size}",
  "content.link.read": "读取",
  "content.link.readLabel": "读取 {uri}",

  "content.text.viewAsMarkdown": "以 Markdown 格式查看",
  "content.markdown.image": "[图像：{alt}]",
  "content.markdown.imageNoAlt": "[图像：无描述]",
  "content.markdown.linkUrl": "（{url}）",
  "content.markdown.copyLabel": "复制这段代码",
  "content.markdown.copy": "复制",
  "content.markdown.copied": "已复制",
  "content.markdown.copyFailed": "无法复制",

  "content.result.label": "工具结果",
  "content.result.failed": "工具报告了错误",
  "content.result.empty": "工具没有返回任何内容。",
  "content.result.structured": "结构化内容",
  "content.result.meta": "元数据（_meta）",
};
