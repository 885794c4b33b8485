import DawnletCore
import FoundationEssentials
import Glibc

/// Paths in the config file (`calendars[].path`, `passwordFile`, `caFile`): `~/x` is in the home
/// folder ($HOME, else the account's), anything else as written.
public enum ConfigPath {
    /// `HOME` is that of `environment` when one is given, else this process's.
    public static func expand(_ path: String, environment: [String: String]? = nil) -> String {
        guard path.hasPrefix("~/") else { return path }
        return (Environment.variable("HOME", in: environment) ?? FileManager.default.homeDirectoryForCurrentUser.path) + path.dropFirst()
    }

    /// The calendar marked read-only that `folder` names (`~` and `..` resolved), if any: nothing
    /// is exported into it.
    public static func readOnlyCalendar(at folder: String, in calendars: [Config.CalendarSource]) -> Config.CalendarSource? {
        func standard(_ path: String) -> String { URL(fileURLWithPath: expand(path)).standardizedFileURL.path }
        let target = standard(folder)
        return calendars.first { $0.readOnly && standard($0.path) == target }
    }

    /// `path` from the root: a relative one is taken from the working folder.
    public static func absolute(_ path: String) -> String {
        path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
    }

    /// `path` from the root with its links resolved, so that one file or folder named two ways is
    /// one; `absolute(path)` when it cannot be resolved (it is not there).
    public static func canonical(_ path: String) -> String {
        guard let resolved = realpath(path, nil) else { return absolute(path) }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
