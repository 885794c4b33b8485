import FoundationEssentials
import Testing

@testable import DawnletCore

/// GNOME's Do Not Disturb as dconf keeps it: `show-banners` read from the user database (a GVDB
/// file). The files below were written by dconf-service 0.40 (`dconf write`): show-banners false,
/// true, and reset; each with other keys beside it (`clock-format`, `show-in-lock-screen`, and a
/// `show-banners` of another schema).
@Suite struct GVDBTests {
    static func file(_ base64: String) -> [UInt8] { Array(Data(base64Encoded: base64)!) }
    static let off = file(
        [
            "R1ZhcmlhbnQAAAAAAAAAABgAAABUAQAAAAAAKAsAAAAAAAAAAgAAAAMAAAAFAAAABwAAAAcAAAAJAAAACgAAAAoAAAAKAAAACwAA",
            "ALmI/doDAAAAVAEAAAgATABcAQAAZAEAANmCtRwJAAAAZAEAAAwAdgBwAQAAcwEAADnFO08AAAAAcwEAAAoATACAAQAAhAEAALC3",
            "JDAIAAAAhAEAAAYATACMAQAAkAEAALyYNkMIAAAAkAEAAAYATACYAQAAnAEAANS1AgD/////nAEAAAEATACgAQAApAEAANNEtnYE",
            "AAAApAEAAAwAdgCwAQAAswEAACqvm40JAAAAswEAABMAdgDIAQAAywEAAEtQkAsFAAAAywEAAAQATADQAQAA2AEAAMIdjIUAAAAA",
            "2AEAAA4ATADoAQAA8AEAADtvqgkCAAAA8AEAAAwAdgAAAgAABgIAAGRlc2t0b3AvAgAAAAkAAABzaG93LWJhbm5lcnMAAGJpbnRl",
            "cmZhY2UvAAAACgAAAGdub21lLwAAAAAAAG90aGVyLwAABgAAAC8AAAAIAAAAc2hvdy1iYW5uZXJzAQBic2hvdy1pbi1sb2NrLXNj",
            "cmVlbgAAAQBib3JnLwADAAAABAAAAG5vdGlmaWNhdGlvbnMvAAABAAAABwAAAGNsb2NrLWZvcm1hdAAAAAAyNGgAAHM=",
        ].joined())
    static let on = file(
        [
            "R1ZhcmlhbnQAAAAAAAAAABgAAABUAQAAAAAAKAsAAAAAAAAAAgAAAAMAAAAFAAAABwAAAAcAAAAJAAAACgAAAAoAAAAKAAAACwAA",
            "ALmI/doDAAAAVAEAAAgATABcAQAAZAEAANmCtRwJAAAAZAEAAAwAdgBwAQAAcwEAADnFO08AAAAAcwEAAAoATACAAQAAhAEAALC3",
            "JDAIAAAAhAEAAAYATACMAQAAkAEAALyYNkMIAAAAkAEAAAYATACYAQAAnAEAANS1AgD/////nAEAAAEATACgAQAApAEAANNEtnYE",
            "AAAApAEAAAwAdgCwAQAAswEAACqvm40JAAAAswEAABMAdgDIAQAAywEAAEtQkAsFAAAAywEAAAQATADQAQAA2AEAAMIdjIUAAAAA",
            "2AEAAA4ATADoAQAA8AEAADtvqgkCAAAA8AEAAAwAdgAAAgAABgIAAGRlc2t0b3AvAgAAAAkAAABzaG93LWJhbm5lcnMBAGJpbnRl",
            "cmZhY2UvAAAACgAAAGdub21lLwAAAAAAAG90aGVyLwAABgAAAC8AAAAIAAAAc2hvdy1iYW5uZXJzAQBic2hvdy1pbi1sb2NrLXNj",
            "cmVlbgAAAQBib3JnLwADAAAABAAAAG5vdGlmaWNhdGlvbnMvAAABAAAABwAAAGNsb2NrLWZvcm1hdAAAAAAyNGgAAHM=",
        ].joined())
    static let unset = file(
        [
            "R1ZhcmlhbnQAAAAAAAAAABgAAAA4AQAAAAAAKAoAAAAAAAAAAQAAAAEAAAABAAAAAQAAAAEAAAACAAAABAAAAAYAAAAIAAAA1LUC",
            "AP////84AQAAAQBMADwBAABAAQAAS1CQCwAAAABAAQAABABMAEQBAABMAQAAwh2MhQQAAABMAQAADgBMAFwBAABgAQAAvJg2QwEA",
            "AABgAQAABgBMAGgBAABsAQAAuYj92gcAAABsAQAACABMAHQBAAB8AQAAOcU7TwQAAAB8AQAACgBMAIgBAACMAQAAKq+bjQIAAACM",
            "AQAAEwB2AKABAACjAQAAsLckMAEAAACjAQAABgBMAKwBAACwAQAA00S2dgMAAACwAQAADAB2AMABAADDAQAAO2+qCQUAAADDAQAA",
            "DAB2ANABAADWAQAALwAAAAEAAABvcmcvBwAAAAMAAABub3RpZmljYXRpb25zLwAABgAAAG90aGVyLwAACAAAAGRlc2t0b3AvBQAA",
            "AAIAAABpbnRlcmZhY2UvAAAJAAAAc2hvdy1pbi1sb2NrLXNjcmVlbgABAGJnbm9tZS8AAAAEAAAAc2hvdy1iYW5uZXJzAAAAAAEA",
            "YmNsb2NrLWZvcm1hdAAyNGgAAHM=",
        ].joined())

