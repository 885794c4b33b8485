internal import CLinux
import DawnletCCall
import DawnletCore
import DawnletStore
import DawnletSystem
import FoundationEssentials
import Glibc

/// The `dawnlet-remind` command line: global options, dispatch, and the mapping from errors to
/// one line on stderr and an exit code (`ExitCode`).
public enum CommandLineTool {
    static let name = "dawnlet-remind"

    /// Runs one command line (without the program name) and returns the process exit code.
    public static func main(_ arguments: [String]) -> Int32 {
        var output = Output()
        defer { output.flush() }
        do {
            try run(arguments, output: &output)
            return ExitCode.success.rawValue
        } catch {
            let error = (error as? StoreError).map(CLIError.init) ?? error
            output.flush()
            guard let error = error as? CLIError else {
                output.error("\(name): \(error)")
                return ExitCode.failure.rawValue
            }
            output.error("\(name): \(error.message)")
            if let usage = error.usage { output.error("usage: \(name) \(usage)") }
            return error.code.rawValue
        }
    }

    static func run(_ arguments: [String], output: inout Output) throws {
        var (globals, rest) = try GlobalOptions.extract(from: arguments)
        if rest.isEmpty {
            throw CLIError.usage("no command given", "COMMAND [OPTIONS]  (see --help)")
        }
        if rest == ["--help"] || rest == ["-h"] {
            output.line(Help.overview())
            return
        }
        if rest[0] == "help" {
            output.line(try help(Array(rest.dropFirst())))
            return
        }
        if rest == ["--version"] {
            output.line(versionLine)
            return
        }
        // Only before `--`: `todo add -- --help` adds a todo titled "--help".
        let asksHelp = rest.prefix { $0 != "--" }.contains { $0 == "--help" || $0 == "-h" }
        if !asksHelp, let refusal = ItemCommands.checklistRefusal(rest) { throw refusal }
        guard let command = Command.find(rest) else {
            let noun = rest[0]
            let verbs = Help.verbs(of: noun)
            if verbs.isEmpty {
                let problem = noun.hasPrefix("-") ? "unknown option \(noun)" : "unknown command \"\(noun)\""
                let suggestion =
                    noun.hasPrefix("-")
                    ? Help.suggestion(String(noun.drop { $0 == "-" }), among: ["help", "version"], writtenWith: "--")
                    : Help.suggestion(noun, among: Help.nouns + ["help"])
                throw CLIError.usage(problem + suggestion, "COMMAND [OPTIONS]  (see --help)")
            }
            if asksHelp {
                output.line(Help.text(ofNoun: noun))
                return
            }
            let choices = verbs.compactMap { $0.path.dropFirst().first }
            let given =
                rest.count > 1
                ? "unknown \(noun) command \"\(rest[1])\"" + Help.suggestion(rest[1], among: choices) : "\(noun) needs a command"
            throw CLIError.usage(given, "\(noun) {\(choices.joined(separator: "|"))} ...  (\(noun) --help for more)")
        }
        rest.removeFirst(command.path.count)
        output.colored = Output.colors(globals.color)
        if command.path != ["serve"] {
            // A command lives for milliseconds: keep freed memory for reuse instead of handing large
            // blocks back to the kernel and faulting fresh pages in again (about 8% of a big
            // preview). Not for the runner, which lives for days and gives memory back after a plan.
            mallopt(M_MMAP_THRESHOLD, 256 << 20)
            mallopt(M_TRIM_THRESHOLD, 256 << 20)
        }
        if asksHelp {
            output.line(Help.text(of: command))
            return
        }
        let parsed = try ParsedArguments.parse(rest, options: command.options, usage: command.usage)
        guard command.positionals.contains(parsed.positionals.count) else {
            let problem =
                parsed.positionals.count < command.positionals.lowerBound
                ? "missing argument" : "unexpected argument \"\(parsed.positionals[command.positionals.upperBound])\""
            throw CLIError.usage(problem, command.usage)
        }
        globals.usage = command.usage
        var config = Config(), configProblem: CLIError?
        do { config = try ConfigFile.load(explicitPath: globals.configPath) } catch {
            guard command.runsDespiteConfigProblem else { throw error }
            configProblem = error
        }
        var invocation = Invocation(arguments: parsed, globals: globals, output: output, config: config, configProblem: configProblem)
        // What a command printed before it failed is kept: `doctor`'s checks, a list cut short.
        defer { output = invocation.output }
        try command.run(&invocation)
    }

    /// The release: the one place it is written (the Debian package takes it from `--version`).
    static let version = "0.1.0"
    /// The commit the binary was built from, `-dirty` when the tree had changes; "unknown" when the
    /// build did not say (only the Makefile's release builds do).
    static var commit: String {
        let commit = String(cString: dawnlet_build_commit())
        return commit.isEmpty ? "unknown" : commit
    }
    /// `--version`: `dawnlet-remind 0.1.0 (commit 0a1126a)`.
    static var versionLine: String { "\(name) \(version) (commit \(commit))" }

