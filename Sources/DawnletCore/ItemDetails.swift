/// What a todo or event holds beside its title and time: a note (several lines), a location, a
/// link, a priority and tags. Exported as DESCRIPTION, LOCATION, URL, PRIORITY and CATEGORIES.
public struct ItemDetails: Hashable, Sendable {
    public var note: String?
    public var location: String?
    public var url: String?
    /// RFC 5545's PRIORITY: 1 (highest) to 9 (lowest); nil for none.
    public var priority: Int?
    /// Lowercase words (`work`, `home-office`), each once, in the order given.
    public var tags: [String]

    public init(note: String? = nil, location: String? = nil, url: String? = nil, priority: Int? = nil, tags: [String] = []) {
        (self.note, self.location, self.url, self.priority, self.tags) = (note, location, url, priority, tags)
    }

    public var isEmpty: Bool { note == nil && location == nil && url == nil && priority == nil && tags.isEmpty }

    /// The longest note kept, in characters.
    public static let noteLimit = 10_000

    /// `high` (1), `medium` (5), `low` (9) or a number 1 to 9, any case.
    public static func priority(_ text: String) -> Int? {
        switch text.lowercased() {
        case "high": return 1
        case "medium": return 5
        case "low": return 9
        default: return parseDigits(text).flatMap { (1...9).contains($0) ? $0 : nil }
        }
    }

    /// A priority in words: high (1–4), medium (5), low (6–9), as RFC 5545 groups them.
    public static func priorityWord(_ priority: Int) -> String {
        priority < 5 ? "high" : priority == 5 ? "medium" : "low"
    }

    /// A tag as kept: lowercase letters, digits, `-` and `_`, 1 to 40 of them; nil for anything else.
    public static func tag(_ text: String) -> String? {
        let tag = text.lowercased()
        guard (1...40).contains(tag.count), tag.unicodeScalars.allSatisfy({ $0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-" || $0 == "_" })
        else { return nil }
        return tag
    }

    /// A link: an absolute URI with a scheme (`https:`, `mailto:`, `geo:`…), no spaces or control
    /// characters, at most 2,000 characters.
    public static func isLink(_ text: String) -> Bool {
        guard text.count <= 2_000, let colon = text.firstIndex(of: ":"), colon != text.startIndex, text.index(after: colon) != text.endIndex else {
            return false
        }
        let scheme = text[..<colon]
        guard let first = scheme.unicodeScalars.first, ("a"..."z").contains(first) || ("A"..."Z").contains(first),
            scheme.unicodeScalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "+-.".unicodeScalars.contains($0)) })
        else { return false }
        return text.unicodeScalars.allSatisfy { $0.value > 0x20 && $0.value != 0x7F && !(0x80...0x9F).contains($0.value) }
    }
}
