#!/usr/bin/python3
"""The desktop around the tray app in bench/tray-app, on its own X display and D-Bus session.

  desktop.py panel          own the StatusNotifierWatcher name, as a panel with a tray does,
                            so the app keeps its window in the tray; runs until killed
  desktop.py close TITLE    ask the shown window titled TITLE to close (WM_DELETE_WINDOW), as
                            a window manager does when the person clicks ×

Needs Debian's python3-dbus and python3-gi (panel), and libX11 (close).
"""
import ctypes
import sys


def panel():
    import dbus
    import dbus.mainloop.glib
    import dbus.service
    from gi.repository import GLib

    dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
    name = dbus.service.BusName("org.kde.StatusNotifierWatcher", dbus.SessionBus())
    GLib.MainLoop().run()
    del name


class ClientMessage(ctypes.Structure):
    _fields_ = [("type", ctypes.c_int), ("serial", ctypes.c_ulong), ("send_event", ctypes.c_int),
                ("display", ctypes.c_void_p), ("window", ctypes.c_ulong),
                ("message_type", ctypes.c_ulong), ("format", ctypes.c_int),
                ("data", ctypes.c_long * 5), ("rest", ctypes.c_long * 24)]


def close(title):
    x = ctypes.cdll.LoadLibrary("libX11.so.6")
    x.XOpenDisplay.restype = ctypes.c_void_p
    x.XDefaultRootWindow.argtypes = [ctypes.c_void_p]
    x.XDefaultRootWindow.restype = ctypes.c_ulong
    x.XInternAtom.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int]
    x.XInternAtom.restype = ctypes.c_ulong
    x.XQueryTree.argtypes = [ctypes.c_void_p, ctypes.c_ulong] + [ctypes.c_void_p] * 4
    x.XFetchName.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.c_void_p]
    x.XSendEvent.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.c_int, ctypes.c_long,
                             ctypes.c_void_p]
    display = x.XOpenDisplay(None)
    if not display:
        sys.exit("close: no X display")
    root, parent = ctypes.c_ulong(), ctypes.c_ulong()
    children, count = ctypes.POINTER(ctypes.c_ulong)(), ctypes.c_uint()
    x.XQueryTree(display, x.XDefaultRootWindow(display), ctypes.byref(root),
                 ctypes.byref(parent), ctypes.byref(children), ctypes.byref(count))
    closed = 0
    for i in range(count.value):
        name = ctypes.c_char_p()
        if x.XFetchName(display, children[i], ctypes.byref(name)) and name.value == title.encode():
            event = ClientMessage(type=33, window=children[i], format=32, send_event=1,
                                  message_type=x.XInternAtom(display, b"WM_PROTOCOLS", 0))
            event.data[0] = x.XInternAtom(display, b"WM_DELETE_WINDOW", 0)
            x.XSendEvent(display, children[i], 0, 0, ctypes.byref(event))
            closed += 1
    x.XFlush(display)
    if not closed:
        sys.exit(f"close: no window titled {title!r}")


if __name__ == "__main__":
    if sys.argv[1:] == ["panel"]:
        panel()
    elif len(sys.argv) == 3 and sys.argv[1] == "close":
        close(sys.argv[2])
    else:
        sys.exit(__doc__)
