import type { Catalogue } from "../catalogue";
import type { settings as english } from "../en/settings";

/** 应用自身的设置：它在桌面上的位置，以及窗口的语言。 */
export const settings: Catalogue<typeof english> = {
  "settings.close.title": "关闭窗口时",
  "settings.close.stay": "让 Switchboard 继续在托盘中运行",
  "settings.close.withTray":
    "通过 Switchboard 访问服务器的智能体仍可使用你的服务器，等待你处理的请求会弹出通知。可从托盘菜单退出。",
  "settings.close.noTray": "此桌面不显示 Switchboard 的托盘图标，因此关闭窗口即退出。",
  "settings.login.title": "登录时",
  "settings.login.start": "登录时在托盘中启动 Switchboard",
  "settings.login.noFolder": "这里没有可放置自启动项的配置文件夹。",
  "settings.login.on": "通过自启动项 {entry}；关闭此项会将其删除。",
  "settings.login.off": "开启此项会写入自启动项 {entry}。",
  "settings.language.title": "语言",
  "settings.language.label": "窗口语言",
  "settings.language.system": "跟随系统（{language}）",
  "settings.language.note": "服务器、模型和智能体发送的文字按原样显示。",
  "settings.theme.title": "颜色",
  "settings.theme.label": "窗口颜色",
  "settings.theme.system": "跟随系统",
  "settings.theme.light": "浅色",
  "settings.theme.dark": "深色",
};
