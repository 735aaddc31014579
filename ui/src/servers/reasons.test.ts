import { act } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import type { EraReason_Serialize as EraReason, ServerState_Serialize as ServerState } from "../bindings";
import { applyLanguage } from "../i18n";
import samples from "../testing/reasons.json";
import { eraText, whyText } from "./reasons";

/** A server's state of each reason, and why it is in it as the host words it (`src-tauri/told.rs`). */
const states = samples.servers as { why: string; state: ServerState }[];
/** Why each era and revision was chosen, as the engine words it. */
const eras = samples.eras as { text: string; reason: EraReason }[];

afterEach(() => act(() => applyLanguage("en")));

describe("why a server is in its state", () => {
  it("reads in Chinese, the system's and the server's own words in it as they came", () => {
    act(() => applyLanguage("zh-CN"));
    expect(states.map(({ state }) => whyText(state))).toEqual([
      "服务器已退出（exit status: 3）；标准错误输出的最后一行：fatal: no token",
      "服务器已退出（signal: 9 (SIGKILL)）",
      '无法启动 "/opt/mcp/no-such-server"：No such file or directory (os error 2)',
      "无法连接到 http://127.0.0.1:9/mcp：Connection refused",
      '机密 "weather/env/API_KEY" 不在密钥环中；请在服务器设置中重新填写',
      "服务器对 initialize 的回应无效：missing field `protocolVersion`",
      "initialize 在 30.0 秒内没有回应",
      "the server's answer could not be sent: stdin is closed",
      "在 PATH 中找不到 uvx",
      "随应用附带的 demo 不在应用旁边（查找位置：/opt/switchboard）",
      "拒绝使用随应用附带的 demo：任何人都可以写入 /tmp/switchboard",
      "无法创建 /home/ada/.cache/switchboard/npm：Permission denied (os error 13)",
      "没有正在等待浏览器的登录",
      "服务器已停止",
      "主机已停止",
      "服务器未启动，因为这里无法运行任何沙箱：未安装 bubblewrap（bwrap），Landlock 也无法替代（the kernel has no Landlock）。解决办法：安装 bubblewrap（apt install bubblewrap 或 dnf install bubblewrap；在 Ubuntu 上，bubblewrap 还需要一个允许它创建用户命名空间的 AppArmor 配置），或为此服务器关闭沙箱",
      "服务器未启动，因为这里无法运行任何沙箱：bwrap: setting up uid map: Permission denied，Landlock 也无法替代（the kernel has no Landlock）。解决办法：安装 bubblewrap（apt install bubblewrap 或 dnf install bubblewrap；在 Ubuntu 上，bubblewrap 还需要一个允许它创建用户命名空间的 AppArmor 配置），或为此服务器关闭沙箱",
      "沙箱设为 bubblewrap，但它未安装：请安装 bubblewrap（apt install bubblewrap 或 dnf install bubblewrap），或让沙箱自行选择引擎",
      "沙箱设为 Landlock，但它无法在此运行：the kernel has no Landlock",
      "服务器已退出（exit status: 3）；标准错误输出的最后一行：fatal: no token（重启 1 次后放弃）",
      "服务器已退出（signal: 9 (SIGKILL)）（重启 5 次后放弃）",
      "服务器已退出（exit status: 3）；标准错误输出的最后一行：fatal: no token",
      "tracker 要求授权",
      "tracker 再次要求授权",
      "无法读取 https://tracker.example/.well-known/oauth-protected-resource：HTTP 404",
      "服务器的元数据描述的是 https://elsewhere.example/mcp，而不是 https://tracker.example/mcp：拒绝登录",
      "拒绝为登录访问 http://10.0.0.5/authorize：a private address, and the server is not on one",
      "服务器的元数据没有指明授权服务器",
      "为 https://login.example 获取的元数据声称来自 https://evil.example：拒绝使用",
      "https://login.example 不支持使用 S256 的 PKCE，而登录需要它",
      "https://login.example 未提供本应用注册的途径；需要填写客户端 ID 或访问令牌",
      "填写的客户端密钥属于 https://other.example，但服务器指明的是 https://login.example：不会发送到那里",
      "填写的客户端密钥没有指明授权服务器，只会发送给创建它的那一个（服务器指明的是 https://login.example）",
      "本应用为该服务器准备的凭据是为 https://other.example 创建的，但服务器指明的是 https://login.example：不会发送到那里",
      "向 https://login.example 注册失败：HTTP 400: invalid_redirect_uri",
      "登录回应不属于本次登录（state 不匹配）",
      "登录回应来自 https://evil.example，而不是 https://login.example：已拒绝",
      "登录回应没有指明签发者，而 https://login.example 承诺过会指明：已拒绝",
      "授权服务器拒绝了：access_denied（The user denied the request）",
      "授权服务器拒绝了：access_denied",
      "登录回应没有携带授权码",
      "向 https://login.example/token 请求令牌失败：invalid_grant",
      "为获取更多权限范围登录 3 次后，服务器仍然拒绝：repo admin",
      "服务器禁止此请求：not for this account",
      "已退出登录；请重新登录后再使用",
      "登录未完成：你还没有登录",
      "登录未完成：你拒绝了登录",
      "登录未完成：登录已取消",
      "登录未完成：浏览器在 600 秒内没有返回",
      "登录未完成：浏览器在 250 毫秒内没有返回",
      "登录未完成：no loopback port: Address already in use",
      "令牌存储出错：the keyring is locked",
    ]);
  });

  it("and why its revision was chosen, in Chinese", () => {
    act(() => applyLanguage("zh-CN"));
    expect(eras.map(({ reason }) => eraText(reason))).toEqual([
      "server/discover 返回了 2026-07-28",
      "设置中选择了 initialize 握手的版本；initialize 返回了 2025-11-25",
      "server/discover 被拒绝：服务器支持 2025-06-18, 2025-11-25；initialize 返回了 2025-11-25",
      "server/discover 被拒绝（-32601 Method not found）；initialize 返回了 2025-06-18",
      "服务器回应 ping 之后，server/discover 在 2.5 秒内没有回应；initialize 返回了 2025-06-18",
      "server/discover 在 10 秒内没有回应，然后server/discover 返回了 2026-07-28",
      "server/discover 被拒绝，HTTP 405；initialize 返回了 2025-03-26",
      "server/discover 失败（the server's event stream ended before the response arrived）；initialize 返回了 2025-06-18",
      "server/discover 收到的回应无法读取；initialize 返回了 2025-06-18",
      "server/discover 的回应不是发现结果（missing field `supportedVersions`）；initialize 返回了 2025-11-25",
      "server/discover 没有列出本客户端支持的无状态版本（2031-01-01）；initialize 返回了 2025-11-25",
    ]);
  });
});
