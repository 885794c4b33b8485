# A stand-in for logind on a private system bus (python3-dbus, Debian's /usr/bin/python3), as much
# of it as the screen lock reads: Manager.GetUser, the user's Display (its graphical session), and
# that session's LockedHint, which SetLockedHint changes with a PropertiesChanged signal, as
# logind's does. Usage: fake-logind.py ADDRESS; prints "ready" once its name is owned.
import sys

import dbus
import dbus.mainloop.glib
import dbus.service
from gi.repository import GLib

LOGIN = "org.freedesktop.login1"
PROPERTIES = "org.freedesktop.DBus.Properties"
USER = "/org/freedesktop/login1/user/_0"
SESSION = "/org/freedesktop/login1/session/c1"


class Manager(dbus.service.Object):
    @dbus.service.method(LOGIN + ".Manager", in_signature="u", out_signature="o")
    def GetUser(self, uid):
        return dbus.ObjectPath(USER)


class User(dbus.service.Object):
    @dbus.service.method(PROPERTIES, in_signature="ss", out_signature="v")
    def Get(self, interface, name):
        return dbus.Struct(("c1", dbus.ObjectPath(SESSION)), signature="so", variant_level=1)


class Session(dbus.service.Object):
    locked = False

    @dbus.service.method(PROPERTIES, in_signature="ss", out_signature="v")
    def Get(self, interface, name):
        return dbus.Boolean(self.locked, variant_level=1)

    @dbus.service.method(LOGIN + ".Session", in_signature="b", out_signature="")
    def SetLockedHint(self, locked):
        self.locked = bool(locked)
        self.PropertiesChanged(LOGIN + ".Session", {"LockedHint": dbus.Boolean(self.locked)}, dbus.Array([], signature="s"))

    @dbus.service.signal(PROPERTIES, signature="sa{sv}as")
    def PropertiesChanged(self, interface, changed, invalidated):
        pass


dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
bus = dbus.bus.BusConnection(sys.argv[1])
name = dbus.service.BusName(LOGIN, bus)
Manager(bus, "/org/freedesktop/login1")
User(bus, USER)
Session(bus, SESSION)
print("ready", flush=True)
GLib.MainLoop().run()
