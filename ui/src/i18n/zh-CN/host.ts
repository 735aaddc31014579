import type { Catalogue } from "../catalogue";
import type { host as english } from "../en/host";

/** 主机请求的相关提示：队列中等待的请求，以及已撤回的请求；以及跟随最新内容的列表。 */
export const host: Catalogue<typeof english> = {
  "host.queued.label": "等待处理的请求",
  "host.queued.toolCall": "请求调用 {tool}",
  "host.queued.read": "被请求读取 {subject}",
  "host.queued.sampling": "请求模型回复",
  "host.queued.elicitation": "问你：{message}",
  "host.queued.elicitationNoMessage": "向你提出了一个问题",
  "host.queued.roots": "想知道它可以查看哪些文件夹",
  "host.queued.agentRoots": "向 {servers} 提供它的文件夹",
  "host.queued.signIn": "等待你在 {issuer} 登录",
  "host.queued.others": "，另有 {count, plural, other {# 个请求}}在等待",
  "host.queued.review": "审阅",
  "host.queued.showAll": "查看全部",
  "host.queued.later": "稍后",
  "host.withdrawn.label": "已撤回的请求",
  "host.withdrawn.roots": "撤回了查看你文件夹的请求：它已不再等待你的回答。",
  "host.withdrawn.sampling": "撤回了对模型回复的请求：它已不再等待你的回答。",
  "host.withdrawn.elicitation": "撤回了它的问题：它已不再等待你的回答。",
  "host.withdrawn.agentRoots": "撤回了提供其文件夹的请求：它已不再等待你的回答。",
  "host.withdrawn.other": "撤回了它的请求：它已不再等待你的回答。",
  "host.withdrawn.dismiss": "知道了",
  "host.followTail.jumpToLatest": "跳到最新",
};
