import DawnletApp
import DawnletCore
import DawnletStore
import DawnletSystem

/// The shell carrying out what the core decided: each request answered at once with the event
/// that says how it went, before the next effect.
extension Runner {
    func perform(_ effect: RunnerEffect) {
        switch effect {
        case .plan(let request): makePlan(request)
        case .readChanges(let request): send(.changesRead(request, readChanges(request)))
        case .recordMissed(let missed, let now):
            var failures: [DeliveryID: String] = [:]
            for item in missed {
                let id = DeliveryID(item.reminder.key, item.channel)
                do {
                    try store.log.recordMissed(
                        id, title: item.reminder.title, fireAt: item.reminder.fireAt, reason: item.reason, now: now)
                } catch {
                    failures[id] = "\(error)"
                }
            }
            send(.missedRecorded(failures: failures))
        case .claim(let claims, let now):
            do {
                send(.claimed(.success(try store.log.claim(claims, now: now))))
            } catch {
                send(.claimed(.failure(RunnerFailure("\(error)"))))
            }
        case .finish(let id, let state, let detail, let missed, let notificationID, let now):
            do {
                try store.log.finish(id, state: state, detail: detail, missed: missed, notificationID: notificationID, postedBy: process, now: now)
                if id.channel == .desktop, state == .delivered, let notificationID { onScreen.insert(notificationID) }
                send(.finishWritten(id, failure: nil))
            } catch {
                send(.finishWritten(id, failure: "\(error)"))
            }
        case .resume: send(.resumed)
        case .deliver(let ticket): deliver(ticket)
        case .arm(let timer, let instant):
            do { try scheduler.arm(timer, at: instant) } catch { send(.armFailed(timer, "\(error)")) }
        case .armAfter(let timer, let span):
            do { try scheduler.arm(timer, after: span) } catch { send(.armFailed(timer, "\(error)")) }
        case .cancel(let timer): scheduler.cancel(timer)
        case .notify(let state): ServiceNotify.send(state)
        case .publish(let now, let recount):
            if recount { overdueCount = nil }
            send(.published(validUntil: publishState(now: now)))
        case .withdraw: withdrawState()
        case .checkDatabase: send(.databaseSettled(lost: databaseLost(), dataVersion: (try? store.dataVersion()) ?? -1))
        case .reloadConfig:
            reloadConfig()
            send(.configReloaded)
        case .syncExport:
            let (changed, failed) = syncExport()
            send(.exportSynced(storeChanged: changed, failed: failed))
        case .closeMonth(let today, let now): send(.monthClosed(YearMonth(containing: today), failure: closeMonth(before: today, now: now)))
        case .readZone: zoneFilesChanged()
        case .rearmClockWatch: send(.clockWatchRearmed(failure: rearmClockWatch()))
        case .exportChanges: exportChanges()
        case .respond(let id, let response): respond(to: id, response)
        case .readCalendarAnswers: readCalendarAnswers()
        case .closeAnsweredElsewhere: closeAnsweredElsewhere()
        case .log(let entry): log(entry)
        case .planned(let line, let reminders):
            let took = (planMeasured.handled ?? scheduler.elapsed) - (planMeasured.started ?? scheduler.elapsed)
            log(LogEntry(RunnerCore.plannedLine(line, reminders: reminders, took: took)))
        case .returnFreedMemory:
            ProcessMemory.returnFreed()
            ProcessMemory.releaseCode()
        case .killChildren: CommandRunner.killAll()
        case .exit(let code): loop.exit(code)
        }
    }

