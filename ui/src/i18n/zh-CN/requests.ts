import type { Catalogue } from "../catalogue";
import type { requests as english } from "../en/requests";

/** 请求用户共享的对话框：读取、文件夹、登录、信息征询。 */
export const requests: Catalogue<typeof english> = {
  "requests.action.cancel": "取消",
  "requests.action.decline": "拒绝",
  "requests.message.label": "来自 {server} 的消息",
  "requests.list.separator": "、",

  "requests.read.title.resource":
    "{by, select, agent {{agent} } model {对话“{conversation}”中的模型} person {你} other {{app} 的应用}}想要从 {server} 读取 <code>{uri}</code>",
  "requests.read.title.subscription":
    "{by, select, agent {{agent} } model {对话“{conversation}”中的模型} person {你} other {{app} 的应用}}想要关注 {server} 上 <code>{uri}</code> 的变化",
  "requests.read.title.prompt":
    "{by, select, agent {{agent} } model {对话“{conversation}”中的模型} person {你} other {{app} 的应用}}想要获取 {server} 的提示词 <code>{name}</code>",
  "requests.read.title.completion":
    "{by, select, agent {{agent} } model {对话“{conversation}”中的模型} person {你} other {{app} 的应用}}想要获取 {server} 为 <code>{of}</code> 的 <code>{argument}</code> 提供的建议",
  "requests.read.title.skill":
    "{by, select, agent {{agent} } model {对话“{conversation}”中的模型} person {你} other {{app} 的应用}}想要使用 {server} 的技能 <code>{name}</code>",
  "requests.read.deny": "拒绝",
  "requests.read.allowSkillAlways": "始终允许此技能的当前版本",
  "requests.read.allowServerAlways": "始终允许读取此服务器",
  "requests.read.allowServerUntilQuit": "允许读取此服务器，直到退出",
  "requests.read.allowOnce": "允许一次",
  "requests.read.detail.label": "读取的内容",
  "requests.read.detail.resource": "资源",
  "requests.read.detail.instructions": "指令",
  "requests.read.detail.asItIs": "当前版本",
  "requests.read.detail.typed": "已输入",
  "requests.read.detail.nothing": "（无）",
  "requests.read.skillNote": "技能是模型遵循的一组指令。始终允许后，如果服务器更改了它，会再次询问你。",
  "requests.read.remember.legend":
    "记住允许{by, select, model {该模型} app {该应用} other {此智能体}}读取此服务器的选择",
  "requests.read.remember.untilQuit": "直到 Switchboard 退出",
  "requests.read.remember.always": "始终（保存在设置中）",

  "requests.subject.prompt": "提示词 {name}",
  "requests.subject.completion": "{of} 的 {argument} 的建议",
  "requests.subject.skill": "技能 {name}",

  "requests.roots.title": "{server} 想要查看你的文件夹",
  "requests.roots.note": "服务器可以读取这些文件夹中的内容，并对其中的文件执行它获准的任何操作。只共享它需要的文件夹。",
  "requests.agentRoots.title": "{agent} 提供了这些文件夹：要向它使用的服务器公开吗？",
  "requests.agentRoots.note":
    "由智能体 {agent} 提供：它使用的服务器（{servers}）可以读取这里保留的文件夹中的内容。请移除它们不需要的文件夹。",
  "requests.folders.shareNothing": "不共享",
  "requests.folders.share": "共享这些文件夹",
  "requests.folders.empty": "未共享任何文件夹。",
  "requests.folders.list": "要共享的文件夹",
  "requests.folders.remove": "移除",
  "requests.folders.removeLabel": "移除 {folder}",
  "requests.folders.path": "文件夹路径",
  "requests.folders.add": "添加",
  "requests.folders.browse": "浏览…",
  "requests.folders.error.empty": "请输入文件夹路径",
  "requests.folders.error.relative": "请输入绝对路径，例如 /home/you/project",
  "requests.folders.error.listed": "此文件夹已在列表中",
  "requests.folders.error.refused": "无法共享此文件夹：{reason}",
  "requests.folders.error.picker": "文件夹选择器出错：{message}",

  "requests.signIn.title": "登录 {server}",
  "requests.signIn.signIn": "登录",
  "requests.signIn.at": "你将在 {issuerHost} 登录",
  "requests.signIn.atOnPage": "你将在 {issuerHost} 登录，页面位于 {host}",
  "requests.signIn.issuer": "授权服务器",
  "requests.signIn.resource": "用于服务器",
  "requests.signIn.scopes": "请求的权限",
  "requests.signIn.defaultScopes": "服务器默认授予的权限",
  "requests.signIn.page": "将在浏览器中打开的页面",
  "requests.signIn.unopenable": "此地址无法打开。请取消登录。",

  "requests.url.title": "{server} 请你打开一个网页",
  "requests.url.open": "在浏览器中打开",
  "requests.url.fine": "此地址看起来没有异常。仅当你预料到这个请求时才打开它。",
  "requests.url.unopenable": "此地址无法打开。请拒绝或取消该请求。",
  "requests.address.on": "页面位于 {host}",
  "requests.address.onReadsAs": "页面位于 {host}，读作 {unicodeHost}",
  "requests.address.full": "完整地址",
  "requests.address.warnings": "警告",

  "requests.warning.invalid": "这不是有效的网址：无法打开。",
  "requests.warning.scheme": "“{scheme}:”类地址会被拒绝：只会打开网址（https）。",
  "requests.warning.http": "未加密（http）：网络上的任何人都可能读取或篡改你看到和发送的内容。",
  "requests.warning.user":
    "地址在主机名前含有用户名（“{user}”）：无论这个名字暗示什么，页面实际位于 {host}。此类地址会被拒绝。",
  "requests.warning.userAndPassword":
    "地址在主机名前含有用户名和密码（“{user}”）：无论这个名字暗示什么，页面实际位于 {host}。此类地址会被拒绝。",
  "requests.warning.ip": "主机是一个纯 IP 地址（{host}），而不是你能认出的名称。",
  "requests.warning.local": "主机是这台计算机或你的本地网络。",
  "requests.warning.internationalized": "主机是一个国际化域名，读作“{unicodeHost}”：其中的字母可能在模仿另一个名称。",
  "requests.warning.mixed": "名称“{label}”混用了{scripts}，这些字母可能与其他字母看起来一模一样。",
  "requests.warning.mentions": "消息中提到的是 {mentioned}，但该地址指向 {host}。",
  "requests.script.joined": "{first}、{second}",
  "requests.script.and": "{first}和{second}",
  "requests.script.latin": "拉丁字母",
  "requests.script.cyrillic": "西里尔字母",
  "requests.script.greek": "希腊字母",
  "requests.script.armenian": "亚美尼亚字母",
  "requests.script.georgian": "格鲁吉亚字母",
  "requests.script.cherokee": "切罗基字母",
  "requests.script.hebrew": "希伯来字母",
  "requests.script.arabic": "阿拉伯字母",
  "requests.script.devanagari": "天城文",
  "requests.script.thai": "泰文",
  "requests.script.cjk": "中日韩文字",
  "requests.script.other": "其他文字",

  "requests.form.title": "{server} 请你提供一些信息",
  "requests.form.submit": "提交",
  "requests.form.note": "你的回答将发送给 {server}。服务器绝不应在表单中索要密码、密钥或卡号。",
  "requests.form.problems": "还有 {count, plural, other {# 个字段}}需要修改，之后才能发送回答。",
};