    /// `help [COMMAND…|TOPIC]`: the overview, a noun's commands, one command, or a topic.
    static func help(_ words: [String]) throws(CLIError) -> String {
        guard let first = words.first else { return Help.overview() }
        if words.count == 1, let topic = Help.topic(first) { return topic.text }
        if let command = Command.find(words), command.path.count == words.count { return Help.text(of: command) }
        if words.count == 1, !Help.verbs(of: first).isEmpty { return Help.text(ofNoun: first) }
        let candidates = Help.nouns + Help.topics.map(\.name)
        if words.count > 1, !Help.verbs(of: first).isEmpty {
            let verbs = Help.verbs(of: first).compactMap { $0.path.dropFirst().first }
            throw .usage("no help for \"\(words.joined(separator: " "))\"" + Help.suggestion(words[1], among: verbs), "help [COMMAND...|TOPIC]")
        }
        throw .usage("no help for \"\(words.joined(separator: " "))\"" + Help.suggestion(first, among: candidates), "help [COMMAND...|TOPIC]")
    }
}

/// `--config`, `--db`, `--tz` and `--now` may stand before or after the command.
struct GlobalOptions {
    var configPath: String?
    var databasePath: String?
    var timeZoneName: String?
    /// `--now ISO`: the instant "today", "tomorrow" and `preview` count from (default: the clock).
    var now: String?
    /// `--color auto|always|never`: whether text on stdout is coloured (auto: a terminal, unless
    /// NO_COLOR is set or TERM is dumb). JSON never is.
    var color: String?
    /// The running command's usage line, for errors found while it runs.
    var usage = ""

    static let names: Set<String> = ["config", "db", "tz", "now", "color"]

    static func extract(from arguments: [String]) throws(CLIError) -> (GlobalOptions, [String]) {
        var globals = GlobalOptions()
        var rest: [String] = []
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if argument == "--" {
                rest.append(contentsOf: arguments[(index - 1)...])
                break
            }
            var name = argument.hasPrefix("--") ? String(argument.dropFirst(2)) : ""
            var value: String?
            if let equals = name.firstIndex(of: "=") {
                value = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
            }
            guard names.contains(name) else {
                rest.append(argument)
                continue
            }
            if value == nil {
                guard index < arguments.count else {
                    throw .usage("--\(name) needs a value", "[--config PATH] [--db PATH] [--tz ZONE] [--now ISO] [--color WHEN] COMMAND")
                }
                value = arguments[index]
                index += 1
            }
            switch name {
            case "config": globals.configPath = value
            case "db": globals.databasePath = value
            case "now": globals.now = value
            case "color":
                guard ["auto", "always", "never"].contains(value) else {
                    throw .usage("--color \"\(value ?? "")\" is not auto, always or never", "[--color auto|always|never] COMMAND")
                }
                globals.color = value
            default: globals.timeZoneName = value
            }
        }
        return (globals, rest)
    }
}

/// What a running command has: its arguments, the global options, and where output goes.
struct Invocation {
    var arguments: ParsedArguments
    let globals: GlobalOptions
    var output: Output
    let config: Config
    /// Why the config could not be read, for `doctor` (which then runs on the defaults).
    var configProblem: CLIError? = nil

    var json: Bool { arguments.has("json") }

    /// A required option's value, or a usage error naming it.
    func required(_ name: String) throws(CLIError) -> String {
        guard let value = arguments.value(name) else { throw .usage("--\(name) is required", globals.usage) }
        return value
    }

    /// A date option's value as people type it (DateWords), from today in the configured zone.
    func date(_ name: String, _ text: String) throws(CLIError) -> CivilDate {
        let today = try today()
        guard let date = DateWords.date(text, today: today) else {
            let why = DateWords.whyNot(text, today: today).map { " (\($0))" } ?? ""
            throw .usage("--\(name) \"\(text)\" is not a date\(why): give \(DateWords.examples)", globals.usage)
        }
        return date
    }

    /// `--now`, else the clock.
    func now() throws(CLIError) -> Instant {
        guard let text = globals.now else { return Instant(Date()) }
        guard let instant = ISO8601.parse(text, zone: try timeZone()) else {
            throw .usage("--now \"\(text)\" is not a date or time (2026-12-01, 2026-12-01T09:00 or 2026-12-01T09:00:00+01:00)", globals.usage)
        }
        return instant
    }

    /// Today's date in the configured zone, at `--now` or the clock.
    func today() throws(CLIError) -> CivilDate {
        ISO8601.localDate(of: try now(), in: try timeZone()).date
    }

