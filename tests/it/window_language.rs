//! The window speaks the language the person chooses in the settings: at once, and after a
//! restart (the choice kept in the configuration); and, with none chosen, the system's, as
//! the tray does. Screenshots of the views it touches in Chinese, drawn with the CJK font
//! `scripts/setup` installs.

use crate::support::desktop::Desktop;
use crate::support::window::{App, SHOWN, system_speaking};

#[test]
fn the_window_speaks_chinese_once_chosen_and_after_a_restart() {
    let app = App::start();
    app.wait_running("demo");
    app.view("settings");
    app.window.wait_for_text("#view-title", "Settings", SHOWN);
    let chinese = app.window.find("select#language option[value='zh-CN']");
    app.window.click(&chinese);
    app.window.wait_for_text("#view-title", "设置", SHOWN);
    app.window
        .wait_for_text(".desktop-settings", "窗口语言", SHOWN);
    app.window.screenshot("settings-zh-CN");
    assert_eq!(app.config()["settings"]["language"], "zh-CN");

    let app = app.restart();
    app.window.wait_for_text("#view-title", "服务器", SHOWN);
    app.window
        .wait_for_text("nav[aria-label='主导航']", "智能体", SHOWN);
    app.window.screenshot("servers-zh-CN");
}

#[test]
fn on_a_chinese_system_the_window_and_the_tray_speak_chinese() {
    let desktop = Desktop::start();
    let app = App::start_with(|_| {
        let mut env = desktop.env();
        env.extend(system_speaking("zh_CN.UTF-8"));
        env
    });
    app.window.wait_for_text("#view-title", "服务器", SHOWN);
    assert_eq!(
        desktop.tray_labels(),
        ["打开 Switchboard", "没有等待处理的请求", "退出 Switchboard"]
    );
}
