import DawnletCore
import DawnletSystem
import DawnletTestSupport
import Foundation
import Testing

/// Zones from the system's tzdata, by name, from $TZDIR or /usr/share/zoneinfo, and the system zone
/// from TZ or /etc/localtime.
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
        #expect(try ZoneDatabase(environment: [:]).zone(named: "Europe/Berlin").utcOffset(at: july2027) == 7200)
        let tzdir = try compiledWithoutDST()
        let database = ZoneDatabase(environment: ["TZDIR": tzdir])
        #expect(database.directory == tzdir)
        #expect(try database.zone(named: "Europe/Berlin").utcOffset(at: july2027) == 3600)
    }

    @Test("names that are not zones: unknown (saying where names come from), or paths out of the folder")
    func badNames() {
        let database = ZoneDatabase(environment: [:])
        #expect { try database.zone(named: "Mars/Olympus") } throws: {
            "\($0)" == "unknown time zone \"Mars/Olympus\": not in /usr/share/zoneinfo (names are those of the tzdata package, such as Europe/Berlin)"
        }
        for name in ["../../etc/passwd", "/etc/localtime", "", "Europe/Ber lin", "zone.tab"] {
            #expect(throws: ZoneError.self, "\(name)") { try database.zone(named: name) }
        }
    }

    @Test("the system zone: TZ as a name, :name or a path; else /etc/localtime's link, or a copy named by /etc/timezone; a FIFO does not hang it")
    func systemZone() throws {
        let database = ZoneDatabase(environment: [:])
        #expect(try database.systemZone(environment: ["TZ": "Asia/Tokyo"]).identifier == "Asia/Tokyo")
        #expect(try database.systemZone(environment: ["TZ": ":Asia/Tokyo"]).rules.utcOffset(at: july2027) == 32_400)
        let byPath = try database.systemZone(environment: ["TZ": "/usr/share/zoneinfo/Asia/Tokyo"])
        #expect(byPath.identifier == "/usr/share/zoneinfo/Asia/Tokyo" && byPath.rules.utcOffset(at: july2027) == 32_400)
        let link = folder.path("localtime")
        #expect(symlink("/usr/share/zoneinfo/America/New_York", link) == 0)
        let linked = try database.systemZone(environment: [:], localtime: link, timezoneFile: folder.path("none"))
        #expect(linked.identifier == "America/New_York" && linked.rules.utcOffset(at: july2027) == -14_400)
        let copy = folder.path("copy")
        try FileManager.default.copyItem(atPath: "/usr/share/zoneinfo/Australia/Sydney", toPath: copy)
        try "Australia/Sydney\n".write(toFile: folder.path("timezone"), atomically: true, encoding: .utf8)
        let copied = try database.systemZone(environment: [:], localtime: copy, timezoneFile: folder.path("timezone"))
        #expect(copied.identifier == "Australia/Sydney" && copied.rules.utcOffset(at: july2027) == 36_000)
        let fifo = folder.path("fifo")
        #expect(mkfifo(fifo, 0o600) == 0)
        #expect(throws: ZoneError.self) { try database.systemZone(environment: [:], localtime: fifo) }
        // A copy /etc/timezone misnames (its rules are not that zone's) is known by its path.
        try "Europe/Paris\n".write(toFile: folder.path("timezone"), atomically: true, encoding: .utf8)
        let misnamed = try database.systemZone(environment: [:], localtime: copy, timezoneFile: folder.path("timezone"))
        #expect(misnamed.identifier == copy && misnamed.rules.utcOffset(at: july2027) == 36_000)
        // No /etc/localtime and no TZ: UTC, as glibc.
        #expect(try database.systemZone(environment: [:], localtime: folder.path("absent")) == Zone.utc)
    }

    @Test("a zone file changed on disk is read again after forget(); UTC needs no file")
    func readAgain() throws {
        let tzdir = try compiledWithoutDST()
        let database = ZoneDatabase(environment: ["TZDIR": tzdir])
        let before = try database.zone(named: "Europe/Berlin")
        #expect(before.utcOffset(at: july2027) == 3600)
        try FileManager.default.removeItem(atPath: "\(tzdir)/Europe/Berlin")
        try FileManager.default.copyItem(atPath: "/usr/share/zoneinfo/Europe/Berlin", toPath: "\(tzdir)/Europe/Berlin")
        #expect(try database.zone(named: "Europe/Berlin") == before, "cached until forgotten")
        database.forget()
        let after = try database.zone(named: "Europe/Berlin")
        #expect(after != before && after.utcOffset(at: july2027) == 7200)
        #expect(database.file(of: "Europe/Berlin") == "\(tzdir)/Europe/Berlin")
        #expect(try database.zone(named: "UTC").utcOffset(at: july2027) == 0, "no UTC file in \(tzdir)")
        #expect(database.version == nil)
        #expect(ZoneDatabase(environment: [:]).version?.count == 5, "tzdata.zi names its version, such as 2025b")
    }

    @Test("the next change of offset: Berlin's spring forward and fall back of 2027, none for Tokyo")
    func nextChange() throws {
        let berlin = try ZoneDatabase(environment: [:]).zone(named: "Europe/Berlin")
        let new2027 = Instant(secondsSinceEpoch: 1_798_761_600)  // 2027-01-01T00:00Z
        let spring = try #require(berlin.nextChange(after: new2027, within: 400 * 86_400))
        #expect(ISO8601.format(spring, in: berlin) == "2027-03-28T03:00:00+02:00")
        let autumn = try #require(berlin.nextChange(after: spring, within: 400 * 86_400))
        #expect(ISO8601.format(autumn, in: berlin) == "2027-10-31T02:00:00+01:00")
        #expect(berlin.nextChange(after: new2027, within: 60 * 86_400) == nil)
        #expect(try ZoneDatabase(environment: [:]).zone(named: "Asia/Tokyo").nextChange(after: new2027, within: 400 * 86_400) == nil)
    }
}
