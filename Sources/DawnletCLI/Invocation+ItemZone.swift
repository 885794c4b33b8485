import DawnletCore
import DawnletSystem

/// A todo's or event's own zone as the command line gives it: `--zone NAME` on add and edit,
/// `--no-zone` on edit (floating again).
extension Invocation {
    static let zoneOptions: [OptionSpec] = [.value("zone")]
    static let zoneUsage = "[--zone ZONE]"

    /// The zone `--zone` names, checked against the system's tzdata, over `old` (what an edit
    /// starts from); `--no-zone` takes it away. An unknown name is a usage error.
    func itemZone(over old: String? = nil) throws(CLIError) -> String? {
        if arguments.value("zone") != nil && arguments.has("no-zone") { throw .usage("give --zone or --no-zone, not both", globals.usage) }
        if arguments.has("no-zone") { return nil }
        guard let name = arguments.value("zone") else { return old }
        do {
            return try ZoneDatabase.system.zone(named: name).identifier
        } catch {
            throw .usage("--zone: \(error)", globals.usage)
        }
    }
}
