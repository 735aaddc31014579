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
    // Depth 24 in 32-bit little-endian pixels: blue, green, red, unused.
    let rgb: Vec<u8> = image
        .data
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

impl Drop for Display {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
