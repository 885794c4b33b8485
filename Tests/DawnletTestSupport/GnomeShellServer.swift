import Foundation

/// What a desktop test needs of a session, whichever notification server runs in it: the
/// environment a `serve` started in it gets.
public protocol NotificationSession {
    var environment: [String: String] { get }
}

extension DesktopSession: NotificationSession {}

/// GNOME Shell 43 headless (Wayland, a virtual monitor, unsafe mode for org.gnome.Shell.Eval) on
/// a private session bus, with a second private bus as its system bus: on it a stand-in for GDM
/// (org.gnome.DisplayManager with a Version, which GNOME Shell asks before it lets the screen
/// lock). The notification service (org.freedesktop.Notifications, GNOME's proxy to the shell,
/// which sends ActionInvoked and NotificationClosed to the notification's sender only) and
/// org.gnome.ScreenSaver run as GNOME starts them, kept running (SHELL_DBUS_PERSIST).
///
/// Its settings live in memory, or in dconf: a dconf-service of its own on the session bus, the
/// user database under the session's XDG_CONFIG_HOME, which GNOME Shell and a `serve` started in
/// the session both read (GNOME's Do Not Disturb, `show-banners`, written with `dconf write`).
public final class GnomeShellSession: NotificationSession {
    /// Where GNOME Shell keeps its settings (GSETTINGS_BACKEND).
    public enum Settings: String, Sendable {
        case memory, dconf
    }

    public let folder: TemporaryFolder
    public let address: String
    public let systemAddress: String
    public let settings: Settings
    private var daemons: [Daemon] = []
    private var shellEnvironment: [String: String] = [:]

    public var environment: [String: String] {
        var environment = ["DBUS_SESSION_BUS_ADDRESS": address]
        // dconf's user database, which serve reads as GNOME's readers do.
        if settings == .dconf { environment["XDG_CONFIG_HOME"] = folder.path("config") }
        return environment
    }

    static let script = Repository.scripts.appendingPathComponent("gnome-shell.py").path
    static let tools = [
        "/usr/bin/dbus-daemon", "/usr/bin/gnome-shell", "/usr/bin/gjs", "/usr/share/gnome-shell/org.gnome.Shell.Notifications",
        "/usr/share/gnome-shell/org.gnome.ScreenSaver", "/usr/bin/python3",
    ]

    // Its daemons go first, killed and reaped, and then its folder: GNOME Shell, still running
    // while the folder was removed, made `run/pulse` in it again, and left it in /tmp.
    deinit { daemons.removeAll() }

