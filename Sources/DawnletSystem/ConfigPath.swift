import FoundationEssentials

/// Paths in the config file (`calendars[].path`, `passwordFile`, `caFile`): `~/x` is in the home
/// folder ($HOME, else the account's), anything else as written.
public enum ConfigPath {
    public static func expand(_ path: String, environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        guard path.hasPrefix("~/") else { return path }
        return (environment["HOME"] ?? FileManager.default.homeDirectoryForCurrentUser.path) + path.dropFirst()
    }

    /// `path` from the root: a relative one is taken from the working folder.
    public static func absolute(_ path: String) -> String {
        path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
    }
}
