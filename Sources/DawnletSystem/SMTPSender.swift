internal import CCurl
internal import CLinux
internal import CSystemd
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

/// What curl asked the loop to watch: one io source per socket, one timer.
private final class Watcher {
    let loop: EventLoop
    private var sockets: [curl_socket_t: EventLoop.Source] = [:]
    private let timer: EventLoop.RelativeTimer
    /// Where events go (the sender); set once the sender exists.
    var ready: (curl_socket_t, Int32) -> Void = { _, _ in }
    /// Why a callback last told curl it failed, for the error curl then returns.
    private var failure: String?

    init(loop: EventLoop) {
        self.loop = loop
        timer = EventLoop.RelativeTimer(loop: loop)
        timer.handler = { [weak self] in self?.ready(CURL_SOCKET_TIMEOUT, 0) }
    }

    var isIdle: Bool { sockets.isEmpty && !timer.isOnLoop }

    /// CURLMOPT_SOCKETFUNCTION: curl wants `socket` watched for `what` (CURL_POLL_IN, _OUT,
    /// _INOUT) or no longer (CURL_POLL_REMOVE). Returns -1 when the loop refuses, which makes
    /// curl fail the call that asked.
    func socketChanged(_ socket: curl_socket_t, _ what: Int32) -> Int32 {
        if what == CURL_POLL_REMOVE {
            sockets.removeValue(forKey: socket)?.cancel()
            return 0
        }
        var events: UInt32 = 0
        if what & CURL_POLL_IN != 0 { events |= EPOLLIN.rawValue }
        if what & CURL_POLL_OUT != 0 { events |= EPOLLOUT.rawValue }
        do {
            if let source = sockets[socket] {
                try source.setEvents(events)
            } else {
                sockets[socket] = try loop.watch(socket, events: events) { [weak self] revents in
                    self?.ready(socket, Watcher.selection(revents))
                }
            }
            return 0
        } catch {
            failure = "\(error)"
            return -1
        }
    }

    /// CURLMOPT_TIMERFUNCTION: curl wants to be called in `milliseconds` (0: as soon as
    /// possible), or not at all (-1).
    func timerChanged(_ milliseconds: Int) -> Int32 {
        do {
            if milliseconds < 0 {
                try timer.disarm()
            } else {
                try timer.arm(after: .milliseconds(milliseconds))
            }
            return 0
        } catch {
            failure = "\(error)"
            return -1
        }
    }

    /// `message`, with why a callback of ours failed if one did since the last call.
    func explain(_ message: String) -> String {
        defer { failure = nil }
        return failure.map { "\(message) (\($0))" } ?? message
    }

    /// Takes everything off the loop.
    func stop() {
        for source in sockets.values { source.cancel() }
        sockets = [:]
        timer.stop()
    }

    /// curl's CURL_CSELECT_* bits for epoll's ready events. A hang-up counts as readable, so
    /// curl reads the end of the stream and says what happened in its own words.
    static func selection(_ revents: UInt32) -> Int32 {
        var mask: Int32 = 0
        if revents & (EPOLLIN.rawValue | EPOLLHUP.rawValue | EPOLLRDHUP.rawValue) != 0 { mask |= CURL_CSELECT_IN }
        if revents & EPOLLOUT.rawValue != 0 { mask |= CURL_CSELECT_OUT }
        if revents & EPOLLERR.rawValue != 0 { mask |= CURL_CSELECT_ERR }
        return mask
    }
}

/// One exchange in flight: its easy handle and everything curl's options point at, kept until
/// the handle is cleaned up.
private final class Transfer {
    let handle: UnsafeMutableRawPointer
    private let curl: Curl
    /// The read offset and the server's last refusal, which the callbacks update.
    private let exchange: SMTP.Exchange
    /// CURLOPT_ERRORBUFFER: curl writes its message here.
    private let errors: UnsafeMutablePointer<CChar>
    private var recipients: UnsafeMutablePointer<curl_slist>?
    /// The URL as curl parsed it (CURLOPT_CURLU): the transfer goes to the host that was checked.
    private var parsedURL: OpaquePointer?
    private var done: ((MailError?) -> Void)?
    private var closed = false

    init?(curl: Curl, message: [UInt8]?, done: @escaping (MailError?) -> Void) {
        guard let handle = CCall.nonNull("curl_easy_init", { curl.f.pointee.curl_easy_init() }) else { return nil }
        self.handle = handle
        self.curl = curl
        self.done = done
        exchange = SMTP.Exchange(message ?? [])
        let size = Int(CURL_ERROR_SIZE) + 1
        errors = .allocate(capacity: size)
        errors.initialize(repeating: 0, count: size)
    }

