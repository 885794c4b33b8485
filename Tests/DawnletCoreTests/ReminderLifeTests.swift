import DawnletTestSupport
import Testing

@testable import DawnletCore

/// A reminder's life as one value: each transition as a table row, then random sequences of
/// everything that can happen to a few reminders (deliveries, restarts, presses, terminal and
/// item commands, another device's answers read again and again, summaries, the server closing)
/// against what must hold whatever the order.
@Suite struct ReminderLifeTests {
    static let nine = Instant(secondsSinceEpoch: 1_796_115_600)
    static func n(_ id: UInt32, _ process: String = "A") -> ReminderLife.Notification { .init(id: id, postedBy: process) }

    struct Row: CustomTestStringConvertible, Sendable {
        let from: ReminderLife.State
        let input: ReminderLife.Input
        let to: ReminderLife.State
        let effects: [ReminderLife.Effect]
        var testDescription: String { "\(from) + \(input)" }
    }

    static let later = nine.adding(seconds: 600)
    static let rows: [Row] = [
        Row(from: .planned, input: .due(at: nine), to: .claimed, effects: [.show]),
        Row(from: .claimed, input: .delivered(n(12)), to: .showing(n(12)), effects: []),
        Row(from: .claimed, input: .delivered(nil), to: .waiting, effects: []),
        Row(from: .planned, input: .missed(.latePolicy), to: .missed(.latePolicy), effects: []),
        Row(from: .planned, input: .itemDeleted, to: .dropped, effects: []),
        // A button: the notification closed, the log and the item written.
        Row(
            from: .showing(n(12)), input: .answer(.done, .button), to: .answered(.done, .button),
            effects: [.close(12), .record(.done, .button), .writeItem(.done)]),
        // The item's own command: the item is written already; what is on screen is closed.
        Row(
            from: .showing(n(12)), input: .answer(.done, .itemCommand), to: .answered(.done, .itemCommand),
            effects: [.close(12), .record(.done, .itemCommand)]),
        Row(
            from: .waiting, input: .answer(.skipped, .terminal), to: .answered(.skipped, .terminal),
            effects: [.record(.skipped, .terminal), .writeItem(.skipped)]),
        Row(
            from: .expired, input: .answer(.answeredElsewhere(.device), .device), to: .answered(.answeredElsewhere(.device), .device),
            effects: [.record(.answeredElsewhere(.device), .device)]),
        Row(from: .showing(n(12)), input: .itemDeleted, to: .answered(.deleted, .itemCommand), effects: [.close(12), .record(.deleted, .itemCommand)]),
        // Snoozes: kept once; the same snooze read again from a file, or one it already came back for, is nothing.
        Row(
            from: .showing(n(12)), input: .answer(.snoozed(until: later), .button), to: .snoozed(until: later),
            effects: [.close(12), .record(.snoozed(until: later), .button), .writeItem(.snoozed(until: later))]),
        Row(from: .snoozed(until: later), input: .answer(.snoozed(until: later), .device), to: .snoozed(until: later), effects: []),
        Row(from: .snoozed(until: later), input: .due(at: later), to: .claimed, effects: [.show]),
        Row(from: .snoozed(until: later), input: .unsnooze, to: .waiting, effects: [.unsnooze]),
        Row(
            from: .snoozed(until: later), input: .answer(.paid, .terminal), to: .answered(.paid, .terminal),
            effects: [.record(.paid, .terminal), .writeItem(.paid)]),
        Row(from: .planned, input: .answer(.snoozed(until: later), .device), to: .planned, effects: []),
        // The server closing it: the person's dismissal is an answer; an expiry or a close is not.
        Row(
            from: .showing(n(12)), input: .serverClosed(id: 12, .dismissed), to: .answered(.dismissed, .button),
            effects: [.record(.dismissed, .button), .writeItem(.dismissed)]),
        Row(from: .showing(n(12)), input: .serverClosed(id: 12, .expired), to: .expired, effects: [.record(.expired, .server)]),
        Row(from: .showing(n(12)), input: .serverClosed(id: 12, .closed), to: .waiting, effects: [.record(.closed, .server)]),
        Row(from: .showing(n(12)), input: .serverClosed(id: 13, .dismissed), to: .showing(n(12)), effects: []),
        Row(from: .waiting, input: .answer(.expired, .server), to: .waiting, effects: []),
        // A restart: what another process posted is taken over; its own is left.
        Row(from: .showing(n(12, "A")), input: .restart(process: "B"), to: .showing(n(12, "A")), effects: [.replace(12)]),
        Row(from: .showing(n(12, "B")), input: .restart(process: "B"), to: .showing(n(12, "B")), effects: []),
        Row(from: .showing(n(12, "A")), input: .delivered(n(12, "B")), to: .showing(n(12, "B")), effects: []),
        // A nag's return while the last is on screen replaces it.
        Row(from: .showing(n(12)), input: .due(at: later), to: .claimed, effects: [.replace(12)]),
        Row(from: .expired, input: .due(at: later), to: .claimed, effects: [.show]),
        // Answered: nothing more, and what shows on the way is closed.
        Row(from: .answered(.done, .terminal), input: .due(at: later), to: .answered(.done, .terminal), effects: []),
        Row(from: .answered(.done, .terminal), input: .answer(.skipped, .button), to: .answered(.done, .terminal), effects: []),
        Row(from: .answered(.done, .device), input: .delivered(n(14)), to: .answered(.done, .device), effects: [.close(14)]),
        Row(from: .answered(.done, .terminal), input: .stillShowing(14), to: .answered(.done, .terminal), effects: [.close(14)]),
        Row(from: .showing(n(14)), input: .stillShowing(14), to: .showing(n(14)), effects: []),
        Row(from: .missed(.graceWindow), input: .answer(.done, .terminal), to: .missed(.graceWindow), effects: []),
    ]

