internal import CCurl
import DawnletCCall
import DawnletCore
import Glibc

/// SMTP exchanges on an event loop through libcurl's multi interface: no thread and no blocking
/// call, so the runner can send mail from its single-threaded loop. curl says which sockets it
/// waits on and when it next needs the clock (CURLMOPT_SOCKETFUNCTION, CURLMOPT_TIMERFUNCTION);
/// the sender turns those into io sources and one CLOCK_MONOTONIC timer on the loop (a timerfd
/// watched as an io source: see EventLoop.RelativeTimer for why not `EventLoop.timer`) and hands curl each
/// event. Several sends run at once, so a server that never answers holds up only its own
/// message, until the configured `timeout`.
///
/// When no send is in flight, the sender has nothing on the loop: no io source, no timer.
/// Use it from the loop's thread only.
public final class SMTPSender {
    private let loop: EventLoop
    private let curl: Curl
    private let multi: UnsafeMutableRawPointer
    private let watcher: Watcher
    /// The sends in flight, by their easy handle.
    private var transfers: [UnsafeMutableRawPointer: Transfer] = [:]
    /// Sends that failed before they could start, waiting for the loop to report them.
    private var reports: [(error: MailError, done: (MailError?) -> Void)] = []
    private let reportTimer: EventLoop.RelativeTimer
    /// Each exchange closes its connection at its end (false: curl keeps it until the sender goes).
    private let closesConnections: Bool

    public init(loop: EventLoop, closesConnections: Bool = true) throws(MailError) {
        let curl: Curl
        switch Curl.shared {
        case .success(let loaded): curl = loaded
        case .failure(let error): throw error
        }
        guard let multi = CCall.nonNull("curl_multi_init", { curl.f.pointee.curl_multi_init() }) else {
            throw MailError("curl_multi_init failed", permanent: false)
        }
        self.loop = loop
        self.curl = curl
        self.multi = multi
        self.closesConnections = closesConnections
        watcher = Watcher(loop: loop)
        reportTimer = EventLoop.RelativeTimer(loop: loop)
        // From here on a failure still runs deinit, which cleans the multi handle up.

        // curl's callbacks reach the watcher, not the sender: they also come while the sender's
        // deinit removes its transfers, and the watcher is alive until that is over.
        let context = Unmanaged.passUnretained(watcher).toOpaque()
        do throws(CurlError) {
            try curl.call("curl_multi_setopt", "CURLMOPT_SOCKETFUNCTION") {
                dawnlet_curl_multi_setopt_socket_function($0, multi) { _, socket, what, userdata, _ in
                    guard let userdata else { return -1 }
                    return Unmanaged<Watcher>.fromOpaque(userdata).takeUnretainedValue().socketChanged(socket, what)
                }
            }
            try curl.call("curl_multi_setopt", "CURLMOPT_SOCKETDATA") { dawnlet_curl_multi_setopt_socket_data($0, multi, context) }
            try curl.call("curl_multi_setopt", "CURLMOPT_TIMERFUNCTION") {
                dawnlet_curl_multi_setopt_timer_function($0, multi) { _, milliseconds, userdata in
                    guard let userdata else { return -1 }
                    return Unmanaged<Watcher>.fromOpaque(userdata).takeUnretainedValue().timerChanged(milliseconds)
                }
            }
            try curl.call("curl_multi_setopt", "CURLMOPT_TIMERDATA") { dawnlet_curl_multi_setopt_timer_data($0, multi, context) }
        } catch {
            throw MailError("\(error)", permanent: false)
        }
        // The loop holds the watcher's sources and they must not keep the sender alive: whoever
        // owns the sender decides when it goes.
        watcher.ready = { [weak self] socket, mask in self?.act(on: socket, mask) }
        reportTimer.handler = { [weak self] in self?.deliverReports() }
    }

    deinit {
        // A sender that goes away abandons what is in flight; each send still hears, once, that it
        // did not finish.
        let abandoned = Array(transfers.values)
        transfers = [:]
        for transfer in abandoned {
            var why = "the mail sender was shut down before the exchange finished"
            if let failed = remove(transfer.handle) { why += "; \(failed)" }
            transfer.close()
            transfer.finish(MailError(why, permanent: false))
        }
        deliverReports()
        // It can fail only for a bad handle or a call from inside a curl callback; neither can
        // happen here (no callback of ours drops the sender), and there is no one left to tell.
        // So not through `call`, where a test could fail it.
        do throws(CurlError) {
            try curl.check("curl_multi_cleanup", curl.f.pointee.curl_multi_cleanup(multi))
        } catch {
            assertionFailure("\(error)")
        }
        watcher.stop()
    }

