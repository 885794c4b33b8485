internal import CCurl
import DawnletCCall
import DawnletCore
import Glibc

/// Why a message was not sent. Temporary failures (no connection, a 4xx answer, a timeout) are
/// worth retrying; permanent ones (a 5xx answer, TLS refused, a bad password file) are not.
public struct MailError: Error, Hashable, Sendable, CustomStringConvertible {
    public let message: String
    public let permanent: Bool

    public init(_ message: String, permanent: Bool) {
        self.message = message
        self.permanent = permanent
    }

    public var description: String { message }
}

/// The email channel: SMTP through libcurl, or a sendmail-compatible command. Either way each
/// message leaves through a child process: `serve` never loads libcurl or TLS itself, and a
/// server that never answers holds up nothing but that child.
public enum Mailer {
    /// The program's own entry point that sends one message by SMTP (`dawnlet-remind mail-send`):
    /// this very executable, as the kernel knows it (so a package upgrade that replaces the file
    /// on disk does not change what runs).
    public static let sendingEntryPoint = ["/proc/self/exe", "mail-send"]
    /// Where `mail-send` finds the settings it is to send with: `Config.Email.document`.
    public static let settingsVariable = "DAWNLET_EMAIL"
    /// What a child adds to the exchange's own timeout before it is killed: start-up and exit.
    static let childMargin: Duration = .seconds(5)

    /// Sends `text` (a rendered message) as configured, on `loop`: a sendmail child, or the
    /// program's own `mail-send` child for SMTP, fed the message on stdin and watched on the
    /// loop like the command channel. `done` is called once, on the loop's thread, with nil on
    /// success. The password is read by the child at each send and never logged.
    public static func send(
        _ text: [UInt8], settings: Config.Email, environment: [String: String], on loop: EventLoop, done: @escaping (MailError?) -> Void
    ) {
        var argv = sendingEntryPoint
        var environment = environment
        if let sendmail = settings.sendmail {
            argv = sendmail
        } else {
            environment[settingsVariable] = settings.document
        }
        do {
            // Our own child bounds its exchange by the timeout itself: it is killed only if that fails.
            let timeout = settings.sendmail == nil ? settings.timeout + childMargin : settings.timeout
            try CommandRunner.start(argv, environment: environment, timeout: timeout, input: text, on: loop) { result in
                done(settings.sendmail.map { sendmailError(result, $0, timeout: settings.timeout) } ?? childError(result))
            }
        } catch {
            // A child that could not be started (no memory, no process slot of the moment) is
            // worth another try; a program that is not there is not.
            done(MailError("\(error)", permanent: !error.isTransient))
        }
    }

    /// How a sendmail command's end reads as a mail error; nil when it took the message.
    public static func sendmailError(_ result: CommandResult, _ sendmail: [String], timeout: Duration) -> MailError? {
        guard !result.succeeded else { return nil }
        let why = result.timedOut ? "\(sendmail[0]) timed out after \(DurationText.format(timeout))" : "\(sendmail[0]) exited \(result.status)"
        let words = result.firstStderrLine.map { ": \($0)" } ?? ""
        // sysexits.h: EX_TEMPFAIL (75) asks to try again later.
        return MailError(why + words, permanent: !result.timedOut && result.status != 75)
    }

    /// How a `mail-send` child's end reads as a mail error: its own one line (what `sendOnce`
    /// reported), temporary when it exited EX_TEMPFAIL or had to be killed; nil when it sent.
    static func childError(_ result: CommandResult) -> MailError? {
        guard !result.succeeded else { return nil }
        let prefix = "dawnlet-remind: "
        let line = result.firstStderrLine.map { $0.hasPrefix(prefix) ? String($0.dropFirst(prefix.count)) : $0 }
        if result.timedOut { return MailError("the SMTP exchange did not end in time" + (line.map { ": \($0)" } ?? ""), permanent: false) }
        // Killed by a signal (128 + its number) before it could say: as temporary as a timeout.
        return MailError(line ?? "mail-send exited \(result.status)", permanent: result.status != 75 && result.status < 128)
    }