    @Test("each transition", arguments: rows)
    func transition(_ row: Row) {
        var life = ReminderLife(row.from)
        #expect(life.handle(row.input) == row.effects)
        #expect(life.state == row.to)
    }

    @Test("a device's snooze it already came back for is not applied again")
    func deviceSnoozeOnce() {
        var life = ReminderLife(.planned)
        _ = life.handle(.due(at: Self.nine))
        _ = life.handle(.delivered(nil))
        #expect(life.handle(.answer(.snoozed(until: Self.later), .device)) == [.record(.snoozed(until: Self.later), .device)])
        #expect(life.handle(.due(at: Self.later)) == [.show])
        _ = life.handle(.delivered(nil))
        // The file is read again (an export elsewhere, a restart): the same snooze is not a new one.
        #expect(life.handle(.answer(.snoozed(until: Self.later), .device)).isEmpty)
        #expect(life.state == .waiting)
        // A later snooze from there is.
        let again = Self.later.adding(seconds: 300)
        #expect(life.handle(.answer(.snoozed(until: again), .device)) == [.record(.snoozed(until: again), .device)])
    }

    @Test("answer codes are read back as written; other text is not a code")
    func codes() {
        let answers: [Answer] =
            [
                .done, .skipped, .dismissed, .snoozed(until: Self.nine), .paid, .logged, .expired, .closed, .deleted,
            ] + AnswerOrigin.allCases.map(Answer.answeredElsewhere)
        for answer in answers { #expect(Answer(code: answer.code) == answer) }
        for text in ["", "snoozed:", "snoozed:-5", "snoozed until 2026-12-04T09:00", "elsewhere:phone", "Done"] { #expect(Answer(code: text) == nil) }
        #expect(answers.filter { !$0.byPerson } == [.expired, .closed])
        #expect(!Answer.snoozed(until: Self.nine).isFinal && Answer.done.isFinal)
    }

    /// One random world: reminders, a notification server, a serve that restarts, another
    /// device whose files are read again, and the clock.
    struct World {
        var lives: [ReminderLife]
        var process = "serve-1"
        var now = ReminderLifeTests.nine
        /// The server's notifications: id → (reminder, the process it sends presses to).
        var screen: [UInt32: (reminder: Int, postedBy: String)] = [:]
        var nextID: UInt32 = 1
        /// Snoozes another device wrote, read again at every restart or export elsewhere.
        var deviceSnoozes: [(reminder: Int, until: Instant)] = []
        var finalAnswers: [Int]
        var showsAfterAnswer: [Int]
        var returnsBySnooze: [Int: [Instant: Int]] = [:]
        var lostPresses = 0

        init(count: Int) {
            lives = Array(repeating: ReminderLife(), count: count)
            finalAnswers = Array(repeating: 0, count: count)
            showsAfterAnswer = Array(repeating: 0, count: count)
        }

        mutating func send(_ input: ReminderLife.Input, to r: Int) {
            let wasAnswered = lives[r].isAnswered
            let snoozedUntil: Instant? = { if case .snoozed(let until) = lives[r].state { return until } else { return nil } }()
            for effect in lives[r].handle(input) {
                switch effect {
                case .show, .replace:
                    if wasAnswered { showsAfterAnswer[r] += 1 }
                    if let snoozedUntil { returnsBySnooze[r, default: [:]][snoozedUntil, default: 0] += 1 }
                    if case .replace(let id) = effect { screen[id] = nil }
                    let id: UInt32
                    if case .replace(let old) = effect { id = old } else { (id, nextID) = (nextID, nextID + 1) }
                    screen[id] = (r, process)
                    send(.delivered(.init(id: id, postedBy: process)), to: r)
                case .close(let id):
                    screen[id] = nil
                case .record(let answer, _):
                    if answer.isFinal { finalAnswers[r] += 1 }
                case .writeItem, .unsnooze:
                    break
                }
            }
        }

        /// A press on notification `id`: heard only by the process that posted it.
        mutating func press(_ id: UInt32, _ answer: Answer) {
            guard let shown = screen[id] else { return }
            guard shown.postedBy == process else { return lostPresses += 1 }
            send(.answer(answer, .button), to: shown.reminder)
        }
    }

    @Test("whatever the order: answered at most once, never shown again once answered, back once per snooze, no press lost")
    func randomSequences() {
        var random = SeededRandom(seed: SeededRandom.fuzzSeed(0x11fe))
        let answers: [Answer] = [.done, .skipped, .dismissed, .paid, .logged]
        for _ in 0..<2_000 {
            var world = World(count: 3)
            for _ in 0..<40 {
                let r = Int.random(in: 0..<3, using: &random)
                switch Int.random(in: 0..<12, using: &random) {
                case 0, 1:  // its time, a nag's return, or a snooze's end
                    if case .snoozed(let until) = world.lives[r].state, until > world.now { break }
                    world.send(.due(at: world.now), to: r)
                case 2:
                    world.process = "serve-\(Int.random(in: 2...9, using: &random))"
                    for i in world.lives.indices { world.send(.restart(process: world.process), to: i) }
                    for (i, until) in world.deviceSnoozes { world.send(.answer(.snoozed(until: until), .device), to: i) }
                case 3:  // a press on one of the reminder's notifications on screen
                    guard let id = world.screen.first(where: { $0.value.reminder == r })?.key else { break }
                    let snooze = world.now.adding(seconds: Int64.random(in: 60...600, using: &random))
                    world.press(id, Bool.random(using: &random) ? .snoozed(until: snooze) : answers.randomElement(using: &random)!)
                case 4: world.send(.answer(answers.randomElement(using: &random)!, .terminal), to: r)
                case 5: world.send(.answer(.done, .itemCommand), to: r)
                case 6: world.send(.answer(.answeredElsewhere(.device), .device), to: r)
                case 7:
                    let until = world.now.adding(seconds: Int64.random(in: 60...600, using: &random))
                    world.deviceSnoozes.append((r, until))
                    world.send(.answer(.snoozed(until: until), .device), to: r)
                case 8:  // an export elsewhere: every file read again
                    for (i, until) in world.deviceSnoozes { world.send(.answer(.snoozed(until: until), .device), to: i) }
                case 9:  // a summary: as a whole, or by one line
                    let members = Bool.random(using: &random) ? Array(0..<3) : [r]
                    for m in members { world.send(.answer(.dismissed, .button), to: m) }
                case 10:
                    guard let (id, shown) = world.screen.first(where: { $0.value.reminder == r }) else { break }
                    world.screen[id] = nil
                    let reason = [CloseReason.expired, .dismissed, .closed].randomElement(using: &random)!
                    world.send(.serverClosed(id: id, reason), to: shown.reminder)
                default:
                    world.now = world.now.adding(seconds: Int64.random(in: 1...400, using: &random))
                }
                #expect(world.screen.values.allSatisfy { !world.lives[$0.reminder].isAnswered }, "an answered reminder left on screen")
            }
            #expect(world.finalAnswers.allSatisfy { $0 <= 1 }, "\(world.finalAnswers)")
            #expect(world.showsAfterAnswer.allSatisfy { $0 == 0 })
            #expect(world.returnsBySnooze.values.allSatisfy { $0.values.allSatisfy { $0 == 1 } }, "\(world.returnsBySnooze)")
            #expect(world.lostPresses == 0)
        }
    }
}
