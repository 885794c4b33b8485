# A screen saver as KDE's and Xfce's speak it (org.freedesktop.ScreenSaver on the session bus,
# python3-dbus, Debian's /usr/bin/python3): GetActive, and SetActive, which emits ActiveChanged.
# Usage: fake-screensaver.py ADDRESS true|false (active at start); prints "ready" once its name is owned.
import sys

import dbus
import dbus.mainloop.glib
import dbus.service
from gi.repository import GLib

NAME = "org.freedesktop.ScreenSaver"


class ScreenSaver(dbus.service.Object):
    active = sys.argv[2] == "true"

    @dbus.service.method(NAME, in_signature="", out_signature="b")
    def GetActive(self):
        return self.active

    @dbus.service.method(NAME, in_signature="b", out_signature="b")
    def SetActive(self, active):
        self.active = bool(active)
        self.ActiveChanged(self.active)
        return True

    @dbus.service.signal(NAME, signature="b")
    def ActiveChanged(self, active):
        pass


dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
bus = dbus.bus.BusConnection(sys.argv[1])
name = dbus.service.BusName(NAME, bus)
ScreenSaver(bus, "/org/freedesktop/ScreenSaver")
ScreenSaver(bus, "/ScreenSaver")
print("ready", flush=True)
GLib.MainLoop().run()
