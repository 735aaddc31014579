//! The tray icon, which holds the app while its window is closed. It shows whether requests
//! wait for the person (a badge on the icon, their count beside it, a line of its menu), and
//! its menu opens the window, the oldest waiting request, or quits.
//!
//! On Linux the tray is shown through libayatana-appindicator, loaded when the tray is
//! made. Where that library is missing there is no tray, and closing the window quits, as
//! it must when nothing could bring the window back. Where no tray host runs (a bare X
//! server) the icon is made but not seen; a second launch still brings the window back.

use std::panic::AssertUnwindSafe;

use switchboard_desk::Desk;
use tauri::image::Image;
use tauri::menu::{Menu, MenuItem, PredefinedMenuItem};
use tauri::tray::{TrayIcon, TrayIconBuilder};
use tauri::{AppHandle, Manager, Runtime};

use fluent_bundle::FluentValue;

use crate::speech::say;
use crate::window;

const OPEN: &str = "open";
const REVIEW: &str = "review";
const QUIT: &str = "quit";

/// The tray, while the app has one.
pub struct Tray<R: Runtime> {
    icon: TrayIcon<R>,
    open: MenuItem<R>,
    review: MenuItem<R>,
    quit: MenuItem<R>,
    idle: Image<'static>,
    waiting: Image<'static>,
}

/// Whether a tray holds the app (closing the window then leaves it running).
pub fn holds<R: Runtime>(app: &AppHandle<R>) -> bool {
    app.try_state::<Tray<R>>().is_some()
}

/// Puts the app in the tray, if the desktop allows it.
pub fn create<R: Runtime>(app: &AppHandle<R>) {
    // The library is loaded on first use, and its absence is a panic there.
    match std::panic::catch_unwind(AssertUnwindSafe(|| build(app))) {
        Ok(Ok(tray)) => {
            app.manage(tray);
        }
        Ok(Err(err)) => tracing::warn!("no tray icon ({err}): closing the window quits"),
        Err(_) => tracing::warn!(
            "no tray icon (libayatana-appindicator3-1 is missing): closing the window quits"
        ),
    }
}

fn build<R: Runtime>(app: &AppHandle<R>) -> tauri::Result<Tray<R>> {
    let idle = app
        .default_window_icon()
        .cloned()
        .ok_or_else(|| tauri::Error::AssetNotFound("the app's icon".into()))?
        .to_owned();
    let waiting = Image::new_owned(
        badged(idle.rgba(), idle.width()),
        idle.width(),
        idle.height(),
    );
    let open = MenuItem::with_id(app, OPEN, say(app, "tray-open", &[]), true, None::<&str>)?;
    let review = MenuItem::with_id(app, REVIEW, review_text(app, 0), false, None::<&str>)?;
    let quit = MenuItem::with_id(app, QUIT, say(app, "tray-quit", &[]), true, None::<&str>)?;
    let separator = PredefinedMenuItem::separator(app)?;
    let menu = Menu::with_items(app, &[&open, &review, &separator, &quit])?;
    let icon = TrayIconBuilder::with_id("switchboard")
        .icon(idle.clone())
        .tooltip(tooltip(app, 0))
        .menu(&menu)
        .on_menu_event(|app, event| match event.id().as_ref() {
            OPEN => window::present(app, None),
            REVIEW => window::present(app, oldest_waiting(app)),
            // Through the app's exit, which stops the servers gracefully.
            QUIT => app.exit(0),
            _ => {}
        })
        .build(app)?;
    Ok(Tray {
        icon,
        open,
        review,
        quit,
        idle,
        waiting,
    })
}

fn oldest_waiting<R: Runtime>(app: &AppHandle<R>) -> Option<u64> {
    let desk = app.try_state::<Desk>()?;
    desk.trust().pending().iter().map(|p| p.id).min()
}

/// Says the tray's words again, in the language the app speaks now (it may have changed),
/// with `count` requests waiting.
pub fn speak<R: Runtime>(app: &AppHandle<R>, count: usize) {
    let Some(tray) = app.try_state::<Tray<R>>() else {
        return;
    };
    let _ = tray.open.set_text(say(app, "tray-open", &[]));
    let _ = tray.quit.set_text(say(app, "tray-quit", &[]));
    show_waiting(app, count);
}

/// Shows in the tray how many requests wait for the person.
pub fn show_waiting<R: Runtime>(app: &AppHandle<R>, count: usize) {
    let Some(tray) = app.try_state::<Tray<R>>() else {
        return;
    };
    let _ = tray.review.set_text(review_text(app, count));
    let _ = tray.review.set_enabled(count > 0);
    let icon = if count > 0 { &tray.waiting } else { &tray.idle };
    let _ = tray.icon.set_icon(Some(icon.clone()));
    // Beside the icon on Linux; the tooltip elsewhere.
    let _ = tray.icon.set_title((count > 0).then(|| count.to_string()));
    let _ = tray.icon.set_tooltip(Some(tooltip(app, count)));
}

fn review_text<R: Runtime>(app: &AppHandle<R>, count: usize) -> String {
    say(app, "tray-review", &[("count", FluentValue::from(count))])
}

fn tooltip<R: Runtime>(app: &AppHandle<R>, count: usize) -> String {
    say(app, "tray-tooltip", &[("count", FluentValue::from(count))])
}

/// The RGBA icon `rgba`, `width` pixels wide and as high, with a red dot in its lower right
/// corner: the icon of an app that waits for its person.
fn badged(rgba: &[u8], width: u32) -> Vec<u8> {
    let mut out = rgba.to_vec();
    let side = i64::from(width);
    let radius = (side * 3 / 10).max(2);
    let ring = (side / 24).max(1);
    let centre = side - radius - 1;
    for (n, pixel) in out.chunks_exact_mut(4).enumerate() {
        let (x, y) = (n as i64 % side, n as i64 / side);
        let distance = (x - centre).pow(2) + (y - centre).pow(2);
        if distance <= (radius - ring).pow(2) {
            pixel.copy_from_slice(&[220, 38, 38, 255]);
        } else if distance <= radius.pow(2) {
            pixel.copy_from_slice(&[255, 255, 255, 255]);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_waiting_icon_has_a_red_dot_in_its_corner_and_is_otherwise_the_same() {
        let side = 32;
        let blue = [0, 0, 255, 255].repeat(side * side);
        let badged = badged(&blue, side as u32);
        let at = |x: usize, y: usize| &badged[(y * side + x) * 4..][..4];
        assert_eq!(at(side - 6, side - 6), [220, 38, 38, 255]);
        assert_eq!(at(2, 2), [0, 0, 255, 255]);
        assert_eq!(at(side - 6, 2), [0, 0, 255, 255]);
        assert_eq!(badged.len(), blue.len());
    }
}
