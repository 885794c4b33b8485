import DawnletTestSupport
import Foundation
import Testing

@testable import DawnletCore

/// The TZif reader (RFC 8536) against an independent reader of the same files: Python's zoneinfo.
/// Every Area/City and Etc/* zone of the system's tzdata, every offset change from
/// 1970 to 2040 and the seconds either side, and a wall time inside each gap and fold.
@Suite struct ZoneRulesTests {
    static let zoneinfo = "/usr/share/zoneinfo"
    static let oracle = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Scripts/zone_oracle.py").path

    func rules(_ name: String) throws -> ZoneRules {
        let bytes = try #require(FileManager.default.contents(atPath: "\(Self.zoneinfo)/\(name)"), "\(name): no zone file (make deps installs tzdata)")
        return try ZoneRules(tzif: [UInt8](bytes))
    }

    @Test("every zone agrees with Python's zoneinfo on every offset change 1970–2040 and on the gaps and folds")
    func againstZoneinfo() throws {
        guard FileManager.default.fileExists(atPath: "\(Self.zoneinfo)/Europe/Berlin") else {
            Issue.record("\(Self.zoneinfo) is missing: run `make deps` (tzdata)")
            return
        }
        let (status, output) = try runTool("/usr/bin/python3", [Self.oracle], environment: ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"])
        #expect(status == 0, "\(output.prefix(500))")
        let zones = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: [String: [[Int]]]])
        #expect(zones.count > 400, "only \(zones.count) zones")
        var checked = 0
        var wrong: [String] = []
        for (name, checks) in zones.sorted(by: { $0.key < $1.key }) {
            let zone = try rules(name)
            for pair in checks["offsets"] ?? [] {
                checked += 1
                let got = zone.utcOffset(at: Instant(secondsSinceEpoch: Int64(pair[0])))
                if got != pair[1] { wrong.append("\(name) at \(pair[0]): \(got), zoneinfo \(pair[1])") }
            }
            for local in checks["locals"] ?? [] {
                checked += 1
                guard let date = CivilDate(year: local[0], month: local[1], day: local[2]), let wall = WallTime(hour: local[3], minute: local[4]) else {
                    continue
                }
                let got = zone.resolve(wall, on: date).instant.secondsSinceEpoch
                if got != Int64(local[5]) { wrong.append("\(name) \(date) \(wall): \(got), zoneinfo \(local[5])") }
            }
        }
        #expect(checked > 50_000)
        #expect(wrong.isEmpty, "\(wrong.count) of \(checked) differ, first: \(wrong.prefix(10))")
    }

    @Test("the POSIX TZ footer carries a zone past its table: Berlin's DST rule in 2100, a southern zone, a fixed one")
    func footer() throws {
        let berlin = try rules("Europe/Berlin")
        let summer2100 = ISO8601.parse("2100-07-01T12:00Z", zone: Zone.named("UTC"))!
        let winter2100 = ISO8601.parse("2100-01-15T12:00Z", zone: Zone.named("UTC"))!
        #expect(berlin.utcOffset(at: summer2100) == 7200)
        #expect(berlin.utcOffset(at: winter2100) == 3600)
        let sydney = try rules("Australia/Sydney")
        #expect(sydney.utcOffset(at: summer2100) == 36_000)
        #expect(sydney.utcOffset(at: winter2100) == 39_600)
        #expect(PosixTZ("<+0330>-3:30")?.utcOffset(at: 0) == 12_600)
        #expect(PosixTZ("EST5EDT,M3.2.0,M11.1.0")?.standard == -18_000)
        for bad in ["", "C1", "CET-1CEST,M3.5.0", "CET-1CEST,M13.5.0,M10.5.0", "CET-200"] { #expect(PosixTZ(bad) == nil, "\(bad)") }
    }

    @Test("what is not a TZif file is an error, never a crash: empty, truncated, wrong magic, counts out of range")
    func broken() throws {
        let berlin = [UInt8](try #require(FileManager.default.contents(atPath: "\(Self.zoneinfo)/Europe/Berlin")))
        var wrongMagic = berlin
        wrongMagic[0] = UInt8(ascii: "X")
        var hugeCount = berlin
        hugeCount[32..<36] = [0x7F, 0xFF, 0xFF, 0xFF]
        for bytes in [[], Array(berlin.prefix(40)), Array(berlin.prefix(berlin.count / 2)), wrongMagic, hugeCount] {
            #expect(throws: TZifError.self) { try ZoneRules(tzif: bytes) }
        }
        // Every prefix of a real file: read in full or refused, never a trap.
        for length in stride(from: 0, to: berlin.count, by: 7) { _ = try? ZoneRules(tzif: Array(berlin.prefix(length))) }
    }
}
