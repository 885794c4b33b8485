import Foundation

/// Notification servers other than dunst, each real, on a private session bus of its own: mako and
/// SwayNotificationCenter under a headless sway (which refuses root: run as nobody, the bus open to
/// both), xfce4-notifyd under Xvfb with its xfconfd. Each says whether its Do Not Disturb is on,
/// and turns it on and off the way a person would (makoctl, swaync's SetDnd, xfconf-query).
/// GNOME's is dconf's `show-banners`: a real dconf-service with `dconf write`, and a stand-in for
/// GNOME Shell's notification service (Scripts/gnome-notifications.py) that says it is gnome-shell.
public final class OtherDesktop: NotificationSession {
    public enum Server: String, Sendable, CaseIterable {
        case mako, swaync, xfce, gnome
    }

    public let server: Server
    public let folder: TemporaryFolder
    public let address: String
    /// The X display (xfce4-notifyd's), or nil.
    public let display: String?
    private var daemons: [Daemon] = []

    public var environment: [String: String] {
        var environment = ["DBUS_SESSION_BUS_ADDRESS": address]
        if let display { environment["DISPLAY"] = display }
        // dconf's user database, which serve reads as GNOME's readers do.
        if server == .gnome { environment["XDG_CONFIG_HOME"] = folder.path("config") }
        return environment
    }
    public var gnomeState: String { folder.path("gnome-notifications.json") }

    static let dconfService = "/usr/libexec/dconf-service"
    static let xfconfd = "/usr/lib/x86_64-linux-gnu/xfce4/xfconf/xfconfd"
    static let xfce4Notifyd = "/usr/lib/x86_64-linux-gnu/xfce4/notifyd/xfce4-notifyd"
    /// nobody: sway will not run as root.
    static let nobody: uid_t = 65534

