internal import CLinux
import DawnletCCall
import Glibc

/// The process's memory, as the allocator and the kernel hold it.
public enum ProcessMemory {
    /// Gives the kernel back every whole page the allocator holds free, not only those at the top
    /// of the heap (which it returns by itself): after a plan or a burst of deliveries, a process
    /// that then sleeps for hours keeps only what it still uses. Costs a walk of the free lists.
    public static func returnFreed() {
        _ = malloc_trim(0)
    }

    /// Lets go of the pages of code this process has touched (its binary's and its libraries'
    /// executable mappings): they are clean copies of their files, which the kernel keeps in its
    /// page cache, so the next use maps them again without a read (a minor fault each). An idle
    /// runner then holds resident only what it wrote. Only mappings that are executable and not
    /// writable are let go: their pages never differ from the file. Returns the bytes let go.
    @discardableResult
    public static func releaseCode() -> Int {
        var released = 0
        for range in codeMappings() where madvise(UnsafeMutableRawPointer(bitPattern: range.lowerBound), range.count, MADV_DONTNEED) == 0 {
            released += range.count
        }
        return released
    }

    /// The executable, not writable, file-backed mappings of this process (/proc/self/maps).
    static func codeMappings() -> [Range<Int>] {
        // procfs says no size: read to the end.
        let fd = CCall.posix("open", context: "/proc/self/maps") { open("/proc/self/maps", O_RDONLY | O_CLOEXEC) }
        guard fd >= 0 else { return [] }
        defer { close(fd) }
        var text: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16_384)
        while true {
            let n = CCall.posix("read", context: "/proc/self/maps") { buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) } }
            if n <= 0 { break }
            text += buffer[..<n]
        }
        var ranges: [Range<Int>] = []
        // start-end perms offset dev inode path
        for line in text.split(separator: UInt8(ascii: "\n")) {
            let fields = line.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: true)
            guard fields.count >= 6, fields[1].starts(with: Array("r-x".utf8)), fields[5].first == UInt8(ascii: "/") else { continue }
            let bounds = fields[0].split(separator: UInt8(ascii: "-"))
            guard bounds.count == 2, let start = Int(String(decoding: bounds[0], as: UTF8.self), radix: 16),
                let end = Int(String(decoding: bounds[1], as: UTF8.self), radix: 16), end > start
            else { continue }
            ranges.append(start..<end)
        }
        return ranges
    }
}
