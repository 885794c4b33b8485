import FoundationEssentials

/// dconf's user database: the file its writer (dconf-service, `ca.desrt.dconf.Writer` on the
/// session bus) keeps and every reader reads directly, `$XDG_CONFIG_HOME/dconf/user` (else
/// `~/.config/dconf/user`). Read whole, bounded; parsed by `GVDB` in the core.
public enum DconfUser {
    static let writer = "ca.desrt.dconf.Writer"
    static let writerPath = "/ca/desrt/dconf/Writer/user"
    /// Far above a real user database (a few KiB to a few hundred).
    static let limit = 16 << 20

    public static func path(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        if let config = environment["XDG_CONFIG_HOME"], config.hasPrefix("/") { return config + "/dconf/user" }
        return environment["HOME"].map { $0 + "/.config/dconf/user" }
    }

    /// The database's bytes; nil when there is none (nothing was ever written) or it cannot be read.
    public static func read(environment: [String: String] = ProcessInfo.processInfo.environment) -> [UInt8]? {
        guard let path = path(environment: environment) else { return nil }
        return try? RegularFile.read(path, limit: limit, links: .follow).get()
    }
}
