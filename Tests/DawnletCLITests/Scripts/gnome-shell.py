# The tests' hands on GNOME Shell, over python3-dbus (Debian's /usr/bin/python3):
#   display-manager ADDRESS  serves org.gnome.DisplayManager on the bus at ADDRESS with a Version,
#                            which GNOME Shell asks before it lets the screen lock; prints "ready".
#   eval ADDRESS SCRIPT      runs SCRIPT in GNOME Shell (org.gnome.Shell.Eval, --unsafe-mode) and
#                            prints its result; exits 1 with the error when it threw.
#   call ADDRESS NAME PATH INTERFACE METHOD  calls a method without arguments; prints its answer.
import sys

import dbus


def display_manager(address):
    import dbus.mainloop.glib
    import dbus.service
    from gi.repository import GLib

    dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
    bus = dbus.bus.BusConnection(address)

    class Manager(dbus.service.Object):
        @dbus.service.method("org.freedesktop.DBus.Properties", in_signature="ss", out_signature="v")
        def Get(self, interface, name):
            return dbus.String("43.0", variant_level=1)

        @dbus.service.method("org.freedesktop.DBus.Properties", in_signature="s", out_signature="a{sv}")
        def GetAll(self, interface):
            return {"Version": dbus.String("43.0")}

    name = dbus.service.BusName("org.gnome.DisplayManager", bus)
    Manager(bus, "/org/gnome/DisplayManager/Manager")
    print("ready", flush=True)
    GLib.MainLoop().run()
    del name


def main():
    command, address = sys.argv[1], sys.argv[2]
    if command == "display-manager":
        return display_manager(address)
    bus = dbus.bus.BusConnection(address)
    if command == "eval":
        shell = bus.get_object("org.gnome.Shell", "/org/gnome/Shell")
        ok, result = shell.Eval(sys.argv[3], dbus_interface="org.gnome.Shell", timeout=10)
        print(result)
        sys.exit(0 if ok else 1)
    if command == "call":
        name, path, interface, method = sys.argv[3:7]
        answer = getattr(bus.get_object(name, path), method)(dbus_interface=interface, timeout=20)
        print(answer)


main()
