/// The face's lines of text as the terminal writes them
/// (``TerminalCardFace/lines(_:frontTitle:frontSubtitle:backTitle:backSubtitle:)``),
/// each variant escaped and split into scalars once for a renderer's
/// titles and size, not at each frame; and its heading, escaped.
struct TerminalFaceText: Sendable {
  struct Line: Sendable {
    var line: TerminalCardFace.TextLine
    /// `line`'s variants, escaped (``TerminalText/escaped(_:)``).
    var variants: [[Unicode.Scalar]]
  }

  var front: [Line] = []
  var back: [Line] = []
  /// The renderer's heading, escaped.
  var heading: String?

  init() {}

  init(_ renderer: TerminalRenderer) {
    let face = TerminalCardFace(
      width: renderer.configuration.width, height: renderer.configuration.height)
    func lines(_ side: CardFace) -> [Line] {
      face.lines(
        side, frontTitle: renderer.frontTitle, frontSubtitle: renderer.frontSubtitle,
        backTitle: renderer.backTitle, backSubtitle: renderer.backSubtitle
      ).map { line in
        Line(
          line: line,
          variants: line.variants.map { Array(TerminalText.escaped($0).unicodeScalars) })
      }
    }
    (front, back) = (lines(.front), lines(.back))
    heading = renderer.heading.map { TerminalText.escaped($0) }
  }
}