    public init(settings: Settings = .memory) throws {
        self.settings = settings
        var tools = Self.tools
        if settings == .dconf { tools += ["/usr/bin/dconf", "/usr/libexec/dconf-service", "/usr/lib/x86_64-linux-gnu/gio/modules/libdconfsettings.so"] }
        for tool in tools {
            guard FileManager.default.fileExists(atPath: tool) else { throw TestServerError("\(tool) is missing (GNOME Shell): run `make deps`") }
        }
        guard (try? runTool("/usr/bin/python3", ["-c", "import dbus, gi"], environment: [:]))?.0 == 0 else {
            throw TestServerError("python3-dbus or python3-gi is missing: run `make deps`")
        }
        let folder = try TemporaryFolder()
        self.folder = folder
        for name in ["run", "home", "config"] {
            try FileManager.default.createDirectory(atPath: folder.path(name), withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        }
        var started: [Daemon] = []
        func bus(_ name: String) throws -> String {
            let (daemon, address) = try privateBus(in: folder, named: name)
            started.append(daemon)
            return address
        }
        address = try bus("session")
        systemAddress = try bus("system")
        daemons = started
        let manager = try Daemon("/usr/bin/python3", [Self.script, "display-manager", systemAddress])
        daemons.append(manager)
        guard manager.firstLine() == "ready" else { throw TestServerError("the stand-in display manager did not start") }
        let shellEnvironment = [
            "DBUS_SESSION_BUS_ADDRESS": address, "DBUS_SYSTEM_BUS_ADDRESS": systemAddress, "XDG_RUNTIME_DIR": folder.path("run"),
            "HOME": folder.path("home"), "XDG_CONFIG_HOME": folder.path("config"), "XDG_SESSION_TYPE": "wayland",
            "GSETTINGS_BACKEND": settings.rawValue, "SHELL_DBUS_PERSIST": "1",
        ]
        self.shellEnvironment = shellEnvironment
        if settings == .dconf {
            daemons.append(try Daemon("/usr/libexec/dconf-service", [], environment: shellEnvironment))
            try waitForName("ca.desrt.dconf", seconds: 10)
        }
        daemons.append(
            try Daemon(
                "/usr/bin/gnome-shell", ["--headless", "--wayland", "--no-x11", "--virtual-monitor", "1024x768", "--unsafe-mode"],
                environment: shellEnvironment))
        try waitForName("org.gnome.Shell", seconds: 30)
        // Its name comes before its notification daemon: the start is over once its layout says so.
        guard waitUntil(seconds: 30, { (try? eval("!imports.ui.main.layoutManager._startingUp")) == "true" }) else {
            throw TestServerError("GNOME Shell did not finish starting within 30 s")
        }
        for service in ["org.gnome.Shell.Notifications", "org.gnome.ScreenSaver"] {
            daemons.append(try Daemon("/usr/bin/gjs", ["/usr/share/gnome-shell/\(service)"], environment: shellEnvironment))
        }
        try waitForName("org.freedesktop.Notifications", seconds: 20)
        try waitForName("org.gnome.ScreenSaver", seconds: 20)
    }

    private func waitForName(_ name: String, seconds: Double) throws {
        let ask = ["-c", "import dbus,sys; print(dbus.bus.BusConnection(sys.argv[1]).name_has_owner(sys.argv[2]))", address, name]
        let owned = waitUntil(seconds: seconds) {
            (try? runTool("/usr/bin/python3", ask, environment: [:]))?.1.hasPrefix("True") == true
        }
        guard owned else { throw TestServerError("GNOME Shell: \(name) was not owned within \(Int(seconds)) s") }
    }

    /// Writes GNOME's Do Not Disturb as its switch does: `show-banners` false is on (dconf only).
    public func setDoNotDisturb(_ on: Bool) throws {
        precondition(settings == .dconf)
        let (status, text) = try runTool(
            "/usr/bin/dconf", ["write", "/org/gnome/desktop/notifications/show-banners", on ? "false" : "true"], environment: shellEnvironment)
        guard status == 0 else { throw TestServerError("dconf write: \(text)") }
    }

    /// GNOME Shell's own reading of `show-banners` (its GSettings).
    public func showsBanners() throws -> String {
        try eval("new imports.gi.Gio.Settings({schema_id: 'org.gnome.desktop.notifications'}).get_boolean('show-banners')")
    }

    /// Runs `script` in GNOME Shell; its result (JSON where the script makes JSON).
    @discardableResult
    public func eval(_ script: String) throws -> String {
        let (status, text) = try runTool("/usr/bin/python3", [Self.script, "eval", address, script], environment: [:])
        guard status == 0 else { throw TestServerError("GNOME Shell's Eval failed: \(text)") }
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The notifications in GNOME Shell's message tray now, oldest first: title, body, the labels
    /// of its actions (the banner shows the first three) and urgency. GNOME's own warning of a
    /// session run as root is left out.
    public func notifications() throws -> [[String: Any]] {
        let text = try eval(
            """
            JSON.stringify(imports.ui.main.messageTray.getSources().flatMap(s => s.notifications)
                .filter(n => n.title !== "Logged in as a privileged user").map(n =>
                ({title: n.title, body: n.bannerBodyText, actions: n.actions.map(a => a.label), urgency: n.urgency})))
            """)
        let json = try JSONSerialization.jsonObject(with: Data(text.utf8), options: .fragmentsAllowed) as? String
        return try JSONSerialization.jsonObject(with: Data((json ?? "[]").utf8)) as? [[String: Any]] ?? []
    }

    /// Presses the action labelled `label` on the newest notification that has one, as its
    /// banner's button would.
    public func press(_ label: String) throws {
        let quoted = String(decoding: try JSONSerialization.data(withJSONObject: [label]), as: UTF8.self)
        let pressed = try eval(
            """
            (() => { const label = \(quoted)[0];
              const n = imports.ui.main.messageTray.getSources().flatMap(s => s.notifications).reverse()
                .find(n => n.actions.some(a => a.label === label));
              if (!n) return "none"; n.actions.find(a => a.label === label).callback(); return "pressed"; })()
            """)
        guard pressed.contains("pressed") else { throw TestServerError("no notification has an action \(label)") }
    }

    /// Locks the screen as GNOME does (org.gnome.ScreenSaver.Lock, answered once the lock screen shows).
    public func lock() throws {
        let (status, text) = try runTool(
            "/usr/bin/python3", [Self.script, "call", address, "org.gnome.ScreenSaver", "/org/gnome/ScreenSaver", "org.gnome.ScreenSaver", "Lock"],
            environment: [:])
        guard status == 0 else { throw TestServerError("org.gnome.ScreenSaver.Lock failed: \(text)") }
    }

    /// Unlocks, as a person who typed the password would (the shield deactivated).
    public func unlock() throws {
        try eval("imports.ui.main.screenShield.deactivate(false)")
    }

    /// Whether GNOME says the screen is locked (org.gnome.ScreenSaver.GetActive).
    public func isLocked() throws -> Bool {
        let (_, text) = try runTool(
            "/usr/bin/python3", [Self.script, "call", address, "org.gnome.ScreenSaver", "/org/gnome/ScreenSaver", "org.gnome.ScreenSaver", "GetActive"],
            environment: [:])
        return text.hasPrefix("1")
    }
}