    /// Starts one exchange: sends `message` (the whole CRLF message) to `settings.to`, or with
    /// nil only connects, greets, starts TLS and logs in (CONNECT_ONLY, for `doctor`). Returns at
    /// once; `done` is called exactly once, on the loop, after the exchange's curl handle is
    /// removed and cleaned up, with nil on success or why it failed (temporary or permanent, by
    /// the same rule as `Mailer.send`). It is not called from inside `send`, unless the loop
    /// cannot even take the timer that reports a failure to start.
    public func send(url: String, settings: Config.Email, password: String?, message: [UInt8]?, done: @escaping (MailError?) -> Void) {
        guard let transfer = Transfer(curl: curl, message: message, done: done) else {
            return report(MailError("curl_easy_init failed", permanent: false), to: done)
        }
        do throws(MailError) {
            try transfer.configure(url: url, settings: settings, password: password, connectOnly: message == nil, closesConnection: closesConnections)
        } catch {
            transfer.close()
            return report(error, to: done)
        }
        transfers[transfer.handle] = transfer
        do throws(CurlError) {
            try curl.call("curl_multi_add_handle") { $0.pointee.curl_multi_add_handle(multi, transfer.handle) }
        } catch {
            let why = watcher.explain("\(error)")
            // curl may have linked the handle in before a callback failed; cleaning the easy
            // handle up detaches it from the multi handle either way.
            transfers[transfer.handle] = nil
            transfer.close()
            settle()
            return report(MailError(why, permanent: false), to: done)
        }
    }

    /// True when no exchange is in flight and the sender has nothing on the loop: no io source,
    /// no timer, no failure waiting to be reported.
    public var isIdle: Bool {
        transfers.isEmpty && reports.isEmpty && !reportTimer.isOnLoop && watcher.isIdle
    }

    /// A socket became ready (or, for CURL_SOCKET_TIMEOUT, curl's timer fired): curl does what it
    /// can, then every exchange it finished is reported.
    private func act(on socket: curl_socket_t, _ mask: Int32) {
        var running: Int32 = 0
        var failure: CurlError?
        do throws(CurlError) {
            try curl.call("curl_multi_socket_action") { $0.pointee.curl_multi_socket_action(multi, socket, mask, &running) }
        } catch {
            failure = error
        }
        collect()
        if let failure {
            // curl aborts every transfer when a callback fails, and after any other failure the
            // state of those left is unknown: each ends as a temporary failure, to be retried.
            abandonAll(because: watcher.explain("\(failure)"))
        }
        settle()
    }

    /// Reports every exchange curl has finished.
    private func collect() {
        var queued: Int32 = 0
        // NULL is the end of the queue, not a failure.
        while let message = curl.f.pointee.curl_multi_info_read(multi, &queued) {
            guard message.pointee.msg == CURLMSG_DONE, let handle = message.pointee.easy_handle else { continue }
            // The message is valid only until the next multi call: read it before removing.
            let result = message.pointee.data.result
            guard let transfer = transfers.removeValue(forKey: handle) else { continue }
            var outcome = transfer.outcome(result)
            let removal = remove(handle)
            // The easy handle's cleanup detaches it from the multi handle even if that failed.
            transfer.close()
            // A failed removal is added to a failure's reason, but it does not turn a delivery
            // into a failure: the server has the message, and the runner would send it twice.
            if let removal, let failure = outcome {
                outcome = MailError(failure.message + "; \(removal)", permanent: failure.permanent)
            }
            // Settled before `done`, which may start the next send or check that all is quiet.
            settle()
            transfer.finish(outcome)
        }
    }

    private func abandonAll(because why: String) {
        let abandoned = Array(transfers.values)
        transfers = [:]
        for transfer in abandoned {
            var message = why
            if let failed = remove(transfer.handle) { message += "; \(failed)" }
            transfer.close()
            transfer.finish(MailError(message, permanent: false))
        }
    }

    /// Takes an easy handle out of the multi handle; why it could not be, if it could not.
    private func remove(_ handle: UnsafeMutableRawPointer) -> CurlError? {
        do throws(CurlError) {
            try curl.call("curl_multi_remove_handle") { $0.pointee.curl_multi_remove_handle(multi, handle) }
            return nil
        } catch {
            return error
        }
    }

    /// With nothing in flight nothing may stay on the loop. curl removes its sockets and clears
    /// its timer by itself when its last transfer goes; this makes sure of it.
    private func settle() {
        if transfers.isEmpty { watcher.stop() }
    }

    /// A failure found inside `send`, reported from the loop: the caller may still be in the
    /// middle of setting up when `send` returns.
    private func report(_ error: MailError, to done: @escaping (MailError?) -> Void) {
        reports.append((error, done))
        do {
            try reportTimer.arm(after: .zero)
        } catch {
            // The loop cannot take even a timer: say so now rather than never.
            deliverReports()
        }
    }

    private func deliverReports() {
        let due = reports
        reports = []
        reportTimer.stop()
        for report in due { report.done(report.error) }
    }
}
