//! The tray icon: a ring gauge of the busiest live session's context use (the app icon's
//! design), a pause sign while capture is paused, a red ring with `!` on a store problem; drawn
//! as RGBA so it can be tested without a display.

use crate::meter::Level;

type Rgba = [u8; 4];

const TRACK: Rgba = [0x6b, 0x72, 0x80, 0xff];
const CALM: Rgba = [0x2b, 0xb6, 0x73, 0xff];
const FILLING: Rgba = [0xf0, 0xa2, 0x02, 0xff];
const FULL: Rgba = [0xe5, 0x48, 0x4d, 0xff];
const CLEAR: Rgba = [0, 0, 0, 0];

/// The colour of the filled arc: it turns amber, then red, as auto-compaction gets close.
fn colour(level: Level) -> Rgba {
    match level {
        Level::Calm => CALM,
        Level::Filling => FILLING,
        Level::Full => FULL,
    }
}

/// What the tray icon shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Face {
    /// No live session: the bare ring.
    Idle,
    /// The busiest session's percent, in steps of ten (rounded down, so a step never shows a
    /// colour its sessions have not reached): the icon changes at most ten times on the way.
    Band(u8),
    Paused,
    Problem,
}

impl Face {
    /// The band `percent` falls in.
    pub fn band(percent: u8) -> Face {
        Face::Band(percent.min(100) / 10 * 10)
    }
}

/// A `size`×`size` RGBA image of `face`.
pub fn draw(face: Face, size: u32) -> Vec<u8> {
    match face {
        Face::Idle => render(None, size),
        Face::Band(percent) => render(Some(percent), size),
        Face::Paused => with_glyph(render(None, size), size, TRACK, |x, y| {
            // Two upright bars inside the ring's hole (a radius of 0.3).
            y.abs() <= 0.16 && (0.06..=0.15).contains(&x.abs())
        }),
        Face::Problem => with_glyph(render(Some(100), size), size, FULL, |x, y| {
            // An exclamation mark: a stroke, a gap, a dot.
            x.abs() <= 0.06 && ((-0.2..=0.05).contains(&y) || (0.1..=0.2).contains(&y))
        }),
    }
}

/// `image` with the pixels `inside` takes (coordinates from -0.5 to 0.5 across the icon,
/// y downwards) painted `colour`.
fn with_glyph(
    mut image: Vec<u8>,
    size: u32,
    colour: Rgba,
    inside: impl Fn(f64, f64) -> bool,
) -> Vec<u8> {
    for y in 0..size {
        for x in 0..size {
            let at = |v: u32| (v as f64 + 0.5) / size as f64 - 0.5;
            if inside(at(x), at(y)) {
                let offset = ((y * size + x) * 4) as usize;
                image[offset..offset + 4].copy_from_slice(&colour);
            }
        }
    }
    image
}

/// A `size`×`size` RGBA image: a grey ring filled clockwise from twelve o'clock to `percent`
/// (clamped to 100). `None` (no live session) draws the empty ring.
pub fn render(percent: Option<u8>, size: u32) -> Vec<u8> {
    let fill = percent.map(|p| p.min(100));
    let centre = size as f64 / 2.0;
    let outer = centre - 0.5;
    let inner = outer * 0.62;
    let mut rgba = Vec::with_capacity((size * size * 4) as usize);
    for y in 0..size {
        for x in 0..size {
            let dx = x as f64 + 0.5 - centre;
            let dy = y as f64 + 0.5 - centre;
            let radius = dx.hypot(dy);
            let pixel = if radius > outer || radius < inner {
                CLEAR
            } else {
                // Fraction of a full turn, clockwise from twelve o'clock.
                let turn = (dx.atan2(-dy) / std::f64::consts::TAU).rem_euclid(1.0);
                match fill {
                    Some(p) if turn * 100.0 < p as f64 => colour(Level::of(p)),
                    _ => TRACK,
                }
            };
            rgba.extend_from_slice(&pixel);
        }
    }
    rgba
}

#[cfg(test)]
mod tests {
    use super::*;

    const SIZE: u32 = 32;

    fn pixel(image: &[u8], x: u32, y: u32) -> Rgba {
        let at = ((y * SIZE + x) * 4) as usize;
        image[at..at + 4].try_into().unwrap()
    }