    public init(_ server: Server) throws {
        self.server = server
        var tools = ["/usr/bin/dbus-daemon", "/usr/bin/busctl", "/usr/bin/dbus-send"]
        switch server {
        case .mako: tools += ["/usr/bin/sway", "/usr/bin/setpriv", "/usr/bin/mako", "/usr/bin/makoctl"]
        case .swaync: tools += ["/usr/bin/sway", "/usr/bin/setpriv", "/usr/bin/swaync", "/usr/bin/wtype"]
        case .xfce: tools += ["/usr/bin/Xvfb", "/usr/bin/xdotool", "/usr/bin/import", "/usr/bin/xfconf-query", Self.xfconfd, Self.xfce4Notifyd]
        case .gnome: tools += ["/usr/bin/python3", "/usr/bin/dconf", Self.dconfService]
        }
        for tool in tools { try Repository.require(tool, tool) }
        if server == .gnome && !FileManager.default.fileExists(atPath: "/usr/lib/python3/dist-packages/gi/__init__.py") {
            throw TestServerError("python3-gi is missing: run `make deps`")
        }
        folder = try TemporaryFolder()
        chmod(folder.path(""), 0o755)
        // No <servicedir>: a Notify would start whatever server the machine has. A root client
        // (the test, serve) and the servers run as nobody share the bus.
        let (bus, busAddress) = try privateBus(in: folder, named: "bus", users: ["root", "nobody"])
        daemons.append(bus)
        address = busAddress

        switch server {
        case .mako, .swaync:
            display = nil
            let runtime = folder.path("runtime")
            try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
            chown(runtime, Self.nobody, Self.nobody)
            // mako's Do Not Disturb mode hides what comes meanwhile, as a person would set it up.
            try "[mode=do-not-disturb]\ninvisible=1\n".write(toFile: folder.path("mako.conf"), atomically: true, encoding: .utf8)
            let exec = server == .mako ? "exec mako -c \(folder.path("mako.conf"))" : "exec env GSETTINGS_BACKEND=memory swaync"
            try "\(exec)\n".write(toFile: folder.path("sway.conf"), atomically: true, encoding: .utf8)
            for file in ["sway.conf", "mako.conf"] { chmod(folder.path(file), 0o644) }
            daemons.append(
                try Daemon(
                    "/usr/bin/setpriv",
                    ["--reuid=\(Self.nobody)", "--regid=\(Self.nobody)", "--clear-groups", "/usr/bin/sway", "-c", folder.path("sway.conf")],
                    environment: [
                        "DBUS_SESSION_BUS_ADDRESS": address, "XDG_RUNTIME_DIR": runtime, "HOME": runtime, "WLR_BACKENDS": "headless",
                        "WLR_LIBINPUT_NO_DEVICES": "1", "WLR_RENDERER": "pixman",
                    ]))
        case .xfce:
            let xvfb = try Daemon("/usr/bin/Xvfb", ["-displayfd", "1", "-screen", "0", "1024x600x24", "-nolisten", "tcp"])
            daemons.append(xvfb)
            let number = xvfb.firstLine()
            guard Int(number) != nil else { throw TestServerError("Xvfb did not start: \(number)") }
            display = ":\(number)"
            let home = folder.path("home")
            try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: false)
            let settings = ["HOME": home, "XDG_CONFIG_HOME": home + "/.config", "DISPLAY": ":\(number)", "DBUS_SESSION_BUS_ADDRESS": address]
            daemons.append(try Daemon(Self.xfconfd, [], environment: settings))
            try waitForName("org.xfce.Xfconf")
            daemons.append(try Daemon(Self.xfce4Notifyd, [], environment: settings))
        case .gnome:
            display = nil
            daemons.append(try Daemon(Self.dconfService, [], environment: environment))
            try waitForName("ca.desrt.dconf")
            let script = Repository.scripts.appendingPathComponent("gnome-notifications.py").path
            let stand = try Daemon("/usr/bin/python3", [script, gnomeState], environment: environment)
            daemons.append(stand)
            let line = stand.firstLine()
            guard line == "ready" else { throw TestServerError("the GNOME notification stand-in did not start: \(line)") }
        }
        try waitForName("org.freedesktop.Notifications")
        if server == .swaync { try waitForName("org.erikreider.swaync.cc") }
    }

    deinit {
        // The servers under sway end with its display; the bus ends last.
        for daemon in daemons.reversed() { kill(daemon.process.processIdentifier, SIGKILL) }
    }

    /// Waits for `name` to be owned on the bus (a server's start has no event of its own to wait for).
    func waitForName(_ name: String) throws {
        let ask = [
            "--session", "--print-reply", "--dest=org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus.NameHasOwner", "string:\(name)",
        ]
        for _ in 0..<200 {
            if (try? runTool("/usr/bin/dbus-send", ask, environment: environment))?.1.contains("boolean true") == true { return }
            usleep(50_000)
        }
        throw TestServerError("\(server) did not take \(name) on the bus")
    }

    /// A tool on this session; its status and output.
    @discardableResult
    public func tool(_ path: String, _ arguments: [String]) throws -> (Int32, String) {
        try runTool(path, arguments, environment: ["PATH": "/usr/bin:/bin"].merging(environment) { $1 })
    }

    /// Turns Do Not Disturb on or off as a person would: makoctl's mode, swaync's SetDnd (what
    /// its panel's switch calls), xfconf-query on xfce4-notifyd's property.
    public func setDoNotDisturb(_ on: Bool) throws {
        let (status, text): (Int32, String)
        switch server {
        case .mako: (status, text) = try tool("/usr/bin/makoctl", ["mode", on ? "-a" : "-r", "do-not-disturb"])
        case .swaync:
            (status, text) = try tool(
                "/usr/bin/busctl",
                ["--user", "call", "org.erikreider.swaync.cc", "/org/erikreider/swaync/cc", "org.erikreider.swaync.cc", "SetDnd", "b", on ? "true" : "false"])
        case .gnome:
            (status, text) = try tool("/usr/bin/dconf", ["write", "/org/gnome/desktop/notifications/show-banners", on ? "false" : "true"])
        case .xfce:
            (status, text) = try tool(
                "/usr/bin/xfconf-query", ["-c", "xfce4-notifyd", "-p", "/do-not-disturb", "-n", "-t", "bool", "-s", on ? "true" : "false"])
        }
        guard status == 0 else { throw TestServerError("cannot turn \(server)'s Do Not Disturb \(on ? "on" : "off"): \(text)") }
    }

    /// One notification mako holds: its id, summary and action labels.
    public struct Shown {
        public let id: UInt32
        public let summary: String
        public let actions: [String: String]
    }

    /// What mako holds now (`makoctl list`).
    public func makoList() throws -> [Shown] {
        precondition(server == .mako)
        let (status, text) = try tool("/usr/bin/makoctl", ["list"])
        guard status == 0, let root = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] else {
            throw TestServerError("makoctl list: \(text)")
        }
        let entries = (root["data"] as? [[[String: Any]]])?.first ?? []
        func value(_ entry: [String: Any], _ key: String) -> Any? { (entry[key] as? [String: Any])?["data"] }
        return entries.map { entry in
            Shown(
                id: (value(entry, "id") as? NSNumber)?.uint32Value ?? 0, summary: value(entry, "summary") as? String ?? "",
                actions: value(entry, "actions") as? [String: String] ?? [:])
        }
    }

    /// How many notifications the server has now: mako's list, swaync's NotificationCount,
    /// xfce4-notifyd's windows on screen.
    public func count() -> Int {
        switch server {
        case .mako: return (try? makoList().count) ?? -1
        case .swaync:
            let answer = try? tool(
                "/usr/bin/busctl", ["--user", "call", "org.erikreider.swaync.cc", "/org/erikreider/swaync/cc", "org.erikreider.swaync.cc", "NotificationCount"])
            return answer.flatMap { Int($0.1.split(separator: " ").last?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "") } ?? -1
        case .xfce:
            let answer = try? tool("/usr/bin/xdotool", ["search", "--onlyvisible", "--classname", "xfce4-notifyd"])
            return answer.map { $0.1.split(separator: "\n").count } ?? -1
        case .gnome:
            let shown = (try? Data(contentsOf: URL(fileURLWithPath: gnomeState))).flatMap { try? JSONSerialization.jsonObject(with: $0) as? [String: String] }
            return shown?.count ?? -1
        }
    }

    /// Waits until the server has `count` notifications (or the time is up); how many it has.
    public func waitForCount(_ count: Int, seconds: Double) -> Int {
        let deadline = Date().addingTimeInterval(seconds)
        while self.count() != count && Date() < deadline { usleep(50_000) }
        return self.count()
    }

    /// The action buttons of xfce4-notifyd's newest notification, left to right, as centres on the
    /// screen: they are only pixels in its window (`buttonLabels`).
    public func xfceButtons() throws -> [(x: Int, y: Int)] {
        precondition(server == .xfce)
        let (_, windows) = try tool("/usr/bin/xdotool", ["search", "--onlyvisible", "--classname", "xfce4-notifyd"])
        guard let window = windows.split(separator: "\n").last.map(String.init) else { return [] }
        return try buttonLabels(window: window, environment: environment, shot: folder.path("window.gray"))
    }

    /// A real click (xdotool) on xfce4-notifyd's `index`th button, as a person pressing it.
    public func click(button index: Int) throws {
        let all = try xfceButtons()
        guard index < all.count else { throw TestServerError("xfce4-notifyd: no button \(index) among \(all.count)") }
        try xdotoolClick(at: all[index], environment: environment)
    }

    /// A call on swaync's control-center interface; its status and answer.
    func swayncCall(_ method: String, _ arguments: String...) throws -> (Int32, String) {
        try tool(
            "/usr/bin/busctl", ["--user", "call", "org.erikreider.swaync.cc", "/org/erikreider/swaync/cc", "org.erikreider.swaync.cc", method] + arguments)
    }

    /// Presses the first action (Done) of swaync's notification as a person at the keyboard would:
    /// its control center opened (`SetVisibility`, what `swaync-client --open-panel` calls), then
    /// the key 1 typed on a virtual keyboard (wtype), which the panel takes as its selected
    /// notification's first action. sway gives the panel the keyboard at a moment nothing outside
    /// shows: the key is typed again until the notification has gone (then no notification is left
    /// for a late key to press).
    public func pressFirstAction(seconds: Double = 10) throws {
        precondition(server == .swaync)
        guard try swayncCall("SetVisibility", "b", "true").0 == 0 else { throw TestServerError("swaync: cannot open its control center") }
        let deadline = Date().addingTimeInterval(seconds)
        while !((try? swayncCall("GetVisibility"))?.1.contains("true") ?? false) {
            guard Date() < deadline else { throw TestServerError("swaync: its control center did not open") }
            usleep(50_000)
        }
        let runtime = folder.path("runtime")
        let files = try FileManager.default.contentsOfDirectory(atPath: runtime)
        guard let socket = files.first(where: { $0.hasPrefix("wayland-") && !$0.hasSuffix(".lock") }) else {
            throw TestServerError("sway's Wayland socket is not in \(runtime): \(files)")
        }
        repeat {
            // wtype's own pause (-s, in ms) lets its keyboard join sway's seat before the key.
            let (status, text) = try runTool(
                "/usr/bin/setpriv",
                [
                    "--reuid=\(Self.nobody)", "--regid=\(Self.nobody)", "--clear-groups", "/usr/bin/env", "XDG_RUNTIME_DIR=\(runtime)",
                    "WAYLAND_DISPLAY=\(socket)",
                    "/usr/bin/wtype", "-s", "200", "1",
                ], environment: [:])
            guard status == 0 else { throw TestServerError("wtype: \(text)") }
            if waitForCount(0, seconds: 1) == 0 { return }
        } while Date() < deadline
        throw TestServerError("swaync: the key 1 on its control center pressed nothing in \(seconds) s")
    }

    /// Presses `action` on mako's notification `id`, as a person clicking it would.
    public func invoke(_ id: UInt32, _ action: String) throws {
        let (status, text) = try tool("/usr/bin/makoctl", ["invoke", "-n", "\(id)", action])
        guard status == 0 else { throw TestServerError("makoctl invoke: \(text)") }
    }
}

/// Voluntary context switches of a process, summed over the threads it has now: its wake-ups.
public func voluntarySwitches(_ pid: pid_t) -> Int {
    let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
    return tasks.reduce(0) { sum, task in
        let text = (try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/status", encoding: .utf8)) ?? ""
        let line = text.split(separator: "\n").first { $0.hasPrefix("voluntary_ctxt_switches:") }
        return sum + (line.flatMap { Int($0.split(separator: "\t").last ?? "") } ?? 0)
    }
}
