import Foundation

/// The real components the delivery tests talk to, started here and stopped after: an SMTP
/// server (aiosmtpd) writing a Maildir, and a private session bus with a notification server
/// (dunst under Xvfb). Each fails with a message naming `make deps` when its tool is missing.
public struct TestServerError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// Runs any tool to its end; its exit status and stdout and stderr together.
public func runTool(_ path: String, _ arguments: [String], environment: [String: String]) throws -> (Int32, String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = arguments
    process.environment = environment
    let output = Pipe()
    process.standardOutput = output
    process.standardError = output
    try process.run()
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    return (process.terminationStatus, text)
}

public enum Repository {
    public static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    public static let scripts = root.appendingPathComponent("Tests/DawnletCLITests/Scripts")
    public static let python = root.appendingPathComponent(".build/venv/bin/python").path

    public static func require(_ path: String, _ what: String) throws {
        guard FileManager.default.isExecutableFile(atPath: path) else { throw TestServerError("\(what) is missing (\(path)): run `make deps`") }
    }
}

/// Asks an oracle, a Python script run in the test venv, about `cases`: they reach it as a JSON
/// file named by its one argument; its answer, one JSON list (an item per case), comes back.
public func askOracle(_ script: String, _ cases: [[String: Any]]) throws -> [Any] {
    try Repository.require(Repository.python, "the Python venv with the oracles")
    let folder = try TemporaryFolder()
    let input = folder.path("cases.json")
    try JSONSerialization.data(withJSONObject: cases).write(to: URL(fileURLWithPath: input))
    let (status, output) = try runTool(Repository.python, [script, input], environment: ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"])
    guard status == 0, let answers = try? JSONSerialization.jsonObject(with: Data(output.utf8)) as? [Any], answers.count == cases.count else {
        throw TestServerError("the oracle \(script) failed (run `make deps`): \(output.prefix(500))")
    }
    return answers
}

/// A bus of the test's own in `folder` (its socket `name`, its config `name.conf`): no
/// `<servicedir>`, so nothing is started on demand, every name may be owned and every message is
/// let through; `users` may connect besides the test's own. The daemon and its address.
public func privateBus(in folder: TemporaryFolder, named name: String, users: [String] = []) throws -> (Daemon, String) {
    let allowed = users.map { "<allow user=\"\($0)\"/>" }.joined()
    try """
    <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
     "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
    <busconfig>
      <type>session</type>
      <listen>unix:path=\(folder.path(name))</listen>
      <auth>EXTERNAL</auth>
      <policy context="default">\(allowed)<allow send_destination="*" eavesdrop="true"/><allow eavesdrop="true"/><allow own="*"/></policy>
    </busconfig>
    """.write(toFile: folder.path("\(name).conf"), atomically: true, encoding: .utf8)
    let daemon = try Daemon("/usr/bin/dbus-daemon", ["--config-file=\(folder.path("\(name).conf"))", "--nofork", "--print-address"])
    let address = daemon.firstLine()
    guard address.hasPrefix("unix:") else { throw TestServerError("dbus-daemon did not start: \(address)") }
    return (daemon, address)
}

/// A child process the test owns: started with a fixed environment, killed (SIGKILL, which no
/// inherited signal mask can block) and reaped at the end. One that made itself a process group
/// (GNOME Shell does, and forks into it) is killed with its group, so nothing of it outlives the test.
public final class Daemon {
    public let process = Process()
    let output = Pipe()

    public init(_ path: String, _ arguments: [String], environment: [String: String] = [:]) throws {
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.environment = ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "HOME": "/nonexistent"].merging(environment) { $1 }
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
    }

    /// The first line it prints.
    public func firstLine() -> String {
        var bytes: [UInt8] = []
        while true {
            let chunk = output.fileHandleForReading.readData(ofLength: 1)
            guard let byte = chunk.first, byte != 10 else { break }
            bytes.append(byte)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    deinit {
        let pid = process.processIdentifier
        if getpgid(pid) == pid { kill(-pid, SIGKILL) }
        kill(pid, SIGKILL)
        // Reaped here, not by Foundation's monitor: a session let go as the test run exits has
        // its daemons killed on a worker thread that monitor may then never get to. Whichever
        // reaps first, the other finds nothing to wait for.
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
    }
}

/// aiosmtpd on 127.0.0.1 (Scripts/smtp-server.py): `accept`, `tempfail-once` or `reject`;
/// with `login`, STARTTLS required and a user/password checked.
public final class SMTPServer {
    public let maildir: String
    public let port: Int
    private let daemon: Daemon

    public struct Login {
        let cert: String
        let key: String
        let user: String
        let password: String

        public init(cert: String, key: String, user: String, password: String) {
            self.cert = cert
            self.key = key
            self.user = user
            self.password = password
        }
    }

    public init(folder: TemporaryFolder, mode: String, login: Login? = nil) throws {
        try Repository.require(Repository.python, "the Python venv with aiosmtpd")
        maildir = folder.path("maildir-\(mode)-\(UUID().uuidString.prefix(8))")
        let extra = login.map { [$0.cert, $0.key, $0.user, $0.password] } ?? []
        daemon = try Daemon(Repository.python, [Repository.scripts.appendingPathComponent("smtp-server.py").path, maildir, mode] + extra)
        let line = daemon.firstLine()
        guard line.hasPrefix("ready "), let port = Int(line.dropFirst(6)) else { throw TestServerError("the SMTP server did not start: \(line)") }
        self.port = port
    }

    /// Every message received, as Python's email parser reads it (Scripts/read-maildir.py).
    public func messages() throws -> [[String: Any]] {
        guard FileManager.default.fileExists(atPath: maildir + "/new") else { return [] }
        let (status, text) = try runTool(
            Repository.python, [Repository.scripts.appendingPathComponent("read-maildir.py").path, maildir],
            environment: [:])
        guard status == 0, let list = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]] else {
            throw TestServerError("cannot read the Maildir: \(text)")
        }
        return list
    }

    public func waitForMessages(_ count: Int, seconds: Double) throws -> [[String: Any]] {
        let deadline = Date().addingTimeInterval(seconds)
        var got = try messages()
        while got.count < count && Date() < deadline {
            usleep(100_000)
            got = try messages()
        }
        return got
    }

    /// A self-signed certificate for 127.0.0.1 (openssl), for STARTTLS tests.
    public static func certificate(in folder: TemporaryFolder) throws -> (cert: String, key: String) {
        try Repository.require("/usr/bin/openssl", "openssl")
        let cert = folder.path("cert.pem"), key = folder.path("key.pem")
        let (status, text) = try runTool(
            "/usr/bin/openssl",
            [
                "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert, "-days", "2",
                "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
            ], environment: [:])
        guard status == 0 else { throw TestServerError("openssl: \(text)") }
        return (cert, key)
    }
}

