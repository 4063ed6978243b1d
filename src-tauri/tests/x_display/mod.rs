//! The app's windows as the X server sees them: found by title, and asked to close as a window
//! manager asks when the person clicks ×. No window manager runs on the test display, and
//! WebDriver follows only the first web view an app makes, not one opened again later.

use std::ffi::CStr;
use std::os::raw::{c_int, c_long};
use std::ptr;

use x11_dl::xlib;

struct TopLevel {
    id: xlib::Window,
    title: Vec<u8>,
    class: Vec<u8>,
    shown: bool,
}

pub struct XDisplay {
    xlib: xlib::Xlib,
    display: *mut xlib::Display,
}

/// A window may go between listing it and asking its name; Xlib's own handler would end the
/// test for that.
unsafe extern "C" fn ignore_errors(_: *mut xlib::Display, _: *mut xlib::XErrorEvent) -> c_int {
    0
}

impl XDisplay {
    /// The display in `DISPLAY`.
    pub fn open() -> XDisplay {
        let xlib = xlib::Xlib::open().expect("libX11 (a dependency of GTK)");
        // SAFETY: plain Xlib calls; the display is checked before use.
        let display = unsafe {
            (xlib.XSetErrorHandler)(Some(ignore_errors));
            (xlib.XOpenDisplay)(ptr::null())
        };
        assert!(
            !display.is_null(),
            "no X display: run the test under xvfb-run"
        );
        XDisplay { xlib, display }
    }

    /// The top-level windows titled `title` that are shown.
    pub fn shown(&self, title: &str) -> Vec<xlib::Window> {
        self.top_level()
            .into_iter()
            .filter(|w| w.shown && w.title == title.as_bytes())
            .map(|w| w.id)
            .collect()
    }

    /// Whether a top-level window of class `class` (its `WM_CLASS` name) exists, shown or not.
    pub fn has_class(&self, class: &str) -> bool {
        self.top_level().iter().any(|w| w.class == class.as_bytes())
    }

    /// The windows at the top of the tree: no window manager reparents them here.
    fn top_level(&self) -> Vec<TopLevel> {
        let mut out = Vec::new();
        // SAFETY: every pointer Xlib returns is checked and freed with XFree.
        unsafe {
            let root = (self.xlib.XDefaultRootWindow)(self.display);
            let (mut root_back, mut parent) = (0, 0);
            let mut children = ptr::null_mut();
            let mut count = 0;
            let listed = (self.xlib.XQueryTree)(
                self.display,
                root,
                &mut root_back,
                &mut parent,
                &mut children,
                &mut count,
            );
            if listed == 0 || children.is_null() {
                return out;
            }
            for &id in std::slice::from_raw_parts(children, count as usize) {
                let mut attributes: xlib::XWindowAttributes = std::mem::zeroed();
                if (self.xlib.XGetWindowAttributes)(self.display, id, &mut attributes) == 0 {
                    continue;
                }
                let mut title = Vec::new();
                let mut name = ptr::null_mut();
                if (self.xlib.XFetchName)(self.display, id, &mut name) != 0 && !name.is_null() {
                    title = CStr::from_ptr(name).to_bytes().to_vec();
                    (self.xlib.XFree)(name.cast());
                }
                let mut class = Vec::new();
                let mut hint: xlib::XClassHint = std::mem::zeroed();
                if (self.xlib.XGetClassHint)(self.display, id, &mut hint) != 0 {
                    if !hint.res_name.is_null() {
                        class = CStr::from_ptr(hint.res_name).to_bytes().to_vec();
                        (self.xlib.XFree)(hint.res_name.cast());
                    }
                    if !hint.res_class.is_null() {
                        (self.xlib.XFree)(hint.res_class.cast());
                    }
                }
                out.push(TopLevel {
                    id,
                    title,
                    class,
                    shown: attributes.map_state == xlib::IsViewable,
                });
            }
            (self.xlib.XFree)(children.cast());
        }
        out
    }

    /// Asks `window` to close (`WM_DELETE_WINDOW`), as a window manager does for ×.
    pub fn close(&self, window: xlib::Window) {
        // SAFETY: an event built in full and sent on an open display.
        unsafe {
            let protocols = (self.xlib.XInternAtom)(self.display, c"WM_PROTOCOLS".as_ptr(), 0);
            let delete = (self.xlib.XInternAtom)(self.display, c"WM_DELETE_WINDOW".as_ptr(), 0);
            let mut event: xlib::XEvent = std::mem::zeroed();
            event.client_message.type_ = xlib::ClientMessage;
            event.client_message.send_event = xlib::True;
            event.client_message.display = self.display;
            event.client_message.window = window;
            event.client_message.message_type = protocols;
            event.client_message.format = 32;
            let data = event.client_message.data.as_longs_mut();
            data[0] = delete as c_long;
            data[1] = xlib::CurrentTime as c_long;
            (self.xlib.XSendEvent)(
                self.display,
                window,
                xlib::False,
                xlib::NoEventMask,
                &mut event,
            );
            (self.xlib.XFlush)(self.display);
        }
    }
}

impl Drop for XDisplay {
    fn drop(&mut self) {
        // SAFETY: opened in `open`, closed once.
        unsafe { (self.xlib.XCloseDisplay)(self.display) };
    }
}