    @Test("show-banners false is Do Not Disturb; true or reset is not; the other keys are found by their full paths")
    func showBanners() {
        #expect(GVDB.boolean(at: DoNotDisturb.gnomeShowBanners, in: Self.off) == false)
        #expect(DoNotDisturb.on(dconfUser: Self.off))
        #expect(GVDB.boolean(at: DoNotDisturb.gnomeShowBanners, in: Self.on) == true)
        #expect(!DoNotDisturb.on(dconfUser: Self.on))
        #expect(GVDB.boolean(at: DoNotDisturb.gnomeShowBanners, in: Self.unset) == nil)
        #expect(!DoNotDisturb.on(dconfUser: Self.unset))
        #expect(GVDB.boolean(at: "/org/other/show-banners", in: Self.off) == true)
        #expect(GVDB.boolean(at: "/org/gnome/desktop/notifications/show-in-lock-screen", in: Self.off) == true)
        #expect(GVDB.boolean(at: "/org/gnome/desktop/interface/clock-format", in: Self.off) == nil, "a string, not a boolean")
    }

    @Test("no file, another file, a file cut anywhere or with a byte changed anywhere: an answer or none, never a trap")
    func hostile() {
        #expect(!DoNotDisturb.on(dconfUser: []))
        #expect(GVDB.boolean(at: DoNotDisturb.gnomeShowBanners, in: Array("GVariant".utf8)) == nil)
        #expect(GVDB.boolean(at: DoNotDisturb.gnomeShowBanners, in: Array(repeating: 0xFF, count: 64)) == nil)
        for cut in 0..<Self.off.count { _ = GVDB.boolean(at: DoNotDisturb.gnomeShowBanners, in: Array(Self.off.prefix(cut))) }
        for at in 0..<Self.off.count {
            for byte: UInt8 in [0x00, 0x7F, 0xFF] {
                var bytes = Self.off
                bytes[at] = byte
                _ = GVDB.boolean(at: DoNotDisturb.gnomeShowBanners, in: bytes)
            }
        }
    }

    @Test("a dconf Notify touches show-banners when it names the key, or a folder above it")
    func notify() {
        #expect(DoNotDisturb.touchesShowBanners(prefix: "/org/gnome/desktop/notifications/show-banners", changes: [""]))
        #expect(DoNotDisturb.touchesShowBanners(prefix: "/org/gnome/desktop/notifications/", changes: ["show-banners", "x"]))
        #expect(DoNotDisturb.touchesShowBanners(prefix: "/org/gnome/", changes: [""]))
        #expect(DoNotDisturb.touchesShowBanners(prefix: "/org/gnome/", changes: []))
        #expect(!DoNotDisturb.touchesShowBanners(prefix: "/org/gnome/desktop/notifications/show-in-lock-screen", changes: [""]))
        #expect(!DoNotDisturb.touchesShowBanners(prefix: "/org/gnome/desktop/notifications/", changes: ["show-in-lock-screen"]))
        #expect(!DoNotDisturb.touchesShowBanners(prefix: "/org/gnome/desktop/notifications/show", changes: [""]))
    }
}