    /// `mail-send`: one SMTP exchange that sends `text`, waited for; `finish` hears how it ended
    /// while curl still holds the connection, and ends the process. Curl closes a connection with
    /// QUIT and waits for the answer (outside its timeout), so a server that took the message and
    /// never answers QUIT would otherwise make a sent message look lost, and be sent again.
    public static func sendOnce(
        _ text: [UInt8], settings: Config.Email, environment: [String: String], finish: (MailError?) -> Never
    ) -> Never {
        do throws(MailError) {
            guard let url = settings.url else { throw MailError("no SMTP url and no sendmail command", permanent: true) }
            let password = try settings.user == nil ? nil : Mailer.password(settings, environment: environment)
            try SMTP.exchange(url: url, settings: settings.expandingPaths(environment), password: password, message: text, keepsConnection: true) {
                finish($0)
            }
            // `finish` ends the process once the exchange has an outcome; without one, exchange throws.
            finish(MailError("the SMTP exchange ended without a result", permanent: false))
        } catch {
            finish(error)
        }
    }

    /// `doctor`: connects to the SMTP server as a send would (greeting, EHLO, STARTTLS, login)
    /// and sends nothing; or, for sendmail, checks the program can be found.
    public static func check(_ settings: Config.Email, environment: [String: String]) throws(MailError) -> String {
        if let sendmail = settings.sendmail {
            guard let program = CommandRunner.find(sendmail[0], path: environment["PATH"]) else {
                throw MailError("\(sendmail[0]) is not found in PATH", permanent: true)
            }
            return "sendmail command \(program)"
        }
        guard let url = settings.url else { throw MailError("no SMTP url and no sendmail command", permanent: true) }
        let password = try settings.user == nil ? nil : Mailer.password(settings, environment: environment)
        try SMTP.exchange(url: url, settings: settings.expandingPaths(environment), password: password, message: nil)
        let tls = url.hasPrefix("smtps://") ? "TLS" : settings.tls == .starttls ? "STARTTLS" : "no TLS (loopback)"
        return "\(url) answers, \(tls)\(settings.user.map { ", logged in as \($0)" } ?? "")"
    }

    /// The most a password file may hold.
    static let passwordLimit = 4096

    /// The SMTP password: `$CREDENTIALS_DIRECTORY/smtp-password` (a systemd credential) when
    /// present, else `passwordFile`, which must belong to us and be readable by nobody else.
    /// A trailing newline is not part of it.
    static func password(_ settings: Config.Email, environment: [String: String]) throws(MailError) -> String {
        var path: String?
        let credential = environment["CREDENTIALS_DIRECTORY"].map { "\($0)/smtp-password" }
        if let credential, CCall.posix("access", context: credential, { access(credential, R_OK) }) == 0 {
            path = credential
        } else if let file = settings.passwordFile {
            let expanded = ConfigPath.expand(file, environment: environment)
            var info = stat()
            guard CCall.posix("stat", context: expanded, { stat(expanded, &info) }) == 0 else {
                throw MailError("password file \(file): \(String(cString: strerror(errno)))", permanent: true)
            }
            guard info.st_uid == getuid(), info.st_mode & 0o077 == 0 else {
                throw MailError("password file \(file) must be yours and private (chmod 600 \(file))", permanent: true)
            }
            path = expanded
        }
        guard let path else {
            throw MailError("user is set but there is no password: set passwordFile or a systemd credential smtp-password", permanent: true)
        }
        var bytes: [UInt8]
        switch RegularFile.read(path, limit: passwordLimit) {
        case .success(let read): bytes = read
        case .failure(.tooLarge(let limit)): throw MailError("the password file is larger than \(limit) bytes", permanent: true)
        case .failure(.notRegular): throw MailError("the password file is not a regular file", permanent: true)
        // "cannot be read: …"
        case .failure(let failure): throw MailError("the password file \(failure)", permanent: true)
        }
        while let last = bytes.last, last == 10 || last == 13 { bytes.removeLast() }
        return String(decoding: bytes, as: UTF8.self)
    }
}

extension Config.Email {
    /// With `caFile` as a path curl can open (`~/` expanded).
    func expandingPaths(_ environment: [String: String]) -> Config.Email {
        var copy = self
        copy.caFile = caFile.map { ConfigPath.expand($0, environment: environment) }
        return copy
    }
}

/// libcurl, loaded on first use (see Sources/CCurl/shim.h for why it is not linked).
final class Curl: @unchecked Sendable {
    /// The table `dawnlet_curl_load` filled: libcurl's functions, typed by the C compiler. It
    /// lives as long as the process. A call whose failure is handled goes through `call` (or
    /// `CCall.nonNull`, for one that returns NULL); teardown calls it directly.
    let f: UnsafePointer<dawnlet_curl>

