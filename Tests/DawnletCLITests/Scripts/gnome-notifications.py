"""A stand-in for GNOME Shell's notification service, for the Do Not Disturb tests that need no
GNOME Shell: it answers GetServerInformation as "gnome-shell" (so serve follows GNOME's
show-banners setting through dconf) and keeps the notifications it was given, as JSON in the file
named by its one argument ({id: summary} of those not closed), rewritten after each change.
Prints "ready" once it owns the name. Run with Debian's /usr/bin/python3 (python3-gi)."""
import json
import os
import sys

from gi.repository import Gio, GLib

XML = """<node><interface name="org.freedesktop.Notifications">
<method name="GetServerInformation"><arg type="s" direction="out"/><arg type="s" direction="out"/>
<arg type="s" direction="out"/><arg type="s" direction="out"/></method>
<method name="GetCapabilities"><arg type="as" direction="out"/></method>
<method name="Notify"><arg type="s" direction="in"/><arg type="u" direction="in"/><arg type="s" direction="in"/>
<arg type="s" direction="in"/><arg type="s" direction="in"/><arg type="as" direction="in"/>
<arg type="a{sv}" direction="in"/><arg type="i" direction="in"/><arg type="u" direction="out"/></method>
<method name="CloseNotification"><arg type="u" direction="in"/></method>
</interface></node>"""

state = sys.argv[1]
shown = {}
last = [0]


def save():
    with open(state + ".new", "w") as f:
        json.dump(shown, f)
    os.replace(state + ".new", state)


def call(connection, sender, path, interface, method, args, invocation):
    if method == "GetServerInformation":
        invocation.return_value(GLib.Variant("(ssss)", ("gnome-shell", "GNOME", "43.9", "1.2")))
    elif method == "GetCapabilities":
        invocation.return_value(GLib.Variant("(as)", (["actions", "body", "body-markup", "persistence", "sound"],)))
    elif method == "Notify":
        replaces = args[1]
        if replaces and str(replaces) in shown:
            number = replaces
        else:
            last[0] += 1
            number = last[0]
        shown[str(number)] = args[3]
        save()
        invocation.return_value(GLib.Variant("(u)", (number,)))
    elif method == "CloseNotification":
        if shown.pop(str(args[0]), None) is not None:
            save()
            connection.emit_signal(
                sender, path, interface, "NotificationClosed", GLib.Variant("(uu)", (args[0], 3)))
        invocation.return_value(None)


def acquired(connection, name):
    save()
    print("ready", flush=True)


connection = Gio.bus_get_sync(Gio.BusType.SESSION, None)
info = Gio.DBusNodeInfo.new_for_xml(XML).interfaces[0]
connection.register_object("/org/freedesktop/Notifications", info, call, None, None)
Gio.bus_own_name_on_connection(connection, "org.freedesktop.Notifications", Gio.BusNameOwnerFlags.NONE, acquired, None)
GLib.MainLoop().run()
