//! What the window's web engine may spend. The UI is one local page of forms and lists:
//! it needs no back/forward cache, no WebGL or Web Audio, no browser-sized caches. On
//! Linux those are on by default in WebKitGTK (wry turns on the first two), so they are
//! turned off here, in the app, for every person who runs it (not only in a benchmark's
//! environment). The `webkit2gtk` crate is the one Tauri's webview (wry)
//! already links: its settings are reached through `with_webview`, with no second engine.

use tauri::{Manager, Runtime};

/// Sets, for the app and the WebKit processes it starts, what must be known before GTK
/// opens the display: called first thing in `run`, while the process has one thread.
pub fn prepare_environment() {
    platform::prepare_environment();
}

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

#[cfg(target_os = "linux")]
mod platform {
    use webkit2gtk::{
        CacheModel, HardwareAccelerationPolicy, SettingsExt, WebContextExt, WebViewExt,
    };

    /// Keeps OpenGL out of the app's process. The page is painted without the GPU
    /// (`HardwareAccelerationPolicy::Never` below), yet at start GTK queries the display's
    /// GLX and WebKit opens an EGL display only to ask which GPU to hand the web process:
    /// each loads the GL driver, on a display without one Mesa's software renderer with
    /// LLVM (about 26 MiB PSS, docs/performance.md). With painting off the GPU nothing
    /// reads what they learn, so on a machine with a real GPU these change nothing seen.
    /// A value the person set is kept.
    const WITHOUT_GL: [(&str, &str); 3] = [
        // GTK's GL for the window: only WebKit's accelerated backing store would use it.
        ("GDK_GL", "disable"),
        // The DMA-BUF renderer is WebKit's only accelerated path on GTK 3: off with the policy.
        ("WEBKIT_DISABLE_DMABUF_RENDERER", "1"),
        // Names the render device instead of asking EGL for it. The web process would
        // only open it for the DMA-BUF renderer, which is off.
        ("WEBKIT_WEB_RENDER_DEVICE_FILE", "/dev/null"),
    ];

    pub fn prepare_environment() {
        for (name, value) in WITHOUT_GL {
            if std::env::var_os(name).is_none() {
                // SAFETY: called at the start of `run`, before the app starts any thread,
                // so nothing reads the environment while it changes.
                #[allow(unsafe_code)]
                unsafe {
                    std::env::set_var(name, value)
                };
            }
        }
    }

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
    /// WebView2 and WKWebView load no GL driver of their own for a window painted this way.
    pub fn prepare_environment() {}

    /// WebView2 and WKWebView size their caches and pick their renderer themselves.
    pub fn economize(_webview: tauri::webview::PlatformWebview) {}
}
