import DawnletCore
import FoundationEssentials
import Glibc

/// Writes what was done here back into a writable calendar (`readOnly: false`): the one
/// file that holds the item, edited by a CalendarWriteBack function and replaced whole, so that a
/// sync tool carries it on. A file changed by someone else meanwhile is read again first.
public enum CalendarWriter {
    /// The file of `path` (a file, or a vdir of them) holding `uid`, changed by `edit` (nil: not
    /// this file) and replaced; returns that file, or what went wrong.
    public static func update(path: String, uid: String, _ edit: (String) -> String?) -> Result<String, CalendarProblem> {
        let files: [String]
        switch candidates(path: path, uid: uid) {
        case .success(let found): files = found
        case .failure(let problem): return .failure(problem)
        }
        for file in files {
            for _ in 0..<3 {
                guard case .success(let bytes) = RegularFile.read(file, limit: CalendarReader.maximumFileBytes, links: .refuse),
                    let text = String(validating: bytes, as: UTF8.self), let edited = edit(text)
                else { break }
                // Unchanged since it was read (a sync tool may have written it meanwhile): replace.
                guard case .success(let again) = RegularFile.read(file, limit: CalendarReader.maximumFileBytes), again == bytes else { continue }
                if let failure = RegularFile.replace(file, with: Array(edited.utf8)) {
                    return .failure(CalendarProblem(file: file, "\(failure)"))
                }
                return .success(file)
            }
        }
        return .failure(CalendarProblem(file: path, "no file holds \(DisplayText.escaped(uid))"))
    }

    /// The text of the file of `path` (a file, or a vdir of them) that `holds` says is the one of
    /// `uid`; nil when none is, or none can be read.
    public static func text(path: String, uid: String, holds: (String) -> Bool) -> String? {
        guard case .success(let files) = candidates(path: path, uid: uid) else { return nil }
        for file in files {
            guard case .success(let bytes) = RegularFile.read(file, limit: CalendarReader.maximumFileBytes, links: .refuse),
                let text = String(validating: bytes, as: UTF8.self), holds(text)
            else { continue }
            return text
        }
        return nil
    }

    /// The files that may hold `uid`: the calendar's file, or a vdir's, the one named by the UID first.
    static func candidates(path: String, uid: String) -> Result<[String], CalendarProblem> {
        let isFolder: Bool
        switch CalendarReader.kind(of: path) {
        case .success(let folder): isFolder = folder
        case .failure(let problem): return .failure(problem)
        }
        // A calendar file named in the config may be a link a person made: the file it names is
        // the one written. A file in a vdir is another matter: a link there is never followed.
        guard isFolder else { return .success([ConfigPath.canonical(path)]) }
        // vdirsyncer names a file by its UID where it can: that one first.
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).filter { $0.lowercased().hasSuffix(".ics") && !$0.hasPrefix(".") }
            .sorted()
        return .success(names.sorted { ($0 == "\(uid).ics" ? 0 : 1) < ($1 == "\(uid).ics" ? 0 : 1) }.map { "\(path)/\($0)" })
    }
}
