import DawnletCore
import Foundation

/// Finding and reading the config file (DESIGN §7): `--config PATH`, else
/// `$XDG_CONFIG_HOME/dawnlet/config.json5`, else `~/.config/dawnlet/config.json5`. A missing default
/// file means the defaults; a file named with `--config` must exist. Any problem is exit 78 with the
/// file, the key path and what is wrong.
enum ConfigFile {
    /// Larger files are refused unread: a config is a page of text.
    static let maximumBytes = 1 << 20

    static func defaultPath() -> String {
        let environment = ProcessInfo.processInfo.environment
        if let config = environment["XDG_CONFIG_HOME"], config.hasPrefix("/") { return config + "/dawnlet/config.json5" }
        return (environment["HOME"] ?? NSHomeDirectory()) + "/.config/dawnlet/config.json5"
    }

    static func load(explicitPath: String?) throws(CLIError) -> Config {
        let path = explicitPath ?? defaultPath()
        guard FileManager.default.fileExists(atPath: path) else {
            if explicitPath != nil { throw CLIError(code: .configError, message: "\(path): no such config file") }
            return Config()
        }
        func fail(_ problem: String) -> CLIError { CLIError(code: .configError, message: "\(path): \(problem)") }
        guard let data = FileManager.default.contents(atPath: path) else { throw fail("cannot be read") }
        guard data.count <= maximumBytes else { throw fail("larger than \(maximumBytes / 1024) KiB") }
        let decoder = JSONDecoder()
        decoder.allowsJSON5 = true
        let tree: ConfigValue
        do {
            tree = try decoder.decode(ConfigValue.self, from: data)
        } catch {
            throw fail("not valid JSON5 (check quotes, commas and brackets)")
        }
        do {
            let config = try Config(tree)
            if let name = config.timeZone, TimeZone(identifier: name) == nil {
                throw ConfigError("timeZone", "unknown time zone \"\(name)\" (use an IANA name such as Europe/Berlin)")
            }
            return config
        } catch let error as ConfigError {
            throw fail(error.description)
        } catch {
            throw fail("\(error)")
        }
    }
}