    /// The library, or why it could not be loaded; loaded (and globally initialised) once.
    static let shared: Result<Curl, MailError> = Result { () throws(MailError) in try Curl() }

    private init() throws(MailError) {
        var problem: UnsafePointer<CChar>?
        guard let table = dawnlet_curl_load(&problem) else {
            let why = problem.map { String(cString: $0) } ?? "unknown"
            throw MailError("cannot load libcurl.so.4 (install libcurl4): \(why)", permanent: true)
        }
        f = table
        do throws(CurlError) {
            try call("curl_global_init") { $0.pointee.curl_global_init(Int(CURL_GLOBAL_DEFAULT)) }
        } catch {
            throw MailError("\(error)", permanent: true)
        }
    }

    /// The one place a libcurl result code is read: nothing for OK, else a thrown `CurlError`
    /// naming `operation`, with curl's own words for the code.
    func check<Code: CurlCode>(_ operation: @autoclosure () -> String, _ code: Code) throws(CurlError) {
        guard code != Code.ok else { return }
        let words = Code.words(code, f).map { String(cString: $0) } ?? "error \(code.rawValue)"
        throw CurlError(operation(), code: code.kind, words: words)
    }

    /// The one path of a libcurl call that returns a result code: the failure a test asked for
    /// (`FailureInjection`, by `function` and `option`), else the call; then `check`.
    func call<Code: CurlCode>(_ function: StaticString, _ option: String? = nil, _ body: (UnsafePointer<dawnlet_curl>) -> Code) throws(CurlError) {
        let rc = CCall.resultCode(function, context: option) { Int32(truncatingIfNeeded: body(f).rawValue) }
        try check(option.map { "\(function)(\($0))" } ?? "\(function)", Code(rawValue: Code.RawValue(truncatingIfNeeded: rc)) ?? Code.ok)
    }

    /// A new URL handle (CURLU), which the caller cleans up with `curl_url_cleanup`.
    func newURL() throws(MailError) -> OpaquePointer {
        guard let handle = CCall.nonNull("curl_url", { f.pointee.curl_url() }) else { throw MailError("curl_url failed", permanent: false) }
        return handle
    }

    /// `url` read into `handle` by curl's own URL parser, and the host it names.
    func host(of url: String, in handle: OpaquePointer) throws(CurlError) -> String {
        try call("curl_url_set") { $0.pointee.curl_url_set(handle, CURLUPART_URL, url, 0) }
        var host: UnsafeMutablePointer<CChar>?
        try call("curl_url_get") { $0.pointee.curl_url_get(handle, CURLUPART_HOST, &host, 0) }
        guard let host else { return "" }
        defer { f.pointee.curl_free(host) }
        return String(cString: host)
    }
}

/// A libcurl call that failed, or an exchange that ended in failure: what failed, curl's code,
/// and curl's own words for it.
struct CurlError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The code, of whichever of curl's interfaces returned it.
    enum Code: Hashable, Sendable {
        case easy(CURLcode)
        case multi(CURLMcode)
        case url(CURLUcode)
    }

    /// The call, with the option it set where there is one: `curl_easy_setopt(CURLOPT_MAIL_FROM)`.
    let operation: String
    let code: Code
    /// curl_easy_strerror's words for the code (or curl_multi_strerror's, curl_url_strerror's).
    let words: String

    init(_ operation: String, code: Code, words: String) {
        self.operation = operation
        self.code = code
        self.words = words
    }

    var description: String { "\(operation): \(words)" }
}

/// A result code of one of libcurl's interfaces, for `Curl.check`.
protocol CurlCode: RawRepresentable, Equatable where RawValue: FixedWidthInteger {
    static var ok: Self { get }
    var kind: CurlError.Code { get }
    /// curl's words for `code`.
    static func words(_ code: Self, _ curl: UnsafePointer<dawnlet_curl>) -> UnsafePointer<CChar>?
}

extension CURLcode: CurlCode {
    static var ok: CURLcode { CURLE_OK }
    var kind: CurlError.Code { .easy(self) }
    static func words(_ code: CURLcode, _ curl: UnsafePointer<dawnlet_curl>) -> UnsafePointer<CChar>? { curl.pointee.curl_easy_strerror(code) }
}

