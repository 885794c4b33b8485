import DawnletCCall
import DawnletTestSupport
import Foundation
import Testing

@testable import DawnletSystem

/// Replacing a file (a calendar written back, the state `next` reads) when the disk refuses at
/// any step: the file is left as it was, whole, and nothing is left beside it.
@Suite(.enabled(if: FailureInjection.isCompiledIn, "failures are injected in debug builds only"))
struct RegularFileFailureTests {
    @Test(
        "opening the folder or the temporary file, writing, syncing or renaming failing: the old content stays, whole, and no temporary file is left",
        arguments: ["open", "openat", "write", "fchmod", "fsync", "renameat"])
    func replaceFails(function: String) throws {
        let folder = try TemporaryFolder()
        let path = folder.path("work.ics")
        try "BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n".write(toFile: path, atomically: false, encoding: .utf8)
        let plan = FailureInjection.Plan([FailureInjection.Rule(function, context: path, code: ENOSPC)])
        let failure = FailureInjection.$plan.withValue(plan) { RegularFile.replace(path, with: Array("changed".utf8)) }
        #expect(plan.unfired.isEmpty)
        #expect(failure == .cannotWrite(ENOSPC))
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path("")) == ["work.ics"])
        // Without the failure the same call replaces it.
        #expect(RegularFile.replace(path, with: Array("changed".utf8)) == nil)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "changed")
    }
}
