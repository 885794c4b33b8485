import Testing

@testable import DawnletCore

/// Outside text shown in errors and logs: one line, inert, bounded.
@Suite struct DisplayTextTests {
    @Test(
        "line breaks, tabs, backslashes, terminal escapes and bidi overrides are written as escapes",
        arguments: [
            ("two\nlines", #"two\nlines"#),
            ("a\r\nb\tc", #"a\r\nb\tc"#),
            ("back\\slash", #"back\\slash"#),
            ("\u{1B}[31mred\u{1B}[0m", #"\u{1B}[31mred\u{1B}[0m"#),
            ("\u{202E}txt.exe", #"\u{202E}txt.exe"#),
            ("bell\u{07}\u{7F}", #"bell\u{7}\u{7F}"#),
            ("Überweisung 💶 👩‍👩‍👧", "Überweisung 💶 👩‍👩‍👧"),
        ])
    func escaped(_ raw: String, _ shown: String) {
        #expect(DisplayText.escaped(raw) == shown)
        #expect(!DisplayText.escaped(raw).contains("\n"))
    }

    @Test("shown: as escaped, but a backslash stays one; text with nothing to escape is itself")
    func shown() {
        #expect(DisplayText.shown("C:\\tmp \u{1B}]0;x\u{7} \u{202E}exe\r\n") == #"C:\tmp \u{1B}]0;x\u{7} \u{202E}exe\r\n"#)
        #expect(DisplayText.shown("Überweisung 💶 👩‍👩‍👧 C:\\tmp") == "Überweisung 💶 👩‍👩‍👧 C:\\tmp")
        #expect(DisplayText.isTypable("\u{202E}") == false && DisplayText.isTypable("\u{2067}") == false && DisplayText.isTypable("\u{200F}"))
    }

    @Test("bounded: at most the limit in characters, cut text ends in an ellipsis, short text unchanged")
    func bounded() {
        #expect(DisplayText.bounded("abcdef", to: 4) == "abc…")
        #expect(DisplayText.bounded("abcd", to: 4) == "abcd")
        #expect(DisplayText.bounded("👩‍👩‍👧👩‍👩‍👧👩‍👩‍👧", to: 2) == "👩‍👩‍👧…")
        #expect(DisplayText.bounded("", to: 3) == "")
        #expect(DisplayText.bounded("abc", to: 0) == "")
        let huge = String(repeating: "x", count: 10_000_000)
        #expect(DisplayText.bounded(huge, to: 200).count == 200)
    }
}