/// A private session bus (dbus-daemon with a minimal config: no service activation), optionally
/// with a real notification server: dunst on an Xvfb display. dunst's context menu ("dmenu")
/// is a script that records the menu and picks the entry starting with the word in `choice`.
public final class DesktopSession {
    public let folder: TemporaryFolder
    public let address: String
    public let display: String
    private var daemons: [Daemon] = []

    public var environment: [String: String] { ["DBUS_SESSION_BUS_ADDRESS": address, "DISPLAY": display] }
    public var menuFile: String { folder.path("menu.txt") }
    public var choiceFile: String { folder.path("choice") }

    /// The notification server a session runs.
    public enum NotificationServer {
        case none, dunst
        /// GNOME's notification-daemon: real buttons, clicked with xdotool (`click`).
        case gnome
    }

    public convenience init(notificationServer: Bool) throws {
        try self.init(server: notificationServer ? .dunst : .none)
    }

    public init(server: NotificationServer) throws {
        let notificationServer = server != .none
        for tool in ["/usr/bin/dbus-daemon", "/usr/bin/Xvfb", "/usr/bin/dunst", "/usr/bin/dunstctl"] { try Repository.require(tool, tool) }
        if server == .gnome {
            for tool in [Self.gnomeDaemon, "/usr/bin/xdotool", "/usr/bin/dbus-send", "/usr/bin/import", "/usr/bin/convert"] {
                try Repository.require(tool, tool)
            }
        }
        folder = try TemporaryFolder()
        let (bus, busAddress) = try privateBus(in: folder, named: "bus")
        daemons.append(bus)
        address = busAddress
        guard notificationServer else {
            // No display is started: a name of our own that no test shares by chance.
            display = ":\(100 + Int(getpid()) % 400)"
            return
        }
        // Xvfb picks a free display itself and says which once it accepts connections: a display
        // named by the process id is shared by the tests of one process, and a socket left by one
        // killed before looks ready before the new server listens.
        let xvfb = try Daemon("/usr/bin/Xvfb", ["-displayfd", "1", "-screen", "0", "1024x600x24", "-nolisten", "tcp"])
        daemons.append(xvfb)
        let number = xvfb.firstLine()
        guard Int(number) != nil else { throw TestServerError("Xvfb did not start: \(number)") }
        display = ":\(number)"
        if server == .gnome {
            daemons.append(try Daemon(Self.gnomeDaemon, [], environment: environment))
            let ask = [
                "--session", "--print-reply", "--dest=org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus.NameHasOwner",
                "string:org.freedesktop.Notifications",
            ]
            for _ in 0..<100 {
                if (try? runTool("/usr/bin/dbus-send", ask, environment: environment))?.1.contains("boolean true") == true { return }
                usleep(50_000)
            }
            throw TestServerError("notification-daemon did not start on \(display)")
        }
        let dmenu = folder.path("dmenu.sh")
        try "#!/bin/sh\ncat > \(menuFile)\ngrep -m1 \"^#$(cat \(choiceFile)) \" \(menuFile)\n".write(toFile: dmenu, atomically: true, encoding: .utf8)
        chmod(dmenu, 0o755)
        try "Done".write(toFile: choiceFile, atomically: true, encoding: .utf8)
        try """
        [global]
            dmenu = \(dmenu)
            markup = full
            font = DejaVu Sans 12
            width = 420
            origin = top-right
            offset = 20x40
        # Shows (and records in history's "message") the urgency dunst received.
        [urgent]
            msg_urgency = critical
            format = "URGENT <b>%s</b>\\n%b"
        """.write(toFile: folder.path("dunstrc"), atomically: true, encoding: .utf8)
        daemons.append(try Daemon("/usr/bin/dunst", ["-config", folder.path("dunstrc")], environment: environment))
        for _ in 0..<100 {
            if (try? dunstctl(["is-paused"]))?.0 == 0 { return }
            usleep(50_000)
        }
        throw TestServerError("dunst did not start on \(display)")
    }

