import DawnletCore
import DawnletSystem

/// `doctor`'s look at the user unit: loaded, running, enabled — or failed, and why.
extension DeliveryCommands {
    /// The unit's properties as `systemctl --user show` gives them, and the last line its
    /// process logged since it last started (when the user's journal has it).
    static func unitState(_ environment: [String: String]) -> (ok: Bool?, text: String) {
        guard CommandRunner.find("systemctl", path: environment["PATH"]) != nil else { return (nil, "systemctl is not available") }
        func query(_ argv: [String]) -> String? {
            guard let result = try? CommandRunner.run(argv, environment: environment, timeout: .seconds(5), capturingStdout: true), result.succeeded else {
                return nil
            }
            return result.stderr
        }
        let properties = ["LoadState", "ActiveState", "UnitFileState", "Result", "ExecMainStatus", "NRestarts", "ExecMainStartTimestamp"]
        guard
            let shown = query(
                ["systemctl", "--user", "show", "--timestamp=unix"] + properties.flatMap { ["-p", $0] } + ["dawnlet-remind.service"])
        else {
            return (nil, "dawnlet-remind.service is not running (no user manager answered systemctl --user)")
        }
        let unit = UnitProperties(shown)
        var lastLine: String?
        if unit.activeState == "failed", let started = unit.values["ExecMainStartTimestamp"], started.hasPrefix("@") {
            lastLine = query([
                "journalctl", "--user", "_SYSTEMD_USER_UNIT=dawnlet-remind.service", "--since", started, "-n", "1", "-o", "cat", "-q", "--no-pager",
            ])?.split(separator: "\n").last.map(String.init)
        }
        return unit.verdict(lastLogged: lastLine)
    }

    /// What `systemctl --user show` said of the unit, and what `doctor` makes of it.
    struct UnitProperties {
        var values: [String: String] = [:]

        init(_ text: String) {
            for line in text.split(separator: "\n") {
                guard let equals = line.firstIndex(of: "=") else { continue }
                values[String(line[..<equals])] = String(line[line.index(after: equals)...])
            }
        }

        var activeState: String? { values["ActiveState"] }

        /// Running (and enabled?), not installed, stopped, or failed with the reason a person can act on.
        func verdict(lastLogged: String?) -> (ok: Bool?, text: String) {
            let enable = "systemctl --user enable --now dawnlet-remind.service"
            if values["LoadState"] == "not-found" {
                return (nil, "dawnlet-remind.service is not installed (install the package, or make install; then \(enable))")
            }
            let enabled = values["UnitFileState"] == "enabled"
            switch activeState {
            case "active", "reloading":
                return (true, "dawnlet-remind.service is running" + (enabled ? " and enabled" : " (not enabled: it will not start at login)"))
            case "activating":
                return (
                    nil, "dawnlet-remind.service is starting" + (values["NRestarts"].flatMap(Int.init).map { $0 > 0 ? " (restarted \($0) times)" : "" } ?? "")
                )
            case "failed":
                let logged = lastLogged.map { ": it logged last \"\($0)\"" } ?? ""
                return (false, "dawnlet-remind.service failed: " + failure + logged)
            default:
                return (nil, "dawnlet-remind.service is not running (\(enable))")
            }
        }

        /// Why the unit failed, from its result and exit status; those a restart cannot mend say so.
        var failure: String {
            let status = values["ExecMainStatus"].flatMap(Int32.init) ?? 0
            switch values["Result"] {
            case "exit-code":
                switch ExitCode(rawValue: status) {
                case .configError?:
                    return "its config cannot be used (exit 78; not restarted: fix it, then systemctl --user restart dawnlet-remind)"
                case .dataError?:
                    return "its database cannot be used (exit 65; not restarted: see the database line, then systemctl --user restart dawnlet-remind)"
                case .usage?:
                    return "its command line is wrong (exit 2; not restarted: check ExecStart= in systemctl --user cat dawnlet-remind)"
                default:
                    return "it exited with \(status) (journalctl --user -u dawnlet-remind says why)"
                }
            case "start-limit-hit":
                return
                    "it was restarted too often and given up (journalctl --user -u dawnlet-remind says why; then systemctl --user reset-failed dawnlet-remind)"
            case "signal", "core-dump":
                return "it was killed by signal \(status)\(values["Result"] == "core-dump" ? ", with a core dump" : "")"
            case "timeout":
                return "it did not start or stop in time"
            case "watchdog":
                return "it stopped answering systemd's watchdog"
            case let other?:
                return "result \(other)"
            case nil:
                return "no result recorded"
            }
        }
    }
}
