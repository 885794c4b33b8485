import DawnletCCall
import DawnletCore
import DawnletTestSupport
import Foundation
import Testing

@testable import DawnletSystem

/// Calls of libsystemd, the kernel and libcurl made to fail by name: each failure reaches the
/// caller as a thrown error or a reported one, with nothing left half done.
@Suite(.enabled(if: FailureInjection.isCompiledIn, "failures are injected in debug builds only"))
struct CCallFailureTests {
    /// Something a handler holds, to see when the handler is released.
    final class Token {}

    @Test(
        "an io source whose destroy callback or floating state cannot be set is dropped with its handler, and the failure thrown; the loop takes the descriptor again",
        arguments: ["sd_event_source_set_destroy_callback", "sd_event_source_set_floating"])
    func sourceNotOwned(function: String) throws {
        let loop = try EventLoop()
        var fds: [Int32] = [-1, -1]
        #expect(pipe(&fds) == 0)
        defer {
            close(fds[0])
            close(fds[1])
        }
        let plan = FailureInjection.Plan([FailureInjection.Rule(function, code: ENOMEM)])
        weak var held: Token?
        do {
            let token = Token()
            held = token
            let error = #expect(throws: SystemError.self) {
                try FailureInjection.$plan.withValue(plan) { _ = try loop.watch(fds[0], events: EventLoop.readable) { _ in _ = token } }
            }
            #expect(error?.operation == function)
            #expect(error?.errno == ENOMEM)
        }
        #expect(plan.unfired.isEmpty)
        #expect(held == nil, "the handler of the dropped source was not released")
        // Had the source stayed on the loop, epoll would refuse the descriptor a second time.
        var woke = false
        let source = try loop.watch(fds[0], events: EventLoop.readable) { _ in
            woke = true
            loop.exit(0)
        }
        #expect(write(fds[1], "x", 1) == 1)
        #expect(try loop.run() == 0)
        #expect(woke)
        source.cancel()
    }

    @Test(
        "a command that cannot be started (posix_spawnp or fcntl refused) throws, naming what failed; the next one runs",
        arguments: [("posix_spawnp", "cannot run /bin/true", ENOMEM), ("fcntl", "fcntl", EINVAL)])
    func commandNotStarted(function: String, operation: String, code: Int32) throws {
        let plan = FailureInjection.Plan([FailureInjection.Rule(function, code: code)])
        let error = #expect(throws: SystemError.self) {
            try FailureInjection.$plan.withValue(plan) {
                _ = try CommandRunner.run(["/bin/true"], environment: ["PATH": "/usr/bin:/bin"], timeout: .seconds(5))
            }
        }
        #expect(plan.unfired.isEmpty)
        #expect(error?.operation == operation)
        #expect(error?.errno == code)
        #expect(try CommandRunner.run(["/bin/true"], environment: ["PATH": "/usr/bin:/bin"], timeout: .seconds(5)).succeeded)
    }

    /// A libcurl call made to fail, and how the send that made it must end.
    struct CurlCase: Sendable, CustomTestStringConvertible {
        let rule: FailureInjection.Rule
        let message: String
        let permanent: Bool
        var testDescription: String { rule.description }
    }

    @Test(
        "a libcurl call failing by name ends the send once, in curl's words, before anything is sent; nothing stays on the loop",
        arguments: [
            // CURLE_OUT_OF_MEMORY
            CurlCase(
                rule: FailureInjection.Rule("curl_easy_setopt", context: "CURLOPT_MAIL_FROM", code: 27),
                message: "curl_easy_setopt(CURLOPT_MAIL_FROM): Out of memory", permanent: false),
            // CURLM_OUT_OF_MEMORY
            CurlCase(
                rule: FailureInjection.Rule("curl_multi_add_handle", code: 3), message: "curl_multi_add_handle: Out of memory", permanent: false),
            CurlCase(rule: FailureInjection.Rule("curl_easy_init", code: ENOMEM), message: "curl_easy_init failed", permanent: false),
            // CURLUE_MALFORMED_INPUT
            CurlCase(
                rule: FailureInjection.Rule("curl_url_set", code: 3),
                message: "curl cannot read channels.email.url as a URL (Malformed input to a URL function)", permanent: true),
        ])
    func curlCallFails(_ failing: CurlCase) throws {
        let loop = try EventLoop()
        let sender = try SMTPSender(loop: loop)
        // Nothing listens on port 1: a send that got as far as connecting would fail otherwise.
        let settings = try SMTPSenderTests.settings(timeout: "5s")
        let deadline = EventLoop.RelativeTimer(loop: loop) { loop.exit(1) }
        try deadline.arm(after: .seconds(10))
        var reports: [MailError?] = []
        let plan = FailureInjection.Plan([failing.rule])
        try FailureInjection.$plan.withValue(plan) { () throws -> Void in
            let message = Array("From: Dawnlet <dawnlet@example.org>\r\nTo: me@example.org\r\nSubject: Not sent\r\n\r\nNo.\r\n".utf8)
            sender.send(url: "smtp://127.0.0.1:1", settings: settings, password: nil, message: message) { error in
                reports.append(error)
                loop.exit(0)
            }
            #expect(reports.isEmpty, "done is never called from inside send")
            #expect(try loop.run() == 0, "the send never reported back")
        }
        deadline.stop()
        #expect(plan.unfired.isEmpty)
        #expect(reports.count == 1)
        let error = try #require(reports.first ?? nil)
        #expect(error.message == failing.message)
        #expect(error.permanent == failing.permanent)
        #expect(sender.isIdle)
    }
}
