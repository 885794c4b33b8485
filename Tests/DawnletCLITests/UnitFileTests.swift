import DawnletTestSupport
import Foundation
import Testing

@Suite struct UnitFileTests {
    @Test("the user unit passes systemd-analyze --user verify once pointed at the binary")
    func verify() throws {
        let analyze = "/usr/bin/systemd-analyze"
        guard FileManager.default.isExecutableFile(atPath: analyze) else {
            Issue.record("systemd-analyze is missing: run `make deps`")
            return
        }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let template = try String(contentsOf: root.appendingPathComponent("systemd/dawnlet-remind.service"), encoding: .utf8)
        #expect(template.contains("Type=notify") && template.contains("ExecReload=") && template.contains("WantedBy=default.target"))
        let folder = try TemporaryFolder()
        let unit = folder.path("dawnlet-remind.service")
        try template.replacingOccurrences(of: "@BINDIR@", with: CLIProcess.binary.deletingLastPathComponent().path)
            .write(toFile: unit, atomically: true, encoding: .utf8)
        let runtime = folder.path("runtime")
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let process = Process()
        process.executableURL = URL(fileURLWithPath: analyze)
        process.arguments = ["--user", "--man=no", "verify", unit]
        process.environment = ["XDG_RUNTIME_DIR": runtime, "PATH": "/usr/bin:/bin"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(text)")
        #expect(text.isEmpty, "\(text)")
    }

    @Test("under a real systemd --user: starts (Type=notify), reports status, reloads, stops with 0, logs to the journal")
    func userManager() throws {
        guard getuid() == 0, FileManager.default.isExecutableFile(atPath: "/lib/systemd/systemd") else {
            Issue.record("needs root and systemd (run `make deps`)")
            return
        }
        let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        let root = here.deletingLastPathComponent().deletingLastPathComponent()
        let folder = try TemporaryFolder()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/timeout")
        process.arguments = ["90", "unshare", "-m", "--propagation", "private", here.appendingPathComponent("Scripts/systemd-user.sh").path,
                             folder.path("m"), CLIProcess.binary.deletingLastPathComponent().path,
                             root.appendingPathComponent("systemd/dawnlet-remind.service").path]
        process.environment = ["PATH": "/usr/sbin:/usr/bin:/sbin:/bin"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let lines = text.split(separator: "\n").map(String.init)
        for expected in ["start=0", "active=active", "reload=0", "after-reload=active", "stop=0", "Result=success", "ExecMainStatus=0",
                         "DAWNLET_KEY=todo:1:", "DAWNLET_OUTCOME=delivered", "DAWNLET_CHANNEL=desktop"] {
            #expect(lines.contains { $0.hasPrefix(expected) }, "\(expected) in:\n\(text)")
        }
        #expect(lines.contains { $0.hasPrefix("StatusText=nothing due before") || $0.hasPrefix("StatusText=next: ") }, "\(text)")
        #expect(lines.contains { $0.hasPrefix("MESSAGE=planned (start)") }, "\(text)")
        #expect(lines.contains { $0.hasPrefix("MESSAGE=planned (SIGHUP)") }, "\(text)")
        #expect(lines.contains { $0.hasPrefix("MESSAGE=delivered todo:1:") }, "\(text)")
    }
}