    /// A whole plan: the horizon streamed in time order, kept until it holds the budget's
    /// reminders (a digest counts what it lists) and reaches a day ahead; then it ends just before
    /// the first reminder it leaves out. One pass, whatever the database.
    private func makePlan(_ request: PlanRequest) {
        planMeasured = (scheduler.elapsed, nil)
        let result: PlanResult
        do {
            let version = try store.dataVersion()
            let position = try store.changePosition()
            let config = settings.config
            var source = PlanReader(store: store, config: config, zone: settings.zone, zones: settings.zones)
            source.notesFirstSight = true
            source.calendarCache = calendarCache
            // The calendars are read by this plan (and not by a splice): stamped first.
            for path in RunnerState.calendarFiles(config.calendars) {
                readStamps[path] = FileStamp.text(of: path)
            }
            var reminders: [PlannedReminder] = []
            // Room for the budget at once: an array that grows by doubling holds two copies at
            // each step (pages never written are never resident).
            reminders.reserveCapacity(Int(min(request.budget, 1 << 20)) + 1)
            var size: Int64 = 0
            var ends = request.window.upperBound
            let problems = try source.forEachReminder(now: request.now, window: request.window) { reminder in
                if size >= request.budget, reminder.fireAt > request.dayAhead, let last = reminders.last, reminder.fireAt > last.fireAt {
                    ends = reminder.fireAt.adding(seconds: -1)
                    return false
                }
                reminders.append(reminder)
                size += 1 + Int64(reminder.items.count)
                return true
            }
            overdueCount = nil
            if !config.calendars.isEmpty {
                let (parsed, kept) = (calendarCache.parsed, calendarCache.reused)
                log(LogEntry("calendar files: \(parsed) read and parsed, \(kept) kept parsed from an earlier plan"))
            }
            result = PlanResult(
                request: request, plan: Plan(reminders: reminders, calendarProblems: problems), ends: ends, version: version,
                position: position)
        } catch {
            // The database may be locked by a long write: the core tries again shortly.
            return send(.planFailed(request, "\(error)"))
        }
        send(.planned(result))
    }

    /// What another process wrote since the plan read the change feed, read for the core to
    /// splice in; a whole plan when the feed cannot say, or a read fails.
    private func readChanges(_ request: ChangeRequest) -> ChangeResult {
        planMeasured = (scheduler.elapsed, nil)
        do {
            let version = try store.dataVersion()
            let changes = try store.changes(after: request.position)
            if changes.wholePlan { return .wholePlan }
            var input: PlanReader.SpliceInput?
            let sources = changes.sources.union(request.also)
            if !sources.isEmpty {
                let source = PlanReader(store: store, config: settings.config, zone: settings.zone, zones: settings.zones)
                guard let read = try source.spliceInput(changes: sources, now: request.now, window: request.window) else { return .wholePlan }
                input = read
            }
            overdueCount = nil
            return .spliced(input, version: version, position: changes.position, changed: sources.count)
        } catch {
            return .wholePlan
        }
    }

    /// Hands a message to its channel; a repeat of one desktop notification replaces it.
    /// A reminder of one todo or event goes out with the start of its item's note in its body
    /// (read here, as it goes: a plan does not carry notes); a digest or a summary without.
    func withNote(_ message: ReminderMessage, of reminders: [PlannedReminder]) -> ReminderMessage {
        guard reminders.count == 1, reminders[0].offset != nil, let item = reminders[0].item, let kind = item.kind.itemKind,
            let note = (try? store.items.note(kind, id: item.definitionID)) ?? nil
        else { return message }
        var message = message
        message.addNote(note)
        return message
    }

    private func deliver(_ ticket: Ticket) {
        guard let channels else {
            return send(.deliveryFinished(ticket, DeliveryOutcome(state: .failed, detail: "no channels to deliver through", retry: true)))
        }
        let channel = ticket.send.channel
        let replacing = ticket.ids.count == 1 && channel == .desktop ? (try? store.log.notificationID(ticket.ids[0])) ?? nil : nil
        let message = withNote(ticket.message, of: ticket.reminders)
        channels.deliver(message, through: channel, replacing: replacing) { [unowned self] outcome in
            if channel == .desktop, let id = outcome.notificationID { self.noteShown(id, message) }
            self.send(.deliveryFinished(ticket, outcome))
        }
    }
}
