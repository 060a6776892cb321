import Attitude
import Foundation
import SensorData

/// Recordings as motion sources: an evemu file through its device's profile
/// and decoder, a CSV log whose rows are already card-frame samples, and the
/// bundled demo, generated in memory.
public enum Recording {
  /// Opens `path`, telling an evemu recording from a CSV log by its first bytes.
  ///
  /// With `checksFirst` the whole file is read and checked before its first
  /// step (contract §3.4), as a replay shown to a user needs; without it only
  /// the header is read, and each step is parsed when it is asked for, so
  /// opening costs the same for any length: a malformed line is thrown when
  /// it is reached, with the same text, and there are no ``MotionSource/notes``.
  public static func open(
    path: String, configuration: DeviceMotionConfiguration, checksFirst: Bool = true
  ) throws -> any MotionSource {
    if looksLikeCSV(path) {
      return try CSVMotionSource(reader: CSVMotionReader(path: path, checksFirst: checksFirst))
    }
    return try EvemuMotionSource(
      reader: EvemuReader(path: path, checksFirst: checksFirst), configuration: configuration)
  }

  /// A CSV log starts with a header row naming `t_s`; evemu files with `#` or `N:`.
  public static func looksLikeCSV(_ path: String) -> Bool {
    if path.lowercased().hasSuffix(".csv") { return true }
    guard let handle = FileHandle(forReadingAtPath: path) else { return false }
    defer { try? handle.close() }
    let head = (try? handle.read(upToCount: 256)) ?? Data()
    let firstLine = String(decoding: head.prefix { $0 != 0x0A }, as: UTF8.self)
    return firstLine.split(separator: ",").contains {
      $0.trimmingCharacters(in: .whitespaces) == CSVColumns.time
    }
  }
}

/// The name ``Recording`` had before 0.4.0.
@available(*, deprecated, renamed: "Recording")
public typealias RecordingSource = Recording

/// An evemu recording, decoded as its device would be live.
public struct EvemuMotionSource: MotionSource {
  public let reader: EvemuReader
  public let profile: DeviceProfile
  private var decoder: SampleDecoder

  public init(reader: EvemuReader, configuration: DeviceMotionConfiguration) throws {
    self.reader = reader
    profile = try DeviceSetup.profile(
      for: reader.info, configuration: configuration, device: reader.path,
      isRecording: true)
    decoder = SampleDecoder(profile: profile, stickRange: configuration.stickRangeDegrees)
  }

  public var capabilities: MotionCapabilities { profile.capabilities }
  public var notes: [String] { reader.check.notes.map(\.description) }

  public mutating func next() throws -> MotionStep? {
    while let frame = try reader.nextFrame() {
      if let sample = decoder.decode(frame) { return sample.item }
    }
    return nil
  }
}

/// The bundled demo recording (``DemoRecording``), its frames decoded as
/// they are generated: no text, no file.
public struct DemoMotionSource: MotionSource, Sendable {
  public let profile: DeviceProfile
  private var decoder: SampleDecoder
  private var frames: IndexingIterator<[Frame]>

  public init(configuration: DeviceMotionConfiguration) throws {
    profile = try DeviceSetup.profile(
      for: DemoRecording.info, configuration: configuration, device: "demo recording")
    decoder = SampleDecoder(profile: profile, stickRange: configuration.stickRangeDegrees)
    frames = DemoRecording.frames().makeIterator()
  }

  public var capabilities: MotionCapabilities { profile.capabilities }

  public mutating func next() throws -> MotionStep? {
    while let frame = frames.next() {
      if let sample = decoder.decode(frame) { return sample.item }
    }
    return nil
  }
}

/// A CSV log: each row a sample in the card frame.
public struct CSVMotionSource: MotionSource {
  public let reader: CSVMotionReader

  public init(reader: CSVMotionReader) { self.reader = reader }

  /// A CSV log has no buttons.
  public var capabilities: MotionCapabilities {
    MotionCapabilities(hasGyroscope: reader.hasGyroscope, keyCodes: [])
  }
  public var notes: [String] { reader.check.notes.map(\.description) }

  public mutating func next() throws -> MotionStep? {
    guard let record = try reader.nextSample() else { return nil }
    let sample = MotionSample(
      time: record.time, acceleration: record.acceleration.vector,
      rotationRate: record.rotationRate?.vector)
    return MotionStep(time: record.time, motion: sample, pressedButtons: [])
  }
}
