import DawnletApp
import DawnletCore
import DawnletStore

extension Invocation {
    /// After an item's own command wrote (`todo done`, `money paid`, `todo delete`…): the reminders
    /// of what it changed answered, or an answer taken back by an undo, as `ReminderAnswers+Items.swift`
    /// says; which ones goes to stderr. The write stands whatever comes of this: a failure here
    /// says so, naming `what` was written.
    func answerReminders(
        _ store: Store, after what: String, takingBack: Bool = false,
        _ body: (ReminderAnswers, Instant) throws(StoreError) -> [Delivery]
    ) throws {
        let answers = ReminderAnswers(store: store, config: config, zone: try timeZone())
        let now = try now()
        let rows: [Delivery]
        do {
            rows = try body(answers, now)
        } catch {
            throw CLIError(StoreError(error.code, "\(what), but its reminders could not be \(takingBack ? "reopened" : "answered"): \(error.message)"))
        }
        var keys: [ReminderKey] = []
        for row in rows where !keys.contains(row.key) { keys.append(row.key) }
        guard !keys.isEmpty else { return }
        let list = (keys.count == 1 ? "reminder " : "reminders ") + keys.map(\.description).joined(separator: ", ")
        output.error("\(what): \(list) \(takingBack ? (keys.count == 1 ? "waits" : "wait") + " again" : "answered")")
    }
}
