import Glibc

/// The one path for a C call whose failure the program handles: the failure a test asked for
/// (`FailureInjection`) comes first, then the call; each C convention is turned into a result
/// in exactly one place here.
public enum CCall {
    /// A kernel call of the POSIX convention (-1 and `errno`): retried while interrupted by a
    /// signal (the one EINTR policy), and otherwise the result, or -1 with `errno` set.
    @inline(__always)
    public static func posix<R: FixedWidthInteger>(_ function: StaticString, context: @autoclosure () -> String? = nil, _ body: () -> R) -> R {
        while true {
            if let rule = FailureInjection.failure(function, context: context()) {
                errno = rule.code
                if rule.code == EINTR { continue }
                return -1
            }
            let result = body()
            if result == -1 && errno == EINTR { continue }
            return result
        }
    }

    /// A call that returns a negative errno on failure (libsystemd): its result, or the injected
    /// failure as one.
    @inline(__always)
    public static func negativeErrno(_ function: StaticString, _ body: () -> Int32) -> Int32 {
        if let rule = FailureInjection.failure(function) { return -rule.code }
        return body()
    }

    /// A call that returns its result code (SQLite, libcurl; `posix_spawnp`, which returns an
    /// errno): the code, or the injected failure's.
    @inline(__always)
    public static func resultCode(_ function: StaticString, context: @autoclosure () -> String? = nil, _ body: () -> Int32) -> Int32 {
        if let rule = FailureInjection.failure(function, context: context()) { return rule.code }
        return body()
    }

    /// A call that returns NULL on failure (`curl_easy_init`, `curl_slist_append`): its result, or
    /// nil for an injected failure, with `errno` set to the rule's code.
    @inline(__always)
    public static func nonNull<T>(_ function: StaticString, context: @autoclosure () -> String? = nil, _ body: () -> T?) -> T? {
        if let rule = FailureInjection.failure(function, context: context()) {
            errno = rule.code
            return nil
        }
        return body()
    }
}
