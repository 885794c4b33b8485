import Foundation

/// A private system bus with a stand-in for logind on it (Scripts/fake-logind.py): the user's
/// graphical session, whose LockedHint a test sets as a screen locker tells logind.
public final class LogindStandIn {
    public let folder: TemporaryFolder
    public let address: String
    private var daemons: [Daemon] = []
    static let script = Repository.scripts.appendingPathComponent("fake-logind.py").path

    public var environment: [String: String] { ["DBUS_SYSTEM_BUS_ADDRESS": address] }

    public init() throws {
        try Repository.require("/usr/bin/dbus-daemon", "dbus-daemon")
        guard (try? runTool("/usr/bin/python3", ["-c", "import dbus, gi"], environment: [:]))?.0 == 0 else {
            throw TestServerError("python3-dbus or python3-gi is missing: run `make deps`")
        }
        let folder = try TemporaryFolder()
        self.folder = folder
        let (bus, address) = try privateBus(in: folder, named: "system")
        self.address = address
        daemons.append(bus)
        let logind = try Daemon("/usr/bin/python3", [Self.script, address])
        daemons.append(logind)
        guard logind.firstLine() == "ready" else { throw TestServerError("the stand-in for logind did not start") }
    }

    /// As a screen locker tells logind (org.freedesktop.login1.Session.SetLockedHint).
    public func setLocked(_ locked: Bool) throws {
        let call =
            "import dbus,sys; dbus.bus.BusConnection(sys.argv[1]).get_object('org.freedesktop.login1', '/org/freedesktop/login1/session/c1')"
            + ".SetLockedHint(sys.argv[2] == 'true', dbus_interface='org.freedesktop.login1.Session')"
        let (status, text) = try runTool("/usr/bin/python3", ["-c", call, address, locked ? "true" : "false"], environment: [:])
        guard status == 0 else { throw TestServerError("SetLockedHint failed: \(text)") }
    }
}
