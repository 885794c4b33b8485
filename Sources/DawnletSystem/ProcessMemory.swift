internal import CLinux
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
        guard let file = fopen("/proc/self/maps", "r") else { return [] }
        defer { fclose(file) }
        var ranges: [Range<Int>] = []
        var line = [CChar](repeating: 0, count: 4096)
        while fgets(&line, Int32(line.count), file) != nil {
            let text = String(cString: line)
            // start-end perms offset dev inode path
            let fields = text.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 6, fields[1].hasPrefix("r-x"), fields[5].hasPrefix("/") else { continue }
            let bounds = fields[0].split(separator: "-")
            guard bounds.count == 2, let start = Int(bounds[0], radix: 16), let end = Int(bounds[1], radix: 16), end > start else { continue }
            ranges.append(start..<end)
        }
        return ranges
    }
}
