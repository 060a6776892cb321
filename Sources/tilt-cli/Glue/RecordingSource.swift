import Attitude
import Evdev
import Foundation
import Tilt

/// A recording as a motion source: an evemu file through the device's profile
/// and decoder, or a CSV log whose rows are already card-frame samples.
enum RecordingSource {
  /// Opens `path`, telling an evemu recording from a CSV log by its first bytes.
  static func open(path: String, options: PipelineOptions) throws -> any MotionSource {
    if looksLikeCSV(path) {
      return try CSVSource(reader: CSVMotionReader(path: path))
    }
    return try EvemuSource(reader: EvemuReader(path: path), options: options)
  }

  /// The bundled demo recording, generated in memory.
  static func demo(options: PipelineOptions) throws -> any MotionSource {
    try EvemuSource(
      reader: EvemuReader(text: DemoRecording.text, name: "demo recording"), options: options)
  }

  /// A CSV log starts with a header row naming `t_s`; evemu files with `#` or `N:`.
  static func looksLikeCSV(_ path: String) -> Bool {
    if path.lowercased().hasSuffix(".csv") { return true }
    guard let handle = FileHandle(forReadingAtPath: path) else { return false }
    defer { try? handle.close() }
    let head = (try? handle.read(upToCount: 256)) ?? Data()
    let firstLine = String(decoding: head.prefix { $0 != 0x0A }, as: UTF8.self)
    return firstLine.split(separator: ",").contains {
      $0.trimmingCharacters(in: .whitespaces) == "t_s"
    }
  }
}

/// An evemu recording, decoded as its device would be live.
struct EvemuSource: MotionSource {
  let reader: EvemuReader
  var decoder: SampleDecoder
  let hasGyroscope: Bool

  init(reader: EvemuReader, options: PipelineOptions) throws {
    self.reader = reader
    let profile = try DeviceSetup.profile(for: reader.info, options: options, device: reader.path)
    decoder = SampleDecoder(profile: profile, stickRange: options.stickRange)
    hasGyroscope = profile.gyroAxes != nil
  }

  mutating func next() throws -> SourceItem? {
    while let frame = try reader.nextFrame() {
      if let sample = decoder.decode(frame) { return sample.item }
    }
    return nil
  }
}

/// A CSV log: each row a sample in the card frame.
struct CSVSource: MotionSource {
  let reader: CSVMotionReader
  var hasGyroscope: Bool { reader.hasGyroscope }

  mutating func next() throws -> SourceItem? {
    guard let record = try reader.nextSample() else { return nil }
    let sample = MotionSample(
      time: record.time, acceleration: record.acceleration.vector,
      rotationRate: record.rotationRate?.vector)
    return SourceItem(time: record.time, motion: sample, pressedButtons: [])
  }
}
