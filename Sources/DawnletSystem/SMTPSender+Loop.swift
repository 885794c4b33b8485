internal import CCurl
internal import CSystemd
import Glibc

extension SMTPSender {
    /// What curl asked the loop to watch: one io source per socket, one timer.
    final class Watcher {
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
}
