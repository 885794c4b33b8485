import DawnletCore
import DawnletSystem
import DawnletTestSupport
import Foundation
import Testing

/// Zones from the system's tzdata, by name, from $TZDIR or /usr/share/zoneinfo, and the system zone
/// from TZ or /etc/localtime (issue 14).
@Suite struct ZoneDatabaseTests {
    let folder: TemporaryFolder
    let july2027 = Instant(secondsSinceEpoch: 1_814_443_200)  // 2027-07-01T12:00Z

    init() throws { folder = try TemporaryFolder() }

    /// A zone compiled with zic into a folder of its own: Europe/Berlin without DST.
    func compiledWithoutDST() throws -> String {
        let source = folder.path("berlin.zi")
        try "Zone Europe/Berlin 1:00 - CET\n".write(toFile: source, atomically: true, encoding: .utf8)
        let out = folder.path("zoneinfo")
        let (status, text) = try runTool("/usr/sbin/zic", ["-d", out, source], environment: [:])
        #expect(status == 0, "zic: \(text) (make deps installs it with libc-bin)")
        return out
    }

    @Test("a zone by name follows the files: the system's Berlin has DST in July 2027, one compiled without it into TZDIR has not")
    func followsTheFiles() throws {
        #expect(try ZoneDatabase(environment: [:]).rules(named: "Europe/Berlin").utcOffset(at: july2027) == 7200)
        let tzdir = try compiledWithoutDST()
        let database = ZoneDatabase(environment: ["TZDIR": tzdir])
        #expect(database.directory == tzdir)
        #expect(try database.rules(named: "Europe/Berlin").utcOffset(at: july2027) == 3600)
    }

    @Test("names that are not zones: unknown (saying where names come from), or paths out of the folder")
    func badNames() {
        let database = ZoneDatabase(environment: [:])
        #expect { try database.rules(named: "Mars/Olympus") } throws: {
            "\($0)" == "unknown time zone \"Mars/Olympus\": not in /usr/share/zoneinfo (names are those of the tzdata package, such as Europe/Berlin)"
        }
        for name in ["../../etc/passwd", "/etc/localtime", "", "Europe/Ber lin", "zone.tab"] {
            #expect(throws: ZoneError.self, "\(name)") { try database.rules(named: name) }
        }
    }

    @Test("the system zone: TZ as a name, :name or a path; else /etc/localtime's link, or a copy named by /etc/timezone; a FIFO does not hang it")
    func systemZone() throws {
        let database = ZoneDatabase(environment: [:])
        #expect(try database.systemZone(environment: ["TZ": "Asia/Tokyo"]).name == "Asia/Tokyo")
        #expect(try database.systemZone(environment: ["TZ": ":Asia/Tokyo"]).rules.utcOffset(at: july2027) == 32_400)
        let byPath = try database.systemZone(environment: ["TZ": "/usr/share/zoneinfo/Asia/Tokyo"])
        #expect(byPath.name == nil && byPath.rules.utcOffset(at: july2027) == 32_400)
        let link = folder.path("localtime")
        #expect(symlink("/usr/share/zoneinfo/America/New_York", link) == 0)
        let linked = try database.systemZone(environment: [:], localtime: link, timezoneFile: folder.path("none"))
        #expect(linked.name == "America/New_York" && linked.rules.utcOffset(at: july2027) == -14_400)
        let copy = folder.path("copy")
        try FileManager.default.copyItem(atPath: "/usr/share/zoneinfo/Australia/Sydney", toPath: copy)
        try "Australia/Sydney\n".write(toFile: folder.path("timezone"), atomically: true, encoding: .utf8)
        let copied = try database.systemZone(environment: [:], localtime: copy, timezoneFile: folder.path("timezone"))
        #expect(copied.name == "Australia/Sydney" && copied.rules.utcOffset(at: july2027) == 36_000)
        let fifo = folder.path("fifo")
        #expect(mkfifo(fifo, 0o600) == 0)
        #expect(throws: ZoneError.self) { try database.systemZone(environment: [:], localtime: fifo) }
    }
}
