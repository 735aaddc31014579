# What Switchboard says outside its window: the tray and desktop notifications.

tray-open = Open Switchboard
tray-quit = Quit Switchboard
tray-review = { $count ->
    [0] No request waits
    [one] Review the waiting request
   *[other] Review { $count } waiting requests
}
tray-tooltip = { $count ->
    [0] Switchboard
    [one] Switchboard: a request waits for you
   *[other] Switchboard: { $count } requests wait for you
}
notice-request-title = Switchboard: a request waits for you
notice-task-title = Switchboard: a task ended
notice-task-body = { $outcome ->
    [cancelled] { $tool } of { $server } was cancelled: it is in the Tasks view
    [failed] { $tool } of { $server } failed: why is in the Tasks view
   *[done] { $tool } of { $server } is done: its result is in the Tasks view
}
notice-stays-title = Switchboard is still running
notice-stays-body = Your servers and agents' gateway keep running in the tray. Open the window again from the tray or by starting Switchboard; quit from the tray's menu, or choose in Settings to quit when the window closes.
notice-request-body = { $kind ->
    [agent-call] { $who } wants { $server } to call { $what }
    [read] { $who } wants to read { $what } of { $server }
    [sampling] { $server } asks for a model reply
    [question] { $server } asks you a question
    [folders] { $server } asks which folders it may see
    [agent-folders] { $who } offers folders to its servers
    [sign-in] Sign in to { $server } at { $what }
   *[call] { $server } wants to call { $what }
}
notice-origin = { $origin ->
    [person] You
    [model] The model in “{ $name }”
    [app] The app of { $name }
   *[agent] { $name }
}