    deinit {
        close()
        errors.deallocate()
    }

    /// Sets the options; throws the failure when curl refuses one (or cannot read the URL).
    func configure(url: String, settings: Config.Email, password: String?, connectOnly: Bool, closesConnection: Bool) throws(MailError) {
        // The host as curl reads it, whatever the config's own check made of the text: clear
        // text only to this machine.
        let parsed = try curl.newURL()
        parsedURL = parsed
        let host: String
        do throws(CurlError) {
            host = try curl.host(of: url, in: parsed)
        } catch {
            throw MailError("curl cannot read channels.email.url as a URL (\(error.words))", permanent: true)
        }
        if settings.tls == .none && url.hasPrefix("smtp://") && !Config.Email.isLoopback(host) {
            throw MailError(
                "tls none is refused: curl reads the host of channels.email.url as \(DisplayText.escaped(host)), not this machine", permanent: true)
        }
        for address in settings.to {
            // On failure the list so far stays ours, freed by `close`.
            guard let appended = CCall.nonNull("curl_slist_append", { curl.f.pointee.curl_slist_append(recipients, "<\(address)>") }) else {
                throw MailError("curl_slist_append failed", permanent: false)
            }
            recipients = appended
        }
        do throws(CurlError) {
            try set(
                settings: settings, password: password, parsed: parsed, connectOnly: connectOnly, closesConnection: closesConnection,
                smtp: url.hasPrefix("smtp://"))
        } catch {
            // Nothing was exchanged yet: the refused option and curl's words say it all.
            throw SMTP.failure(error, response: 0, lastRefusal: "", written: "\(error)")
        }
    }