extension CURLMcode: CurlCode {
    static var ok: CURLMcode { CURLM_OK }
    var kind: CurlError.Code { .multi(self) }
    static func words(_ code: CURLMcode, _ curl: UnsafePointer<dawnlet_curl>) -> UnsafePointer<CChar>? { curl.pointee.curl_multi_strerror(code) }
}

extension CURLUcode: CurlCode {
    static var ok: CURLUcode { CURLUE_OK }
    var kind: CurlError.Code { .url(self) }
    static func words(_ code: CURLUcode, _ curl: UnsafePointer<dawnlet_curl>) -> UnsafePointer<CChar>? { curl.pointee.curl_url_strerror(code) }
}

/// One SMTP exchange through libcurl: STARTTLS required for smtp:// unless `tls: none` on a
/// loopback host, implicit TLS for smtps://, optional login, a timeout for the whole exchange.
enum SMTP {
    /// What the read and debug callbacks share: the message still to send, the server's last words.
    final class Exchange {
        let bytes: [UInt8]
        var offset = 0
        var lastResponse = ""
        init(_ bytes: [UInt8]) { self.bytes = bytes }
    }

    /// One exchange, waited for: sends `message`, or with nil only connects (CONNECT_ONLY runs
    /// SMTP's connect phase: greeting, EHLO, STARTTLS, AUTH). The CLI's commands are not event
    /// driven, so the exchange runs on an SMTPSender with a loop of its own until it is done: one
    /// code path for a blocking send and for sends on a shared loop.
    /// With `keepsConnection`, curl keeps the connection when the exchange ends, and `before`
    /// hears the outcome before the sender (and with it the connection) goes.
    static func exchange(
        url: String, settings: Config.Email, password: String?, message: [UInt8]?, keepsConnection: Bool = false,
        before closing: (MailError?) -> Void = { _ in }
    ) throws(MailError) {
        let loop: EventLoop
        do {
            loop = try EventLoop()
        } catch {
            throw MailError("cannot start an event loop for the SMTP exchange: \(error)", permanent: false)
        }
        let sender = try SMTPSender(loop: loop, closesConnections: !keepsConnection)
        var finished = false
        var outcome: MailError?
        sender.send(url: url, settings: settings, password: password, message: message) { error in
            finished = true
            outcome = error
            loop.exit(0)
        }
        // The sender must live until the loop is done with it: Swift may otherwise end its
        // lifetime right after its last use above, and a sender that goes away abandons its sends.
        do {
            _ = try withExtendedLifetime(sender) { () throws(SystemError) -> Int32 in
                let code = try loop.run()
                if finished { closing(outcome) }
                return code
            }
        } catch {
            throw MailError("the SMTP exchange's event loop failed: \(error)", permanent: false)
        }
        guard finished else { throw MailError("the SMTP exchange ended without a result", permanent: false) }
        if let outcome { throw outcome }
    }

    /// How an exchange failed, from curl's result, the server's last response code, its last
    /// refusal line and what curl wrote in its error buffer (for an option refused before the
    /// exchange began, the refused call and curl's words). The one place a failure is judged
    /// temporary or permanent, whichever way the exchange ran.
    static func failure(_ error: CurlError, response: Int, lastRefusal: String, written: String) -> MailError {
        let detail = written.isEmpty ? error.words : written
        if (400..<600).contains(response) {
            let words = lastRefusal.isEmpty ? "\(response)" : lastRefusal
            return MailError("the server answered \(words)", permanent: response >= 500)
        }
        switch error.code {
        case .easy(CURLE_USE_SSL_FAILED):
            return MailError("the server does not offer STARTTLS, which is required (\(detail))", permanent: true)
        case .easy(CURLE_PEER_FAILED_VERIFICATION), .easy(CURLE_SSL_CACERT_BADFILE), .easy(CURLE_LOGIN_DENIED), .easy(CURLE_UNSUPPORTED_PROTOCOL),
            .easy(CURLE_URL_MALFORMAT):
            return MailError(detail, permanent: true)
        default:
            return MailError(detail, permanent: false)
        }
    }
}

extension String {
    var trimmingTrailingNewlines: String {
        var s = Substring(self)
        while let last = s.last, last == "\n" || last == "\r" || last == "\r\n" { s = s.dropLast() }
        return String(s)
    }
}
