import DawnletCore
import DawnletSystem
import FoundationEssentials
import Glibc

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
        return (environment["HOME"] ?? FileManager.default.homeDirectoryForCurrentUser.path) + "/.config/dawnlet/config.json5"
    }

    static func load(explicitPath: String?) throws(CLIError) -> Config {
        let path = explicitPath ?? defaultPath()
        func fail(_ problem: String) -> CLIError { CLIError(code: .configError, message: "\(DisplayText.escaped(path)): \(problem)") }
        var info = stat()
        if stat(path, &info) != 0 {
            let error = errno
            var link = stat()
            // Only "nothing there" means the defaults. A folder that cannot be searched, a
            // symlink to nothing or a loop is a config that exists and cannot be read.
            if error == ENOENT && lstat(path, &link) == 0 { throw fail("a symbolic link to nothing") }
            if error != ENOENT || explicitPath != nil {
                throw fail(error == ENOENT ? "no such config file" : "cannot be read: \(String(cString: strerror(error)))")
            }
            return Config()
        }
        let data: Data
        switch RegularFile.read(path, limit: maximumBytes) {
        case .success(let bytes): data = Data(bytes)
        case .failure(let failure): throw fail("\(failure)")
        }
        guard ConfigValue.nestingDepth([UInt8](data)) <= ConfigValue.deepest else {
            throw fail("nested deeper than \(ConfigValue.deepest) levels (dawnlet's settings are at most 4 deep)")
        }
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
            if let name = config.timeZone {
                do { _ = try ZoneDatabase.system.zone(named: name) } catch { throw ConfigError("timeZone", error.description) }
            }
            return config
        } catch let error as ConfigError {
            throw fail(error.description)
        } catch {
            throw fail("\(error)")
        }
    }
}
