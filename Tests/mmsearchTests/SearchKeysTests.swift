@testable import mmsearch
import Testing

/// The search screen's pieces that tmux cannot reach with certainty: key decoding across split
/// reads, and display widths.
@Suite struct SearchKeysTests {
    @Test func keysAreDecodedAcrossReads() {
        var decoder = KeyDecoder()
        #expect(decoder.decode(Array("Lo".utf8)) == [.text("L"), .text("o")])
        // "ü" (C3 BC) and PageDown (ESC [ 6 ~) cut in two by reads.
        #expect(decoder.decode([0xC3]).isEmpty && decoder.hasPending)
        #expect(decoder.decode([0xBC, 0x1B, 0x5B]) == [.text("ü")])
        #expect(decoder.decode([0x36, 0x7E]) == [.pageDown])
        #expect(!decoder.hasPending)
        let keys = decoder.decode([0x7F, 0x15, 0x17, 0x03, 0x0D] + Array("\u{1B}[A\u{1B}OB\u{1B}[5~\u{1B}[1;5A\u{1B}[H\u{1B}[4~".utf8))
        #expect(keys == [.backspace, .control("u"), .control("w"), .control("c"), .enter, .up, .down, .pageUp, .up, .home, .end])
        // A lone ESC is a key only when nothing follows it.
        #expect(decoder.decode([0x1B]).isEmpty)
        #expect(decoder.flush() == [.escape])
        #expect(decoder.decode([0xFF, 0x41]) == [.other, .text("A")])
        #expect(decoder.decode([0xE6, 0x41]) == [.other, .text("A")]) // a cut-off character
        #expect(!decoder.hasPending)
        #expect(decoder.decode(Array("東".utf8)) == [.text("東")])
    }

    @Test func displayWidthCountsColumns() {
        #expect(DisplayWidth.of("London") == 6)
        #expect(DisplayWidth.of("Zürich") == 6)
        #expect(DisplayWidth.of("Zu\u{308}rich") == 6) // a combining mark takes no column
        #expect(DisplayWidth.of("東京都") == 6)
        #expect(DisplayWidth.fit("東京都, JP", width: 5) == "東京…")
        #expect(DisplayWidth.fit("Londonderry", width: 6) == "Londo…")
        #expect(DisplayWidth.fit("London", width: 6) == "London")
        #expect(DisplayWidth.fit("a\u{1B}[2Jb", width: 10) == "a\u{FFFD}[2Jb") // no escape reaches the terminal
    }
}
