/// One option a command accepts.
struct OptionSpec: Sendable {
    enum Kind: Sendable { case flag, value, repeatable }
    let name: String
    let kind: Kind

    static func flag(_ name: String) -> OptionSpec { OptionSpec(name: name, kind: .flag) }
    static func value(_ name: String) -> OptionSpec { OptionSpec(name: name, kind: .value) }
    static func repeatable(_ name: String) -> OptionSpec { OptionSpec(name: name, kind: .repeatable) }
}

/// What a command line means once its options are sorted out. Validation is separate from running:
/// a command's `run` receives only arguments its spec accepts.
struct ParsedArguments {
    var positionals: [String] = []
    private(set) var values: [String: [String]] = [:]

    func has(_ flag: String) -> Bool { values[flag] != nil }
    func value(_ name: String) -> String? { values[name]?.last }
    func all(_ name: String) -> [String] { values[name] ?? [] }

    mutating func add(_ name: String, _ value: String) { values[name, default: []].append(value) }

    /// Splits `--name value`, `--name=value`, flags and positionals against `options`.
    /// `--` ends the options; a lone `-` and negative numbers (`-12.50`) are positionals or values.
    static func parse(_ arguments: [String], options: [OptionSpec], usage: String) throws(CLIError) -> ParsedArguments {
        var parsed = ParsedArguments()
        var index = 0
        var optionsEnded = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            guard !optionsEnded, argument.hasPrefix("--") else {
                parsed.positionals.append(argument)
                continue
            }
            if argument == "--" { optionsEnded = true; continue }
            var name = String(argument.dropFirst(2))
            var inlineValue: String?
            if let equals = name.firstIndex(of: "=") {
                inlineValue = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
            }
            guard let spec = options.first(where: { $0.name == name }) else {
                throw .usage("unknown option --\(name)" + Help.suggestion(name, among: options.map(\.name), writtenWith: "--"), usage)
            }
            switch spec.kind {
            case .flag:
                guard inlineValue == nil else { throw .usage("--\(name) takes no value", usage) }
                parsed.add(name, "")
            case .value, .repeatable:
                let value: String
                if let inlineValue {
                    value = inlineValue
                } else {
                    guard index < arguments.count else { throw .usage("--\(name) needs a value", usage) }
                    value = arguments[index]
                    index += 1
                }
                if spec.kind == .value, parsed.values[name] != nil {
                    throw .usage("--\(name) given twice", usage)
                }
                parsed.add(name, value)
            }
        }
        return parsed
    }
}
