//! What the window's web engine may spend. The UI is one local page of forms and lists:
//! it needs no back/forward cache, no WebGL or Web Audio, no browser-sized caches. On
//! Linux those are on by default in WebKitGTK (wry turns on the first two), so they are
//! turned off here, in the app, for every person who runs it (not only in a benchmark's
//! environment). The `webkit2gtk` crate is the one Tauri's webview (wry)
//! already links: its settings are reached through `with_webview`, with no second engine.

use tauri::{Manager, Runtime};

/// Applies the settings to the main window's web view. Called in the app's setup, on the
/// main thread right after the window is built and before the event loop runs again, so
/// the web process is created with them rather than changed after its first paint.
pub fn economize<R: Runtime>(app: &tauri::App<R>) {
    let Some(window) = app.get_webview_window("main") else {
        tracing::warn!("no main window: its web view keeps WebKit's defaults");
        return;
    };
    if let Err(err) = window.with_webview(platform::economize) {
        tracing::warn!("the web view's settings could not be applied: {err}");
    }
}

/// Keeps an OpenGL driver out of the app's own process. The page is painted without
/// compositing, yet GTK picks GL visuals as it opens the display, and WebKit opens a GL
/// display only to learn which GPU to hand the web process and to check its DMA-BUF
/// renderer: each loads Mesa's driver, with LLVM when it is software GL (about 27 MiB,
/// docs/performance.md). All three variables are needed; one the person set is kept. The
/// servers the app starts inherit them: they mean something only to GTK and WebKit.
#[cfg(target_os = "linux")]
pub fn keep_gl_out() {
    for (name, value) in [
        ("GDK_GL", "disable"),
        ("WEBKIT_DISABLE_DMABUF_RENDERER", "1"),
        ("WEBKIT_WEB_RENDER_DEVICE_FILE", "/dev/null"),
    ] {
        if std::env::var_os(name).is_none() {
            // SAFETY: called first thing in `run`, before the app or any library starts a
            // thread that could read the environment meanwhile.
            #[allow(unsafe_code)]
            unsafe {
                std::env::set_var(name, value)
            };
        }
    }
}

#[cfg(not(target_os = "linux"))]
pub fn keep_gl_out() {}

#[cfg(target_os = "linux")]
mod platform {
    use webkit2gtk::{
        CacheModel, HardwareAccelerationPolicy, SettingsExt, WebContextExt, WebViewExt,
    };

    pub fn economize(webview: tauri::webview::PlatformWebview) {
        let webview = webview.inner();
        if let Some(settings) = webview.settings() {
            // Painted without GPU compositing: a page of forms gains nothing from it, and it
            // costs about 90 MiB in the web process (docs/performance.md). (WebKit's
            // automation then never answers some screenshots: the tests take theirs from the
            // X server.)
            settings.set_hardware_acceleration_policy(HardwareAccelerationPolicy::Never);

            // A single page that never navigates: nothing to keep for "back".
            settings.set_enable_page_cache(false);
            // Features the UI never uses; wry turns the first two on for every app.
            settings.set_enable_webgl(false);
            settings.set_enable_webaudio(false);
            settings.set_enable_media_stream(false);
            settings.set_enable_webrtc(false);
        }
        if let Some(context) = webview.context() {
            // The smallest memory and disk caches: every file comes from the app itself.
            context.set_cache_model(CacheModel::DocumentViewer);
        }
    }
}

#[cfg(not(target_os = "linux"))]
mod platform {
    /// WebView2 and WKWebView size their caches and pick their renderer themselves.
    pub fn economize(_webview: tauri::webview::PlatformWebview) {}
}
