import DawnletTestSupport
import Foundation
import Testing

@testable import DawnletCore

/// The config's JSON5 reader against the json5 package, on random documents of every
/// form the spec allows and on the same documents with one character taken out; and the places
/// it names for problems.
@Suite struct JSON5Tests {
    static let oracle = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Scripts/json5_oracle.py").path

    /// The value as JSON, for Python to compare.
    static func json(_ value: ConfigValue) -> Any {
        switch value {
        case .null: NSNull()
        case .bool(let b): b
        case .number(let n): n
        case .string(let s): s
        case .array(let items): items.map(json)
        case .object(let members): members.mapValues(json)
        }
    }

    struct Generator {
        var rng: SeededRandom
        mutating func pick<T>(_ choices: [T]) -> T { choices[Int.random(in: 0..<choices.count, using: &rng)] }
        mutating func chance(_ p: Double) -> Bool { Double.random(in: 0..<1, using: &rng) < p }

        mutating func space() -> String {
            var s = ""
            for _ in 0..<Int.random(in: 0...2, using: &rng) {
                s += pick([" ", "\n", "\t", "  ", "\r\n", "\u{00A0}", " // a comment\n", " /* a * comment */ ", "\u{2028}"])
            }
            return s
        }

        mutating func string() -> String {
            let quote = pick(["\"", "'"])
            var s = quote
            for _ in 0..<Int.random(in: 0...6, using: &rng) {
                s += pick([
                    "a", "Z", " ", "é", "日本", "\\n", "\\t", "\\\\", "\\/", "\\u00e9", "\\x41", "\\'", "\\\"", "\\\n", "😀", "\\ud83d\\ude00", "\\0", "1", "$",
                ])
            }
            if quote == "\"" { s += pick(["'", ""]) } else { s += pick(["\\\"", "\"", ""]) }
            return s + quote
        }

        mutating func number() -> String {
            pick(["0", "7", "-3", "+4", "12.5", ".5", "5.", "-0.25", "1e3", "2E-2", "0x1F", "0XaB", "-0x10", "1.5e+2", "123456"])
        }

        mutating func key() -> String {
            chance(0.3) ? string() : pick(["a", "horizon", "_x", "$y", "k9", "timeZone", "é", "with_under"]) + (chance(0.2) ? "2" : "")
        }

        mutating func object(_ depth: Int) -> String {
            var members: [String] = [], used = Set<String>()
            for _ in 0..<Int.random(in: 0...4, using: &rng) {
                let k = key()
                guard used.insert(k).inserted else { continue }
                members.append(space() + k + space() + ":" + space() + value(depth + 1) + space())
            }
            return "{" + members.joined(separator: ",") + (chance(0.3) && !members.isEmpty ? "," : "") + space() + "}"
        }

        mutating func value(_ depth: Int) -> String {
            switch depth > 3 ? Int.random(in: 0..<4, using: &rng) : Int.random(in: 0..<6, using: &rng) {
            case 0: return string()
            case 1: return number()
            case 2: return pick(["true", "false", "null"])
            case 3: return string()
            case 4: return object(depth)
            default:
                let items = (0..<Int.random(in: 0...4, using: &rng)).map { _ in space() + value(depth + 1) + space() }
                return "[" + items.joined(separator: ",") + (chance(0.3) && !items.isEmpty ? "," : "") + space() + "]"
            }
        }
    }

    @Test("random documents read as the json5 package reads them, and so do they with a character taken out")
    func againstJSON5() throws {
        try Repository.require(Repository.python, "the Python venv with json5")
        var generator = Generator(rng: SeededRandom(seed: 17))
        var cases: [[String: Any]] = []
        for _ in 0..<1_500 {
            // An object, as a config is.
            let document = generator.space() + generator.object(1) + generator.space()
            for variant in [document, Self.mutated(document, &generator)] {
                var ours: String? = nil
                if let parsed = try? JSON5.parse(Array(variant.utf8)) {
                    ours = String(decoding: try JSONSerialization.data(withJSONObject: Self.json(parsed.value), options: [.fragmentsAllowed]), as: UTF8.self)
                }
                cases.append(["text": variant, "ours": ours as Any])
            }
        }
        let answers = try askOracle(Self.oracle, cases)
        var wrong: [String] = []
        for (index, answer) in answers.enumerated() where !(answer is NSNull) {
            wrong.append("\(cases[index]["text"]!) → ours \(cases[index]["ours"]!), json5 \(answer)")
        }
        let read = cases.filter { !($0["ours"] is NSNull) }.count
        #expect(read > 1_500, "only \(read) of \(cases.count) read")
        #expect(wrong.isEmpty, "\(wrong.count) of \(cases.count) differ:\n\(wrong.prefix(8).joined(separator: "\n"))")
    }

    /// The text with one character taken out.
    static func mutated(_ text: String, _ generator: inout Generator) -> String {
        var characters = Array(text)
        guard !characters.isEmpty else { return text }
        characters.remove(at: Int.random(in: 0..<characters.count, using: &generator.rng))
        return String(characters)
    }

    @Test(
        "problems are named where they are",
        arguments: [
            ("{ a: 1, a: 2 }", 1, 9, "a is given twice (first at line 1, column 3); keep one"),
            ("{\n  b: { c: 1,\n    c: 2 } }", 3, 5, "b.c is given twice (first at line 2, column 8); keep one"),
            ("{ a: [1 2] }", 1, 9, "'2' after item 1 of a: a comma or ] should come first"),
            ("{ a: 'x }", 1, 6, "the string opened at line 1, column 6 is never closed"),
            ("{ a: 1 ", 1, 8, "the { opened at line 1, column 1 is never closed with }"),
            ("{ é: tru }", 1, 6, "tru is not a value: put text in quotes (\"tru\")"),
            ("{ a: 01 }", 1, 6, "01 is not a number"),
            ("{} {}", 1, 4, "'{' after the end of the document"),
            ("{ a: /* */ }", 1, 12, "'}' where a value should be (a string in quotes, a number, true, false, null, [ or {)"),
        ])
    func positions(text: String, line: Int, column: Int, message: String) {
        #expect {
            _ = try JSON5.parse(Array(text.utf8))
        } throws: { error in
            guard let error = error as? JSON5.ParseError else { return false }
            return error.position == JSON5.Position(line: line, column: column) && error.message == message
        }
    }

    @Test("where each key path is written; deeper than 16 levels is refused at the 17th")
    func keyPaths() throws {
        let document = try JSON5.parse(Array("{\n  channels: {\n    desktop: { snooze: '1s' },\n  },\n  calendars: [ { name: 'a' } ],\n}".utf8))
        #expect(document.position(of: "channels.desktop.snooze") == JSON5.Position(line: 3, column: 16))
        #expect(document.position(of: "calendars[0].name") == JSON5.Position(line: 5, column: 18))
        #expect(document.position(of: "calendars[0].path") == JSON5.Position(line: 5, column: 16), "unwritten: the object that lacks it")
        let deep = String(repeating: "[", count: 16) + String(repeating: "]", count: 16)
        #expect((try? JSON5.parse(Array("{ a: \(deep) }".utf8))) == nil)
        #expect((try? JSON5.parse(Array("{ a: \(deep.dropFirst().dropLast()) }".utf8))) != nil)
    }
}
