# Switchboard 在窗口之外说的话：托盘和桌面通知。

tray-open = 打开 Switchboard
tray-quit = 退出 Switchboard
tray-review = { $count ->
    [0] 没有等待处理的请求
   *[other] 查看 { $count } 个等待处理的请求
}
tray-tooltip = { $count ->
    [0] Switchboard
   *[other] Switchboard：{ $count } 个请求等待你处理
}
notice-request-title = Switchboard：有请求等待你处理
notice-task-title = Switchboard：任务已结束
notice-task-body = { $outcome ->
    [cancelled] { $server } 的 { $tool } 已取消：详见“任务”视图
    [failed] { $server } 的 { $tool } 失败：原因见“任务”视图
   *[done] { $server } 的 { $tool } 已完成：结果见“任务”视图
}
notice-stays-title = Switchboard 仍在运行
notice-stays-body = 你的服务器和智能体网关会在托盘中继续运行。可从托盘或再次启动 Switchboard 重新打开窗口；可从托盘菜单退出，或在“设置”中选择关闭窗口时退出。
notice-request-body = { $kind ->
    [agent-call] { $who } 请求 { $server } 调用 { $what }
    [read] { $who } 请求读取 { $server } 的 { $what }
    [sampling] { $server } 请求模型回复
    [question] { $server } 向你提问
    [folders] { $server } 询问可以查看哪些文件夹
    [agent-folders] { $who } 向其服务器提供文件夹
    [sign-in] 在 { $what } 登录 { $server }
   *[call] { $server } 请求调用 { $what }
}
notice-origin = { $origin ->
    [person] 你
    [model] 对话“{ $name }”中的模型
    [app] { $name } 的应用
   *[agent] { $name }
}
