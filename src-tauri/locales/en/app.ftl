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
