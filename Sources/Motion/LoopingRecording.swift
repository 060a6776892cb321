/// A recording played again from its start each time it ends, its clock
/// going on: the second pass starts one median step after the first one's
/// last sample, so that the time only goes forward.
package struct LoopingRecording: MotionSource {
  private let open: () throws -> any MotionSource
  private var source: any MotionSource
  /// Added to the current pass's times.
  private var offset = 0.0
  private var lastTime: Double?
  private var step = 0.01
  /// Whether the current pass gave a sample yet (an empty file ends the loop).
  private var passHasSamples = false

  package init(_ open: @escaping () throws -> any MotionSource) throws {
    self.open = open
    source = try open()
  }

  package var hasGyroscope: Bool { source.hasGyroscope }
  package var buttons: Set<UInt16>? { source.buttons }
  package var accelerometerRange: Double? { source.accelerometerRange }
  package var gyroscopeRange: Double? { source.gyroscopeRange }
  package var notes: [String] { source.notes }

  package mutating func next() throws -> SourceItem? {
    if var item = try source.next() {
      passHasSamples = true
      item.time += offset
      if let lastTime, item.time > lastTime { step = item.time - lastTime }
      lastTime = item.time
      return item
    }
    guard passHasSamples, let lastTime else { return nil }
    source = try open()
    offset = lastTime + step
    passHasSamples = false
    guard var item = try source.next() else { return nil }
    passHasSamples = true
    offset -= item.time
    item.time += offset
    self.lastTime = item.time
    return item
  }
}