    @discardableResult
    public func dunstctl(_ arguments: [String]) throws -> (Int32, String) {
        try runTool("/usr/bin/dunstctl", arguments, environment: ["PATH": "/usr/bin:/bin"].merging(environment) { $1 })
    }

    /// How many notifications dunst shows now.
    public func displayed() -> Int { Int((try? dunstctl(["count", "displayed"]))?.1.trimmingCharacters(in: .whitespacesAndNewlines) ?? "") ?? -1 }

    public func waitForDisplayed(_ count: Int, seconds: Double) -> Int {
        let deadline = Date().addingTimeInterval(seconds)
        while displayed() < count && Date() < deadline { usleep(50_000) }
        return displayed()
    }

    /// dunst's history: each notification's fields (summary, body, appname, category, urgency, id).
    public func history() throws -> [[String: Any]] {
        let (_, text) = try dunstctl(["history"])
        let root = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
        let lists = root?["data"] as? [[[String: Any]]] ?? []
        return lists.flatMap { $0 }.map { entry in entry.mapValues { ($0 as? [String: Any])?["data"] ?? $0 } }
    }

    /// Opens dunst's context menu on the newest notification; the dmenu script picks the entry
    /// labelled `label` (Done, Skip, Snooze).
    public func invoke(_ label: String) throws {
        try label.write(toFile: choiceFile, atomically: true, encoding: .utf8)
        try dunstctl(["context"])
    }