    // Points on the ring, a little inside the outer edge.
    const TOP: (u32, u32) = (16, 2);
    const RIGHT: (u32, u32) = (29, 16);
    const BOTTOM: (u32, u32) = (16, 29);
    const LEFT: (u32, u32) = (2, 16);

    #[test]
    fn the_image_is_square_rgba_with_a_clear_centre_and_corners() {
        let image = render(Some(50), SIZE);
        assert_eq!(image.len(), (SIZE * SIZE * 4) as usize);
        assert_eq!(pixel(&image, 16, 16), CLEAR);
        assert_eq!(pixel(&image, 0, 0), CLEAR);
        assert_eq!(pixel(&image, SIZE - 1, SIZE - 1), CLEAR);
    }

    #[test]
    fn the_arc_fills_clockwise_from_twelve_o_clock() {
        let image = render(Some(50), SIZE);
        assert_eq!(pixel(&image, RIGHT.0, RIGHT.1), CALM);
        assert_eq!(pixel(&image, LEFT.0, LEFT.1), TRACK);
        let image = render(Some(95), SIZE);
        assert_eq!(pixel(&image, LEFT.0, LEFT.1), FULL);
        assert_eq!(pixel(&image, BOTTOM.0, BOTTOM.1), FULL);
    }

    #[test]
    fn no_session_and_zero_show_the_bare_track() {
        for image in [render(None, SIZE), render(Some(0), SIZE)] {
            for (x, y) in [TOP, RIGHT, BOTTOM, LEFT] {
                assert_eq!(pixel(&image, x, y), TRACK);
            }
        }
    }

    #[test]
    fn past_a_hundred_the_ring_is_full() {
        let image = render(Some(250), SIZE);
        for (x, y) in [TOP, RIGHT, BOTTOM, LEFT] {
            assert_eq!(pixel(&image, x, y), FULL);
        }
    }

    const CENTRE: (u32, u32) = (16, 16);

    #[test]
    fn percents_fall_in_bands_of_ten_that_keep_their_colour() {
        assert_eq!(Face::band(0), Face::Band(0));
        assert_eq!(Face::band(69), Face::Band(60));
        assert_eq!(Face::band(70), Face::Band(70));
        assert_eq!(Face::band(89), Face::Band(80));
        assert_eq!(Face::band(90), Face::Band(90));
        assert_eq!(Face::band(250), Face::Band(100));
        for percent in 0..=100 {
            let Face::Band(band) = Face::band(percent) else {
                unreachable!()
            };
            assert_eq!(Level::of(band), Level::of(percent), "{percent}%");
        }
    }

    #[test]
    fn paused_shows_a_pause_sign_in_the_bare_ring() {
        let image = draw(Face::Paused, SIZE);
        for (x, y) in [TOP, RIGHT, BOTTOM, LEFT] {
            assert_eq!(pixel(&image, x, y), TRACK);
        }
        // Bars left and right of the centre, a gap between them.
        assert_eq!(pixel(&image, 12, 16), TRACK);
        assert_eq!(pixel(&image, 19, 16), TRACK);
        assert_eq!(pixel(&image, CENTRE.0, CENTRE.1), CLEAR);
        // Clear between the bars and the ring.
        assert_eq!(pixel(&image, 9, 16), CLEAR);
        assert_ne!(image, draw(Face::Idle, SIZE));
    }

    #[test]
    fn a_problem_shows_a_red_ring_with_an_exclamation_mark() {
        let image = draw(Face::Problem, SIZE);
        for (x, y) in [TOP, RIGHT, BOTTOM, LEFT] {
            assert_eq!(pixel(&image, x, y), FULL);
        }
        assert_eq!(pixel(&image, 16, 12), FULL, "the stroke");
        assert_eq!(pixel(&image, 16, 18), CLEAR, "the gap");
        assert_eq!(pixel(&image, 16, 20), FULL, "the dot");
        assert_eq!(pixel(&image, 16, 23), CLEAR, "below the dot");
        assert_ne!(image, draw(Face::Band(100), SIZE));
    }

    #[test]
    fn the_colour_warns_as_compaction_nears() {
        assert_eq!(pixel(&render(Some(10), SIZE), TOP.0, TOP.1), CALM);
        assert_eq!(pixel(&render(Some(65), SIZE), TOP.0, TOP.1), CALM);
        assert_eq!(pixel(&render(Some(75), SIZE), TOP.0, TOP.1), FILLING);
        assert_eq!(pixel(&render(Some(92), SIZE), TOP.0, TOP.1), FULL);
    }
}
