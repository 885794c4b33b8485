internal import CCurl
import DawnletCCall
import DawnletCore
import Glibc

extension SMTPSender {
    /// One exchange in flight: its easy handle and everything curl's options point at, kept until
    /// the handle is cleaned up.
    final class Transfer {
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
}
