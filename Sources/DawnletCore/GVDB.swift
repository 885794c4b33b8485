/// A GVDB file (GLib's "GVariant database", the format of dconf's user database,
/// `~/.config/dconf/user`) read for one value: its hash table's items are walked, each full key
/// rebuilt from its parents, and a boolean read from the serialised variant of the one asked for.
/// Only what dconf writes is read: a little-endian file, values of type `v`. Anything else, or a
/// file cut short, is no answer (nil), never a trap.
public enum GVDB {
    /// The boolean at `key` (such as `/org/gnome/desktop/notifications/show-banners`); nil when
    /// the file is not a GVDB file, the key is not there, or its value is not a boolean.
    public static func boolean(at key: String, in bytes: [UInt8]) -> Bool? {
        guard let value = value(at: key, in: bytes).map(Array.init), value.count == 3, value[1] == 0, value[2] == UInt8(ascii: "b"), value[0] <= 1 else {
            return nil
        }
        return value[0] == 1
    }

    /// The serialised variant (`v`) stored at `key`: the value's bytes, a zero, its type string.
    static func value(at key: String, in bytes: [UInt8]) -> ArraySlice<UInt8>? {
        guard bytes.count >= 24, Array(bytes[0..<8]) == Array("GVariant".utf8) else { return nil }
        func u32(_ at: Int) -> Int? {
            guard at >= 0, at + 4 <= bytes.count else { return nil }
            return Int(bytes[at]) | Int(bytes[at + 1]) << 8 | Int(bytes[at + 2]) << 16 | Int(bytes[at + 3]) << 24
        }
        guard let start = u32(16), let end = u32(20), start + 8 <= end, end <= bytes.count, let bloom = u32(start), let buckets = u32(start + 4)
        else { return nil }
        let itemsStart = start + 8 + 4 * (bloom & ((1 << 27) - 1)) + 4 * buckets
        guard itemsStart <= end else { return nil }
        let count = (end - itemsStart) / 24
        let none = 0xFFFF_FFFF
        var names: [Int: String] = [:]
        /// An item's full key: its parents' keys before its own (a parent chain longer than the
        /// table is a loop: no key).
        func fullKey(_ index: Int, depth: Int = 0) -> String? {
            if let known = names[index] { return known }
            let item = itemsStart + 24 * index
            guard depth <= count, let parent = u32(item + 4), let keyStart = u32(item + 8), item + 24 <= bytes.count else { return nil }
            let keySize = Int(bytes[item + 12]) | Int(bytes[item + 13]) << 8
            guard keyStart + keySize <= bytes.count else { return nil }
            let own = String(decoding: bytes[keyStart..<(keyStart + keySize)], as: UTF8.self)
            var name = own
            if parent != none {
                guard parent < count, let above = fullKey(parent, depth: depth + 1) else { return nil }
                name = above + own
            }
            names[index] = name
            return name
        }
        for index in 0..<count {
            let item = itemsStart + 24 * index
            guard bytes[item + 14] == UInt8(ascii: "v"), fullKey(index) == key, let from = u32(item + 16), let to = u32(item + 20), from <= to,
                to <= bytes.count
            else { continue }
            return bytes[from..<to]
        }
        return nil
    }
}