    static let gnomeDaemon = "/usr/lib/notification-daemon/notification-daemon"

    /// The action buttons of the notification notification-daemon shows (the newest), as centres
    /// on the screen (`buttonLabels`).
    public func buttons() throws -> [(x: Int, y: Int)] {
        let (_, windows) = try runTool("/usr/bin/xdotool", ["search", "--onlyvisible", "--name", "Notification"], environment: environment)
        guard let window = windows.split(separator: "\n").last.map(String.init) else { return [] }
        return try buttonLabels(window: window, environment: environment, shot: folder.path("window.gray"))
    }

    /// A real click (xdotool) on the notification's `index`th button.
    public func click(button index: Int) throws {
        let all = try buttons()
        guard index < all.count else { throw TestServerError("no button \(index) among \(all.count)") }
        try xdotoolClick(at: all[index], environment: environment)
    }

    /// A screenshot of the whole display (imagemagick's import), kept as a test artifact.
    public func screenshot(to path: String) throws {
        try Repository.require("/usr/bin/import", "imagemagick")
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        let (status, text) = try runTool("/usr/bin/import", ["-window", "root", path], environment: environment)
        guard status == 0 else { throw TestServerError("import: \(text)") }
    }
}

/// The action buttons of a notification server's window on X (`window`, an X window id): found
/// as the runs of dark pixels (their labels) in the lowest band of text in the window, left to
/// right; as centres on the screen. `shot` is where the window's pixels are written.
public func buttonLabels(window: String, environment: [String: String], shot: String) throws -> [(x: Int, y: Int)] {
    let (_, geometry) = try runTool("/usr/bin/xdotool", ["getwindowgeometry", "--shell", window], environment: environment)
    var values: [String: Int] = [:]
    for line in geometry.split(separator: "\n") {
        let parts = line.split(separator: "=")
        if parts.count == 2 { values[String(parts[0])] = Int(parts[1]) }
    }
    guard let x = values["X"], let y = values["Y"], let width = values["WIDTH"], let height = values["HEIGHT"], width > 0, height > 0 else { return [] }
    let (status, text) = try runTool(
        "/bin/sh", ["-c", "import -window root -crop \(width)x\(height)+\(x)+\(y) -colorspace Gray -depth 8 gray:\(shot)"], environment: environment)
    guard status == 0 else { throw TestServerError("import: \(text)") }
    let pixels = [UInt8](try Data(contentsOf: URL(fileURLWithPath: shot)))
    guard pixels.count == width * height else { return [] }
    func dark(_ column: Int, _ row: Int) -> Bool { pixels[row * width + column] < 128 }
    // Rows with text, inside the rounded frame's edges.
    let rows = (4..<(height - 4)).filter { row in (8..<(width - 8)).contains { dark($0, row) } }
    guard let last = rows.last else { return [] }
    var band = [last]
    while let top = band.first, rows.contains(top - 1) { band.insert(top - 1, at: 0) }
    let columns = (8..<(width - 8)).filter { column in band.contains { dark(column, $0) } }
    var runs: [[Int]] = []
    for column in columns {
        if let end = runs.last?.last, column - end <= 12 { runs[runs.count - 1].append(column) } else { runs.append([column]) }
    }
    let middle = y + (band[0] + band[band.count - 1]) / 2
    return runs.map { (x: x + ($0[0] + $0[$0.count - 1]) / 2, y: middle) }
}

/// A real click (xdotool) at `point` on the display.
public func xdotoolClick(at point: (x: Int, y: Int), environment: [String: String]) throws {
    let (status, text) = try runTool("/usr/bin/xdotool", ["mousemove", "\(point.x)", "\(point.y)", "click", "1"], environment: environment)
    guard status == 0 else { throw TestServerError("xdotool: \(text)") }
}
