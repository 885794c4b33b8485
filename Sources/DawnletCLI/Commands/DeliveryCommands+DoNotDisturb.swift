import DawnletCore
import DawnletSystem

/// `doctor`'s line on Do Not Disturb: how serve learns it from the server running now.
extension DeliveryCommands {
    /// "learned from swaync's GetDnd, then its OnDndToggle signal", from the server's name.
    static func doNotDisturbWords() -> String {
        guard let name = try? NotificationBus().serverInformation().first else { return "not known: the server did not say its name" }
        let source = DoNotDisturb.Source.of(serverName: name)
        return "learned from " + source.words
    }
}
