/// A last-in, first-out stack of plain values that lives in a temporary buffer (on the stack) and, past
/// that buffer's capacity, in an array: a walk under a small node pushes a few nodes and allocates
/// nothing; a big node's walk grows the array as before. Values past the buffer wait in the array,
/// taken first, so the order is a stack's. Only inside the scope of the buffer it is made with.
struct _InlineStack<Element: BitwiseCopyable> {
    private let inline: UnsafeMutableBufferPointer<Element>
    private var inlineCount = 0
    private var overflow: [Element] = []

    /// A stack over `inline`, empty; its elements are left uninitialized.
    init(_ inline: UnsafeMutableBufferPointer<Element>) {
        self.inline = inline
    }

    @inline(__always)
    mutating func push(_ element: Element) {
        guard inlineCount < inline.count else { return overflow.append(element) }
        (inline.baseAddress! + inlineCount).initialize(to: element)
        inlineCount += 1
    }

    @inline(__always)
    mutating func pop() -> Element? {
        if !overflow.isEmpty { return overflow.removeLast() }
        guard inlineCount > 0 else { return nil }
        inlineCount -= 1
        return inline[inlineCount]
    }
}
