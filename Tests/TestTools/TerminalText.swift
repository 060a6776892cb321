/// Reading what a terminal view wrote.
public enum TerminalText {
  /// The parameters of every SGR sequence (`ESC [ … m`) in `text`, in one pass.
  public static func sgrParameters(in text: String) -> Set<String> {
    var found: Set<String> = []
    let bytes = Array(text.utf8)
    var i = 0
    while i + 1 < bytes.count {
      guard bytes[i] == 0x1B, bytes[i + 1] == UInt8(ascii: "[") else {
        i += 1
        continue
      }
      var end = i + 2
      while end < bytes.count, !(0x40...0x7E).contains(bytes[end]) { end += 1 }
      if end < bytes.count, bytes[end] == UInt8(ascii: "m") {
        found.insert(String(decoding: bytes[(i + 2)..<end], as: UTF8.self))
      }
      i = end + 1
    }
    return found
  }
}
