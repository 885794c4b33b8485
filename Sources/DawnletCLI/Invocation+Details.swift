import DawnletCore
import DawnletStore
import FoundationEssentials

/// The todos and events of one list (a tag), as a view's `--tag` keeps them.
struct TagFilter: Sendable {
    struct Item: Hashable, Sendable {
        let kind: ReminderKind
        let id: Int64
    }
    let tag: String
    let items: Set<Item>

    func keeps(_ kind: ReminderKind, _ id: Int64?) -> Bool { id.map { items.contains(Item(kind: kind, id: $0)) } ?? false }
    func keeps(_ item: (kind: ReminderKind, id: Int64)?) -> Bool { item.map { keeps($0.kind, $0.id) } ?? false }
}

/// A todo's or event's note, location, link, priority and tags as the command line gives them.
extension Invocation {
    /// The options of `todo|event add` and `edit` that set them.
    static let detailOptions: [OptionSpec] = [
        .value("note"), .value("note-file"), .value("location"), .value("url"), .value("priority"), .repeatable("tag"),
    ]
    static let detailUsage = "[--note TEXT | --note-file PATH] [--location TEXT] [--url LINK] [--priority LEVEL] [--tag TAG]..."

    /// What the command line gives, over `old` (what an edit starts from): an empty `--note`,
    /// `--location` or `--url`, and `--priority none`, take that away; `--tag` (repeatable, or
    /// `a,b`) gives the tags anew, `--no-tags` none.
    func itemDetails(over old: ItemDetails = ItemDetails()) throws(CLIError) -> ItemDetails {
        var details = old
        if arguments.value("note") != nil && arguments.value("note-file") != nil {
            throw .usage("give --note or --note-file, not both", globals.usage)
        }
        if let text = arguments.value("note") { details.note = try note(text, "--note") }
        if let path = arguments.value("note-file") { details.note = try note(try noteFile(path), "--note-file \(DisplayText.escaped(path))") }
        if let text = arguments.value("location") { details.location = text.isEmpty ? nil : try self.text(text, "location") }
        if let text = arguments.value("url") {
            guard text.isEmpty || ItemDetails.isLink(text) else {
                throw .usage("--url \"\(DisplayText.escaped(text))\" is not a link: give one with its scheme (https://…, mailto:…)", globals.usage)
            }
            details.url = text.isEmpty ? nil : text
        }
        if let text = arguments.value("priority") {
            if text.lowercased() == "none" {
                details.priority = nil
            } else {
                guard let priority = ItemDetails.priority(text) else {
                    throw .usage("--priority \"\(DisplayText.escaped(text))\": give high, medium, low, a number 1 (highest) to 9, or none", globals.usage)
                }
                details.priority = priority
            }
        }
        let given = arguments.all("tag")
        if !given.isEmpty && arguments.has("no-tags") { throw .usage("give --tag or --no-tags, not both", globals.usage) }
        if arguments.has("no-tags") { details.tags = [] }
        if !given.isEmpty {
            var tags: [String] = []
            for word in given.flatMap({ $0.split(separator: ",", omittingEmptySubsequences: false) }) {
                guard let tag = ItemDetails.tag(String(word)) else {
                    throw .usage("--tag \"\(DisplayText.escaped(String(word)))\": a tag is 1 to 40 letters, digits, - or _", globals.usage)
                }
                if !tags.contains(tag) { tags.append(tag) }
            }
            details.tags = tags
        }
        return details
    }

    /// `--tag TAG` of a view (`agenda`, `today`, `preview`, `todo|event list`): only the todos
    /// and events of that list; nil when not given.
    func tagFilter(_ store: Store) throws -> TagFilter? {
        guard let text = arguments.value("tag") else { return nil }
        guard let tag = ItemDetails.tag(text) else {
            throw CLIError.usage("--tag \"\(DisplayText.escaped(text))\": a tag is 1 to 40 letters, digits, - or _", globals.usage)
        }
        var ids: Set<TagFilter.Item> = []
        for d in try store.items.definitions([.todo, .event]) where d.details.tags.contains(tag) {
            ids.insert(TagFilter.Item(kind: d.kind.reminderKind, id: d.id))
        }
        return TagFilter(tag: tag, items: ids)
    }

    /// A note as kept: its lines as typed (tabs and line breaks allowed; no other control
    /// character, bidi override or line separator), trailing blank space cut; empty is none.
    func note(_ text: String, _ what: String) throws(CLIError) -> String? {
        let kept = String(text.reversed().drop { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r\n" }.reversed())
        guard !kept.isEmpty else { return nil }
        guard kept.count <= ItemDetails.noteLimit else { throw .usage("\(what): a note is at most \(ItemDetails.noteLimit) characters", globals.usage) }
        if let bad = kept.unicodeScalars.first(where: { $0 != "\n" && $0 != "\t" && !DisplayText.isTypable($0) }) {
            throw .usage("\(what): the note contains U+\(String(bad.value, radix: 16, uppercase: true)), which is not text", globals.usage)
        }
        return kept
    }

    /// The text of the file a note is read from: a regular file of at most 64 KiB of UTF-8.
    func noteFile(_ path: String) throws(CLIError) -> String {
        let limit = 65_536
        let attributes = try? FileManager.default.attributesOfItem(atPath: path)
        guard let attributes, attributes[.type] as? FileAttributeType == .typeRegular else {
            throw CLIError(code: .noInput, message: "--note-file \(DisplayText.escaped(path)): no such file, or not a regular file")
        }
        guard (attributes[.size] as? Int ?? 0) <= limit, let data = FileManager.default.contents(atPath: path), data.count <= limit else {
            throw .usage("--note-file \(DisplayText.escaped(path)): larger than 64 KiB", globals.usage)
        }
        guard let text = String(validating: data, as: UTF8.self) else {
            throw CLIError(code: .dataError, message: "--note-file \(DisplayText.escaped(path)): not UTF-8 text")
        }
        return text
    }
}