    /// Every option of the exchange, each through `Curl.call` named by its option.
    private func set(settings: Config.Email, password: String?, parsed: OpaquePointer, connectOnly: Bool, closesConnection: Bool, smtp: Bool)
        throws(CurlError)
    {
        let handle = handle
        func option(_ name: String, _ body: (UnsafePointer<dawnlet_curl>) -> CURLcode) throws(CurlError) {
            try curl.call("curl_easy_setopt", name, body)
        }
        try option("CURLOPT_CURLU") { dawnlet_curl_setopt_pointer($0, handle, CURLOPT_CURLU, UnsafeMutableRawPointer(parsed)) }
        try option("CURLOPT_MAIL_FROM") { dawnlet_curl_setopt_string($0, handle, CURLOPT_MAIL_FROM, "<\(settings.from ?? "")>") }
        try option("CURLOPT_MAIL_RCPT") { dawnlet_curl_setopt_slist($0, handle, CURLOPT_MAIL_RCPT, recipients) }
        if connectOnly {
            try option("CURLOPT_CONNECT_ONLY") { dawnlet_curl_setopt_long($0, handle, CURLOPT_CONNECT_ONLY, 1) }
        } else {
            try option("CURLOPT_UPLOAD") { dawnlet_curl_setopt_long($0, handle, CURLOPT_UPLOAD, 1) }
        }
        try option("CURLOPT_NOSIGNAL") { dawnlet_curl_setopt_long($0, handle, CURLOPT_NOSIGNAL, 1) }
        try option("CURLOPT_TIMEOUT") { dawnlet_curl_setopt_long($0, handle, CURLOPT_TIMEOUT, Int(settings.timeout.wholeSeconds)) }
        try option("CURLOPT_CONNECTTIMEOUT") {
            dawnlet_curl_setopt_long($0, handle, CURLOPT_CONNECTTIMEOUT, Int(min(settings.timeout, .seconds(10)).wholeSeconds))
        }
        // The QUIT after a delivered message is waited for inside curl (a blocking wait, outside
        // CURLOPT_TIMEOUT); bound it by the same timeout instead of curl's default two minutes.
        // Every other response is already bound more tightly by CURLOPT_TIMEOUT.
        try option("CURLOPT_SERVER_RESPONSE_TIMEOUT") {
            dawnlet_curl_setopt_long($0, handle, CURLOPT_SERVER_RESPONSE_TIMEOUT, Int(settings.timeout.wholeSeconds))
        }
        // One connection per exchange, closed at its end: no idle connection stays open between
        // sends, and no socket stays on the loop. A process that sends one message and ends
        // keeps it instead, so that it learns the outcome before curl's QUIT (see Mailer.sendOnce).
        if closesConnection { try option("CURLOPT_FORBID_REUSE") { dawnlet_curl_setopt_long($0, handle, CURLOPT_FORBID_REUSE, 1) } }
        if smtp {
            let level = settings.tls == .starttls ? CURLUSESSL_ALL.rawValue : CURLUSESSL_NONE.rawValue
            try option("CURLOPT_USE_SSL") { dawnlet_curl_setopt_long($0, handle, CURLOPT_USE_SSL, Int(level)) }
        }
        if let caFile = settings.caFile { try option("CURLOPT_CAINFO") { dawnlet_curl_setopt_string($0, handle, CURLOPT_CAINFO, caFile) } }
        if let user = settings.user {
            try option("CURLOPT_USERNAME") { dawnlet_curl_setopt_string($0, handle, CURLOPT_USERNAME, user) }
            try option("CURLOPT_PASSWORD") { dawnlet_curl_setopt_string($0, handle, CURLOPT_PASSWORD, password ?? "") }
        }
        try option("CURLOPT_ERRORBUFFER") { dawnlet_curl_setopt_pointer($0, handle, CURLOPT_ERRORBUFFER, errors) }
        // The exchange lives as long as this transfer, which outlives the easy handle.
        let context = Unmanaged.passUnretained(exchange).toOpaque()
        try option("CURLOPT_READFUNCTION") {
            dawnlet_curl_setopt_read_function($0, handle) { buffer, size, count, userdata in
                guard let buffer, let userdata else { return Int(CURL_READFUNC_ABORT) }
                let exchange = Unmanaged<SMTP.Exchange>.fromOpaque(userdata).takeUnretainedValue()
                let n = min(size * count, exchange.bytes.count - exchange.offset)
                exchange.bytes.withUnsafeBytes { source in
                    guard let base = source.baseAddress, n > 0 else { return }
                    UnsafeMutableRawPointer(buffer).copyMemory(from: base + exchange.offset, byteCount: n)
                }
                exchange.offset += n
                return n
            }
        }
        try option("CURLOPT_READDATA") { dawnlet_curl_setopt_pointer($0, handle, CURLOPT_READDATA, context) }
        // The server's replies (and only those: what we send includes the login) keep the
        // last refusal, for a failure's reason.
        try option("CURLOPT_VERBOSE") { dawnlet_curl_setopt_long($0, handle, CURLOPT_VERBOSE, 1) }
        try option("CURLOPT_DEBUGFUNCTION") {
            dawnlet_curl_setopt_debug_function($0, handle) { _, type, data, size, userdata in
                guard type == CURLINFO_HEADER_IN, let data, let userdata else { return 0 }
                let exchange = Unmanaged<SMTP.Exchange>.fromOpaque(userdata).takeUnretainedValue()
                // A refusal (4xx, 5xx), not the 221 of the QUIT that follows it.
                guard size > 0, data[0] == CChar(UInt8(ascii: "4")) || data[0] == CChar(UInt8(ascii: "5")) else { return 0 }
                let line = String(decoding: UnsafeRawBufferPointer(start: data, count: size), as: UTF8.self)
                exchange.lastResponse = line.trimmingTrailingNewlines
                return 0
            }
        }
        try option("CURLOPT_DEBUGDATA") { dawnlet_curl_setopt_pointer($0, handle, CURLOPT_DEBUGDATA, context) }
    }

    /// How the exchange ended (curl's result for it), judged by the one rule every send uses.
    func outcome(_ result: CURLcode) -> MailError? {
        do throws(CurlError) {
            try curl.check("the SMTP exchange", result)
            return nil
        } catch {
            var response = 0
            do throws(CurlError) {
                try curl.call("curl_easy_getinfo", "CURLINFO_RESPONSE_CODE") { dawnlet_curl_getinfo_long($0, handle, CURLINFO_RESPONSE_CODE, &response) }
            } catch {
                response = 0
            }
            return SMTP.failure(error, response: response, lastRefusal: exchange.lastResponse, written: String(cString: errors))
        }
    }

    /// Cleans the easy handle up (which also takes it out of a multi handle it is still in),
    /// then frees what its options pointed at.
    func close() {
        guard !closed else { return }
        closed = true
        curl.f.pointee.curl_easy_cleanup(handle)
        curl.f.pointee.curl_slist_free_all(recipients)
        recipients = nil
        curl.f.pointee.curl_url_cleanup(parsedURL)
        parsedURL = nil
    }

    /// Calls `done`, once.
    func finish(_ error: MailError?) {
        let done = self.done
        self.done = nil
        done?(error)
    }
}
