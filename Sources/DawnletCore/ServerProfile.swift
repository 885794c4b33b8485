/// What a notification server does with a notification, as far as reminders care: known from
/// its name and version (GetServerInformation), a pure function of them. The runner sends a
/// server that shows only a few actions the first ones (the answers, then the snoozes in their
/// order: `ReminderMessage.actions`), so the ones that matter are the ones on screen; `doctor`
/// says what a setting cannot do there.
public struct ServerProfile: Hashable, Sendable {
    public let name: String
    public let version: String
    /// How many actions it shows; nil: every one (a menu lists them all).
    public let shownActions: Int?
    /// How a person presses an action there, in words.
    public let pressed: String

    /// As many as a server shows on its banner when it is not known to show more: GNOME Shell's
    /// `MAX_NOTIFICATION_BUTTONS`, and about what KDE's and notification-daemon's fit.
    public static let bannerActions = 3

    /// - Parameters:
    ///   - name: the first field of GetServerInformation ("dunst", "gnome-shell", "Plasma"…).
    ///   - version: its third field.
    public init(name: String, version: String) {
        self.name = name
        self.version = version
        switch name.lowercased() {
        case "dunst":
            shownActions = nil
            pressed = "its context menu (dunstctl context), which lists every action"
        case "mako":
            shownActions = nil
            pressed = "makoctl invoke or makoctl menu, which reach every action"
        case "gnome-shell":
            shownActions = Self.bannerActions
            pressed = "buttons on its banner, at most three"
        case "plasma", "kde":
            shownActions = Self.bannerActions
            pressed = "buttons on its popup, about three"
        default:
            shownActions = Self.bannerActions
            pressed = "buttons, of which it shows about three"
        }
    }

    /// A server that did not say who it is: shown as few actions as a banner holds.
    public static let unknown = ServerProfile(name: "", version: "")

    /// From GetServerInformation's answer (name, vendor, version, specification version).
    public init(information: [String]) {
        self.init(name: information.first ?? "", version: information.count > 2 ? information[2] : "")
    }

    /// What a setting cannot do on this server, one sentence each (none: all of it works):
    /// - Parameters:
    ///   - capabilities: its GetCapabilities answer.
    ///   - soundsSet: whether the config asks for a sound anywhere.
    ///   - actions: the actions a single reminder may offer, most important first.
    public func warnings(capabilities: Set<String>, soundsSet: Bool, actions: [String]) -> [String] {
        var warnings: [String] = []
        let shown = name.isEmpty ? "the notification server" : name
        if soundsSet && !capabilities.contains("sound") {
            warnings.append("\(shown) has no sound capability: the sounds set in the config are not played")
        }
        if capabilities.contains("actions"), let most = shownActions, actions.count > most {
            let cut = actions[most...].joined(separator: ", ")
            warnings.append(
                "\(shown) shows \(most) of a reminder's \(actions.count) actions (\(actions.prefix(most).joined(separator: ", "))): "
                    + "\(cut) only from a terminal (dawnlet-remind reminder …)")
        }
        return warnings
    }
}
