import DawnletCore
import Foundation

/// SplitMix64: a small seeded generator so every random test is reproducible from its seed.
public struct SeededRandom: RandomNumberGenerator {
    private var state: UInt64
    public init(seed: UInt64) { state = seed }
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

public func date(_ text: String) -> CivilDate {
    guard let d = CivilDate(text) else { preconditionFailure("bad test date \(text)") }
    return d
}

public func dates(_ texts: String...) -> [CivilDate] { texts.map(date) }

public func schedule(_ text: String) throws -> Schedule { try Schedule(parsing: text) }


/// A fresh folder per test, removed afterwards: every store test runs on its own real file.
public final class TemporaryFolder {
    public let url: URL

    public init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("dawnlet-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    public func path(_ name: String) -> String { url.appendingPathComponent(name).path }
}

public func mode(_ path: String) throws -> Int {
    let attributes = try FileManager.default.attributesOfItem(atPath: path)
    return (attributes[.posixPermissions] as? Int) ?? -1
}
