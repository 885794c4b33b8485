/// Bytes of text written fast: `preview --json` writes hundreds of thousands of reminders, each a
/// few dozen small pieces. An array checks its uniqueness and capacity and calls `memmove` on every
/// append; here a piece asks once for room and is written through a pointer.
///
/// A reference: copies of a value that holds one share the bytes, so one writer's output goes to
/// one place however it is passed along.
public final class ByteBuffer {
    @usableFromInline @exclusivity(unchecked) var base: UnsafeMutablePointer<UInt8>
    @usableFromInline @exclusivity(unchecked) var capacity: Int
    @usableFromInline @exclusivity(unchecked) var used = 0

    public init(capacity: Int = 256) {
        self.capacity = max(capacity, 16)
        base = .allocate(capacity: self.capacity)
    }

    deinit { base.deallocate() }

    public var count: Int { used }
    public var isEmpty: Bool { used == 0 }

    /// Makes room for `n` more bytes; `body` writes at most `n` at the pointer and returns how many.
    @inlinable
    public func write(upTo n: Int, _ body: (UnsafeMutablePointer<UInt8>) -> Int) {
        if capacity - used < n { grow(n) }
        let written = body(base + used)
        precondition(written >= 0 && written <= n, "wrote \(written) bytes into room for \(n)")
        used += written
    }

    @inlinable
    public func append(_ byte: UInt8) {
        if used == capacity { grow(1) }
        base[used] = byte
        used += 1
    }

    @inlinable
    public func append(_ bytes: UnsafeRawBufferPointer) {
        guard let source = bytes.baseAddress else { return }
        write(upTo: bytes.count) { p in
            p.update(from: source.assumingMemoryBound(to: UInt8.self), count: bytes.count)
            return bytes.count
        }
    }

    @inlinable
    public func append(_ text: StaticString) {
        text.withUTF8Buffer { append(UnsafeRawBufferPointer($0)) }
    }

    public func append(_ text: String) {
        var text = text
        text.withUTF8 { append(UnsafeRawBufferPointer($0)) }
    }

    public func removeAll() { used = 0 }

    /// The bytes so far, valid only inside `body`.
    public func withBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try body(UnsafeRawBufferPointer(start: base, count: used))
    }

    /// The bytes so far as UTF-8 text.
    public var string: String { withBytes { String(decoding: $0, as: UTF8.self) } }

    /// The bytes from `range`, for comparing pieces written one after another.
    public func slice(_ range: Range<Int>) -> UnsafeBufferPointer<UInt8> {
        precondition(range.lowerBound >= 0 && range.upperBound <= used)
        return UnsafeBufferPointer(start: base + range.lowerBound, count: range.count)
    }

    @usableFromInline
    func grow(_ n: Int) {
        let wanted = max(capacity * 2, used + n)
        let larger = UnsafeMutablePointer<UInt8>.allocate(capacity: wanted)
        larger.update(from: base, count: used)
        base.deallocate()
        base = larger
        capacity = wanted
    }
}

extension String {
    /// Text of at most `n` ASCII bytes, written by `body` straight into the string's storage.
    init(ascii n: Int, _ body: (UnsafeMutablePointer<UInt8>) -> Int) {
        self.init(unsafeUninitializedCapacity: n) { body($0.baseAddress!) }
    }
}

/// Writes `value` at `p` as at least `width` zero-padded ASCII digits (a minus sign first if
/// negative); returns how many bytes: at most `maximumDigits`.
@inlinable
public func writeDigits(_ value: Int, _ width: Int, to p: UnsafeMutablePointer<UInt8>) -> Int {
    precondition(width <= 20, "writeDigits pads to at most 20 digits")
    var v = value.magnitude
    // Counted by comparing, not dividing: 20 digits at most (10^19 still fits a UInt).
    var digits = 1
    var bound: UInt = 10
    while digits < 20 && v >= bound {
        digits += 1
        bound &*= 10
    }
    let sign = value < 0 ? 1 : 0
    if sign == 1 { p[0] = UInt8(ascii: "-") }
    let length = max(digits, width)
    // Two digits at a time, from the last.
    var i = sign + length - 1
    while i > sign {
        let pair = UInt8(v % 100)
        v /= 100
        p[i] = 48 + pair % 10
        p[i - 1] = 48 + pair / 10
        i -= 2
    }
    if i == sign { p[i] = UInt8(48 + v % 10) }
    return sign + length
}

/// The longest `writeDigits` text: a sign and 20 digits.
public let maximumDigits = 21
