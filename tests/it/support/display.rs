//! A private X server for the window under test.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};

pub struct Display {
    child: Child,
    pub name: String,
}

impl Display {
    /// Starts Xvfb on the first free display number. Xvfb writes that number to the
    /// `-displayfd` descriptor once it accepts connections, which is our readiness signal.
    pub fn start() -> Self {
        let mut child = Command::new("Xvfb")
            .args([
                "-displayfd",
                "1",
                "-screen",
                "0",
                "1280x800x24",
                "-nolisten",
                "tcp",
            ])
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start Xvfb (is the `xvfb` package installed? run scripts/setup)");
        let stdout = child.stdout.take().expect("Xvfb stdout");
        let mut line = String::new();
        BufReader::new(stdout)
            .read_line(&mut line)
            .expect("read the display number from Xvfb");
        let number = line.trim();
        assert!(!number.is_empty(), "Xvfb exited before it was ready");
        Self {
            child,
            name: format!(":{number}"),
        }
    }
}

/// A PNG of the whole screen of display `name`, read from the X server: what a person would
/// see, however the web engine paints (WebKit's own screenshots wait for a paint that a
/// page drawn without compositing may never make).
pub fn capture(name: &str) -> Vec<u8> {
    let (width, height, pixels) = screen(name);
    // Depth 24 in 32-bit little-endian pixels: blue, green, red, unused.
    let rgb: Vec<u8> = pixels
        .chunks_exact(4)
        .flat_map(|pixel| [pixel[2], pixel[1], pixel[0]])
        .collect();
    let mut png = Vec::new();
    let mut encoder = png::Encoder::new(&mut png, width.into(), height.into());
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    encoder
        .write_header()
        .and_then(|mut writer| writer.write_image_data(&rgb))
        .expect("encode the screenshot");
    png
}

/// Whether display `name` shows more than `colours` distinct colours: a window whose page
/// is painted, where an empty screen or a blank web view shows one or two.
pub fn shows_colours(name: &str, colours: usize) -> bool {
    let (_, _, pixels) = screen(name);
    let mut seen = std::collections::HashSet::new();
    pixels
        .chunks_exact(4)
        .any(|pixel| seen.insert([pixel[0], pixel[1], pixel[2]]) && seen.len() > colours)
}

/// The screen's width, height and pixels (32 bits each, blue first).
fn screen(name: &str) -> (u16, u16, Vec<u8>) {
    use x11rb::connection::Connection;
    use x11rb::protocol::xproto::{ConnectionExt, ImageFormat};
    let (conn, screen) = x11rb::connect(Some(name)).expect("connect to Xvfb");
    let root = &conn.setup().roots[screen];
    let (width, height) = (root.width_in_pixels, root.height_in_pixels);
    let image = conn
        .get_image(ImageFormat::Z_PIXMAP, root.root, 0, 0, width, height, !0)
        .expect("ask for the screen")
        .reply()
        .expect("the screen's pixels");
    (width, height, image.data)
}

impl Drop for Display {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The top-level windows of display `name` titled `title` that are on the screen.
pub fn shown_windows(name: &str, title: &str) -> usize {
    use x11rb::connection::Connection;
    use x11rb::protocol::xproto::MapState;
    let (conn, screen) = x11rb::connect(Some(name)).expect("connect to Xvfb");
    let root = conn.setup().roots[screen].root;
    titled(&conn, root, title)
        .into_iter()
        .filter(|window| {
            use x11rb::protocol::xproto::ConnectionExt;
            conn.get_window_attributes(*window)
                .ok()
                .and_then(|c| c.reply().ok())
                .is_some_and(|a| a.map_state == MapState::VIEWABLE)
        })
        .count()
}

/// Asks every top-level window titled `title` to close, as a window manager's close button
/// does: the WM_DELETE_WINDOW message of the ICCCM.
pub fn close_windows(name: &str, title: &str) {
    use x11rb::connection::Connection;
    use x11rb::protocol::xproto::{ClientMessageEvent, ConnectionExt, EventMask};
    let (conn, screen) = x11rb::connect(Some(name)).expect("connect to Xvfb");
    let root = conn.setup().roots[screen].root;
    let atom = |name: &[u8]| {
        conn.intern_atom(false, name)
            .expect("ask for an atom")
            .reply()
            .expect("an atom")
            .atom
    };
    let (protocols, delete) = (atom(b"WM_PROTOCOLS"), atom(b"WM_DELETE_WINDOW"));
    for window in titled(&conn, root, title) {
        let message = ClientMessageEvent::new(32, window, protocols, [delete, 0, 0, 0, 0]);
        conn.send_event(false, window, EventMask::NO_EVENT, message)
            .expect("send the close request");
    }
    // A round trip: the server has sent the messages on before the connection goes.
    conn.get_input_focus()
        .expect("ask for the focus")
        .reply()
        .expect("the server handled the messages");
}

/// The children of `root` whose WM_NAME is `title`.
fn titled(conn: &impl x11rb::connection::Connection, root: u32, title: &str) -> Vec<u32> {
    use x11rb::protocol::xproto::{AtomEnum, ConnectionExt};
    let children = conn
        .query_tree(root)
        .expect("ask for the windows")
        .reply()
        .expect("the windows")
        .children;
    children
        .into_iter()
        .filter(|window| {
            conn.get_property(false, *window, AtomEnum::WM_NAME, AtomEnum::ANY, 0, 256)
                .ok()
                .and_then(|c| c.reply().ok())
                .is_some_and(|p| p.value == title.as_bytes())
        })
        .collect()
}
