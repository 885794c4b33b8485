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
        let (status, text) = try runTool(
            analyze, ["--user", "--man=no", "verify", unit],
            environment: ["XDG_RUNTIME_DIR": runtime, "PATH": "/usr/bin:/bin"])
        #expect(status == 0, "\(text)")
        #expect(text.isEmpty, "\(text)")
    }
}
