/// Do Not Disturb: how each notification server lets it be known, and what goes out while it is on.
/// Every server says it its own way; none on the Notifications interface itself. Each is learned from
/// the server's own signal where it has one, and never polled.
public enum DoNotDisturb {
    /// How the running server's Do Not Disturb is learned.
    public enum Source: String, Hashable, Sendable, CaseIterable {
        /// dunst: its `paused` property, held as a pause (`Hold.Reason.serverPaused`).
        case dunstPaused = "dunst-paused"
        /// SwayNotificationCenter: `GetDnd` once, then its `OnDndToggle` signal.
        case swaync
        /// xfce4-notifyd: the xfconf property `/do-not-disturb` of channel `xfce4-notifyd`, read
        /// with `GetProperty` once, then its `PropertyChanged` signal.
        case xfconf
        /// mako: a mode named `do-not-disturb`, read with `ListModes` when a reminder is due (mako
        /// says nothing when its modes change).
        case makoModes = "mako-modes"
        /// GNOME Shell: `org.gnome.desktop.notifications show-banners` false, through dconf.
        case gnomeShowBanners = "gnome-show-banners"
        /// Any other server: only `Inhibited`, where it has that property.
        case inhibited

        /// Which way the server named `name` (GetServerInformation's first field) says it.
        public static func of(serverName name: String) -> Source {
            switch name {
            case "dunst": .dunstPaused
            case "SwayNotificationCenter", "swaync": .swaync
            case "Xfce Notify Daemon", "xfce4-notifyd": .xfconf
            case "mako": .makoModes
            case "gnome-shell", "GNOME Shell": .gnomeShowBanners
            default: .inhibited
            }
        }

        /// In words, for `doctor`.
        public var words: String {
            switch self {
            case .dunstPaused: "dunst's paused property, from its PropertiesChanged signal"
            case .swaync: "swaync's GetDnd, then its OnDndToggle signal"
            case .xfconf: "xfconf's /do-not-disturb of xfce4-notifyd, then its PropertyChanged signal"
            case .makoModes: "mako's do-not-disturb mode, read with ListModes when a reminder is due (mako has no signal)"
            case .gnomeShowBanners: "GNOME's show-banners setting, read from the dconf user database, then dconf's Notify signal"
            case .inhibited: "the server's Inhibited property, where it has one (no Do Not Disturb of its own)"
            }
        }

        /// Whether it is learned only by asking when a reminder is due: held reminders then go
        /// out when a later one comes due and finds it off (or when the server restarts).
        public var askedWhenDue: Bool { self == .makoModes }
    }

    /// GNOME's setting: banners not shown is its Do Not Disturb.
    public static let gnomeShowBanners = "/org/gnome/desktop/notifications/show-banners"

    /// Whether the dconf user database (its bytes, a GVDB file) holds GNOME's Do Not Disturb:
    /// `show-banners` set false. Not set, or no database: banners are shown.
    public static func on(dconfUser bytes: [UInt8]) -> Bool { GVDB.boolean(at: gnomeShowBanners, in: bytes) == false }

    /// Whether a dconf Notify signal (a prefix and the keys under it that changed) may have
    /// changed `show-banners`.
    public static func touchesShowBanners(prefix: String, changes: [String]) -> Bool {
        (changes.isEmpty ? [""] : changes).contains { change in
            let path = prefix + change
            return path == gnomeShowBanners || (path.hasSuffix("/") && gnomeShowBanners.hasPrefix(path))
        }
    }

    /// mako's name for the mode.
    public static let makoMode = "do-not-disturb"

    /// Whether mako's active modes (ListModes) hold Do Not Disturb.
    public static func on(makoModes modes: [String]) -> Bool { modes.contains(makoMode) }

    /// Whether a reminder asking for `urgency` goes out while Do Not Disturb is on:
    /// `channels.desktop.criticalPassesDoNotDisturb` lets a critical one through, as quiet hours do.
    public static func passes(_ urgency: Urgency, criticalPasses: Bool) -> Bool {
        criticalPasses && urgency == .critical
    }
}
