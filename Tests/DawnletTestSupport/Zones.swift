import DawnletCore
import DawnletSystem

extension Zone {
    /// A zone of the system's tzdata by name, for tests (tzdata is in `make deps`).
    public static func named(_ name: String) -> Zone {
        do {
            return try ZoneDatabase.system.zone(named: name)
        } catch {
            fatalError("\(error): install tzdata (make deps)")
        }
    }
}
