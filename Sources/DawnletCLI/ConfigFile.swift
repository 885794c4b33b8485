import DawnletCore
import DawnletSystem
import FoundationEssentials
import Glibc

/// Finding and reading the config file (docs/config.md): `--config PATH`, else
/// `$XDG_CONFIG_HOME/dawnlet/config.json5`, else `~/.config/dawnlet/config.json5`. A missing default
/// file means the defaults; a file named with `--config` must exist. Any problem is exit 78 with the
/// file, the key path and what is wrong.
enum ConfigFile {
    /// Larger files are refused unread: a config is a page of text.
    static let maximumBytes = 1 << 20

    static func defaultPath() -> String {
        if let config = Environment.variable("XDG_CONFIG_HOME"), config.hasPrefix("/") { return config + "/dawnlet/config.json5" }
        return (Environment.variable("HOME") ?? FileManager.default.homeDirectoryForCurrentUser.path) + "/.config/dawnlet/config.json5"
    }

    static func load(explicitPath: String?) throws(CLIError) -> Config {
        let path = explicitPath ?? defaultPath()
        /// `FILE: problem`, or `FILE:LINE:COLUMN: problem` as editors and compilers write it.
        func fail(_ problem: String, at position: JSON5.Position? = nil) -> CLIError {
            let place = position.map { ":\($0.line):\($0.column)" } ?? ""
            return CLIError(code: .configError, message: "\(path)\(place): \(problem)")
        }
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
        // The config may be a link (a dotfile manager makes one): a person named it, so it is followed.
        switch RegularFile.read(path, limit: maximumBytes, links: .follow) {
        case .success(let bytes): data = Data(bytes)
        case .failure(let failure): throw fail("\(failure)")
        }
        let document: JSON5.Document
        do {
            document = try JSON5.parse([UInt8](data))
        } catch {
            throw fail(error.message, at: error.position)
        }
        do {
            let config = try Config(document.value)
            if let name = config.timeZone {
                do { _ = try ZoneDatabase.system.zone(named: name) } catch { throw ConfigError("timeZone", error.description) }
            }
            return config
        } catch let error as ConfigError {
            // Where the value is: `config.json5:3:12: horizon: must be between 1h and 366d`.
            throw fail(error.description, at: document.position(of: error.keyPath))
        } catch {
            throw fail("\(error)")
        }
    }
}