    /// The zone named by `--tz`, else the config's, else the system's (`TZ`, /etc/localtime), with
    /// the rules of the system's tzdata (`$TZDIR`, else /usr/share/zoneinfo).
    func timeZone() throws(CLIError) -> Zone {
        let zones = ZoneDatabase.system
        if let name = globals.timeZoneName {
            do { return try zones.zone(named: name) } catch { throw .usage("--tz: \(error)", globals.usage) }
        }
        if let name = config.timeZone {
            do { return try zones.zone(named: name) } catch { throw CLIError(code: .configError, message: "config timeZone: \(error)") }
        }
        do {
            return try zones.systemZone()
        } catch {
            throw CLIError(code: .configError, message: "the system's time zone: \(error)")
        }
    }
}

/// Buffered stdout and unbuffered stderr. Commands write whole lines; the buffer goes out in
/// 64 KiB pieces, so a large document is never held whole.
struct Output {
    private var writer = JSONWriter()
    /// Whether `paint` colours: set once per command from `--color` and the terminal.
    var colored = false

    enum Color: String { case red = "31", yellow = "33", dim = "2", bold = "1" }

    /// `text` in `color` (SGR codes) when colouring, else as it is.
    func paint(_ text: String, _ color: Color) -> String { Output.paint(text, color, colored: colored) }

    static func paint(_ text: String, _ color: Color, colored: Bool) -> String {
        colored && !text.isEmpty ? "\u{1B}[\(color.rawValue)m\(text)\u{1B}[0m" : text
    }

    /// `--color`: never into a pipe or file unless `always`; `auto` follows NO_COLOR (any value
    /// but empty turns it off, as no-color.org says) and TERM=dumb.
    static func colors(_ when: String?, environment: [String: String]? = nil) -> Bool {
        switch when ?? "auto" {
        case "always": return true
        case "never": return false
        default:
            if let noColor = Environment.variable("NO_COLOR", in: environment), !noColor.isEmpty { return false }
            return isatty(1) == 1 && Environment.variable("TERM", in: environment) != "dumb"
        }
    }

    mutating func line(_ text: String) {
        writer.out.append(text)
        endLine()
    }

    /// Text already made of whole lines (each ending in a newline), as it is.
    mutating func lines(_ text: String) {
        writer.out.append(text)
        if writer.out.count > 1 << 16 { flush() }
    }

    /// The same as bytes (UTF-8).
    mutating func lines(_ bytes: ArraySlice<UInt8>) { bytes.withUnsafeBytes { lines($0) } }

    mutating func lines(_ bytes: UnsafeRawBufferPointer) {
        writer.out.append(bytes)
        if writer.out.count > 1 << 16 { flush() }
    }

    mutating func line(_ json: JSON) {
        writer.value(json)
        endLine()
    }

    /// Streams a JSON document: `body` writes into the writer, and calls `flush` between pieces.
    mutating func json(_ body: (inout JSONWriter, _ flush: (inout JSONWriter) -> Void) -> Void) {
        body(&writer) { w in
            if w.out.count > 1 << 16 { Output.write(w.out) }
        }
        endLine()
    }

    private mutating func endLine() {
        writer.endDocument()
        writer.out.append(UInt8(ascii: "\n"))
        if writer.out.count > 1 << 16 { flush() }
    }

    mutating func flush() {
        guard !writer.out.isEmpty else { return }
        Output.write(writer.out)
    }

    /// The buffer's bytes to stdout, as far as it takes them, and the buffer emptied.
    static func write(_ buffer: ByteBuffer) {
        buffer.withBytes { write($0) }
        buffer.removeAll()
    }

    static func write(_ text: String, to fd: Int32) {
        var text = text
        text.withUTF8 { write(UnsafeRawBufferPointer($0), to: fd) }
    }

    /// All of `bytes` to stdout (or `fd`), as far as it takes them.
    static func write(_ bytes: UnsafeRawBufferPointer, to fd: Int32 = 1) {
        var offset = 0
        while offset < bytes.count {
            let written = CCall.posix("write") { Glibc.write(fd, bytes.baseAddress! + offset, bytes.count - offset) }
            // stdout closed (a pipe to `head`): nothing more can be said.
            if written < 0 { return }
            offset += written
        }
    }

    /// One line on stderr, whatever it quotes: user text, a file's name or a calendar's words are
    /// escaped here, once (DisplayText.shown), so nothing in them can break the line or drive the
    /// terminal. A message carries outside text as it is; what a library escaped already where it
    /// made its message is left as it is, not escaped again.
    func error(_ text: String) { Output.error(text) }

    /// The same, for a process that ends without its `Output` (`mail-send`).
    static func error(_ text: String) {
        write(DisplayText.shown(text) + "\n", to: 2)
    }

    /// Calendar files that could not be used: said on stderr, one line each; the command goes on.
    func warn(_ problems: [CalendarProblem]) {
        for problem in problems { error("\(CommandLineTool.name): warning: calendar \(problem)") }
    }
}
