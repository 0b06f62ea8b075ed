#if canImport(FoundationEssentials) && !MMSEARCH_USE_FOUNDATION
import FoundationEssentials // Linux: Foundation without ICU
#else
import Foundation // Apple platforms have no FoundationEssentials; CI compiles this branch on Linux too
#endif

// The standard library's `withUnsafeBytes` rethrows untyped errors; these keep `MMSearchError` typed
// through a raw-bytes closure, so callers need no catch-all.

extension Array {
    package func withRawBytes<Value>(_ body: (UnsafeRawBufferPointer) throws(MMSearchError) -> Value) throws(MMSearchError) -> Value {
        try withUnsafeBytes { raw in Result { () throws(MMSearchError) in try body(raw) } }.get()
    }
}

extension Data {
    package func withRawBytes<Value>(_ body: (UnsafeRawBufferPointer) throws(MMSearchError) -> Value) throws(MMSearchError) -> Value {
        try withUnsafeBytes { raw in Result { () throws(MMSearchError) in try body(raw) } }.get()
    }
}
