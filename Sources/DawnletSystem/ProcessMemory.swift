internal import CLinux

/// The process's heap, as the allocator holds it.
public enum ProcessMemory {
    /// Gives the kernel back every whole page the allocator holds free, not only those at the top
    /// of the heap (which it returns by itself): after a plan or a burst of deliveries, a process
    /// that then sleeps for hours keeps only what it still uses. Costs a walk of the free lists.
    public static func returnFreed() {
        _ = malloc_trim(0)
    }
}
