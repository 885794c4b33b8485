import DawnletTestSupport
import Foundation
import Testing

@testable import DawnletSystem

/// Log lines never wait for their reader: a full pipe costs lines, counted and said when the
/// reader catches up; journal entries go as the journal's native protocol says.
struct LogOutputTests {
    /// A pipe: (read end, write end).
    func makePipe() throws -> (Int32, Int32) {
        var fds: [Int32] = [0, 0]
        try #require(pipe(&fds) == 0)
        return (fds[0], fds[1])
    }

    /// Everything the pipe holds now, without waiting.
    func drain(_ fd: Int32) -> [UInt8] {
        let flags = fcntl(fd, F_GETFL)
        _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK)
        defer { _ = fcntl(fd, F_SETFL, flags) }
        var out: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = read(fd, &buffer, buffer.count)
            if n <= 0 { return out }
            out += buffer[0..<n]
        }
    }

    /// Fills the pipe through a non-blocking description of its own, leaving `fd`'s as it was:
    /// blocking, as a parent's stderr pipe is.
    func fill(_ fd: Int32) {
        let own = open("/proc/self/fd/\(fd)", O_WRONLY | O_NONBLOCK)
        defer { close(own) }
        let block = [UInt8](repeating: UInt8(ascii: "."), count: 4096)
        while write(own, block, block.count) > 0 {}
    }

    @Test("a full pipe that nobody reads: each line is dropped at once and counted; once it is read, the count comes first, then the line")
    func fullPipe() throws {
        let (reader, writer) = try makePipe()
        defer {
            close(reader)
            close(writer)
        }
        fill(writer)
        #expect(fcntl(writer, F_GETFL) & O_NONBLOCK == 0, "the shared description stays blocking")
        let output = LogOutput(environment: [:], fd: writer)
        let started = ContinuousClock.now
        for i in 0..<500 { output.write("line \(i)", priority: 6, fields: [], prefix: "T ") }
        #expect(ContinuousClock.now - started < .seconds(5), "writes to a full pipe returned at once")
        #expect(output.dropped == 500)
        #expect(fcntl(writer, F_GETFL) & O_NONBLOCK == 0, "nor did writing make it non-blocking")
        let filler = drain(reader)
        #expect(!filler.isEmpty && filler.allSatisfy { $0 == UInt8(ascii: ".") })

        output.write("after", priority: 6, fields: [], prefix: "T ")
        #expect(String(decoding: drain(reader), as: UTF8.self) == "T 500 log lines dropped\nT after\n")
        #expect(output.dropped == 0)
    }

    @Test("a line longer than a pipe takes at once is cut at a character's start and ends in …")
    func longLine() throws {
        let (reader, writer) = try makePipe()
        defer {
            close(reader)
            close(writer)
        }
        let output = LogOutput(environment: [:], fd: writer)
        output.write(String(repeating: "ü", count: 5_000), priority: 6, fields: [])
        let got = drain(reader)
        #expect(got.count <= Int(PIPE_BUF))
        let text = String(decoding: got, as: UTF8.self)
        #expect(text.hasSuffix("ü…\n"), "\(text.suffix(10))")
        #expect(!text.contains("\u{FFFD}"))
    }

    @Test("a stream socket that takes part of a line gets the rest before the next line: no line is cut in two")
    func partialSocket() throws {
        var pair: [Int32] = [0, 0]
        try #require(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair) == 0)
        defer {
            close(pair[0])
            close(pair[1])
        }
        var size: Int32 = 4096
        _ = setsockopt(pair[1], SOL_SOCKET, SO_SNDBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        _ = setsockopt(pair[0], SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        let output = LogOutput(environment: [:], fd: pair[1])
        let line = String(repeating: "x", count: 3_000)
        for _ in 0..<20 { output.write(line, priority: 6, fields: []) }
        #expect(output.dropped > 0)
        var received = drain(pair[0])
        output.write("last", priority: 6, fields: [])
        received += drain(pair[0])
        let lines = String(decoding: received, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        // Whole lines only: the ones taken, then the count of those dropped, then the last.
        #expect(lines.dropLast(2).allSatisfy { $0 == line[...] }, "\(lines.map(\.count))")
        #expect(lines.suffix(2).first?.hasSuffix("log lines dropped") == true, "\(lines.map { $0.prefix(30) })")
        #expect(lines.last == "last")
    }

    @Test("journal entries: one datagram each in the native protocol, a value with a line break sized in binary")
    func journalEntries() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("journal.socket")
        let server = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        defer { close(server) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8)) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(server, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        try #require(bound == 0)
        let socket = try #require(Journal.connect(path))
        defer { close(socket) }
        let entry = Journal.entry("delivered todo:1", priority: 6, fields: [("DAWNLET_KEY", "todo:1"), ("DAWNLET_NOTE", "two\nlines")])
        #expect(send(socket, entry, entry.count, 0) == entry.count)
        var buffer = [UInt8](repeating: 0, count: 4096)
        let n = recv(server, &buffer, buffer.count, 0)
        let length: [UInt8] = [9, 0, 0, 0, 0, 0, 0, 0]
        let expected =
            Array("MESSAGE=delivered todo:1\nPRIORITY=6\nSYSLOG_IDENTIFIER=dawnlet-remind\nDAWNLET_KEY=todo:1\nDAWNLET_NOTE\n".utf8)
            + length + Array("two\nlines\n".utf8)
        #expect(Array(buffer[0..<max(n, 0)]) == expected)
    }
}
