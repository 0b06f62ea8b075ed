import Dispatch
import MMSearch

/// The build's one way to use a second core: `here` runs on the caller's thread while `beside` runs
/// on one of Dispatch's, and both results are what running them one after the other gives (each reads
/// only what it is given, so the index's bytes do not depend on which ends first). An error is the one
/// the two in order would have thrown first: `here`'s, else `beside`'s, and only once both have ended.
enum BuildConcurrency {
    static func run<Here, Beside: Sendable>(_ here: () throws(MMSearchError) -> Here,
                                            beside: @escaping @Sendable () throws(MMSearchError) -> Beside) throws(MMSearchError) -> (Here, Beside) {
        let outcome = Outcome<Beside>()
        let done = DispatchGroup()
        // A queue of its own, not the global one: Dispatch gives it a thread even when every one it
        // keeps a core busy is taken, so a part run beside may itself wait for a part beside it.
        DispatchQueue(label: "mmsearch.build.beside").async(group: done) { outcome.result = Result { () throws(MMSearchError) in try beside() } }
        let hereResult = Result { () throws(MMSearchError) in try here() }
        done.wait()
        // The group's wait orders the other thread's write of `result` before this read.
        return (try hereResult.get(), try outcome.result!.get())
    }

    /// Where the other thread leaves its result: written once by it, read once after the group's wait.
    private final class Outcome<Value: Sendable>: @unchecked Sendable {
        var result: Result<Value, MMSearchError>?
    }
}
