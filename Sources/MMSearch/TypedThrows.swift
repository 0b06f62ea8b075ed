import FoundationEssentials

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
