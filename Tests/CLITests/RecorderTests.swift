import Evdev
import Foundation
import Glibc
import Motion
import Testing

@testable import tilt_cli

/// `record` against a fake device boundary: every frame read is in the file,
/// in order, with its time, and the file appears only when complete.
@Suite struct RecorderTests {
  /// Hands out scripted batches of frames, each announced by a byte on a pipe
  /// so that `poll()` wakes; then says the device went away.
  final class FakeDevice: FrameDevice {
    let info: DeviceInfo
    private var batches: [[Frame]]
    private let ends: [Int32]
    private(set) var closed = false

    init(info: DeviceInfo, batches: [[Frame]]) {
      self.info = info
      self.batches = batches
      var fds: [Int32] = [-1, -1]
      _ = pipe(&fds)
      ends = fds
      for _ in 0...batches.count { _ = write(ends[1], "x", 1) }
    }

    var fileDescriptor: Int32 { ends[0] }

    func readFrames() throws(DeviceError) -> [Frame] {
      var byte: UInt8 = 0
      _ = read(ends[0], &byte, 1)
      guard !batches.isEmpty else { throw .vanished("fake") }
      return batches.removeFirst()
    }

    func close() {
      guard !closed else { return }
      closed = true
      Glibc.close(ends[0])
      Glibc.close(ends[1])
    }
  }

  static let info = DeviceInfo(
    name: "fake accelerometer", id: DeviceID(bustype: 6, vendor: 1, product: 2, version: 3),
    properties: [InputProperty.accelerometer],
    codes: [EventType.syn: [0], EventType.abs: [AbsCode.x, AbsCode.y, AbsCode.z]],
    absInfo: [
      AbsCode.x: AbsInfo(minimum: -4096, maximum: 4096, resolution: 1024),
      AbsCode.y: AbsInfo(minimum: -4096, maximum: 4096, resolution: 1024),
      AbsCode.z: AbsInfo(minimum: -4096, maximum: 4096, resolution: 1024),
    ])

  /// A seeded stream of frames: some axes change, then SYN_REPORT, 4 ms apart.
  static func frames(_ count: Int, seed: UInt64) -> [Frame] {
    var state = seed
    func next() -> UInt64 {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return state >> 33
    }
    return (0..<count).map { i in
      let time = EventTime(seconds: 100 + Int64(i / 250), microseconds: Int64(i % 250) * 4000)
      var events = [AbsCode.x, AbsCode.y, AbsCode.z].filter { _ in next() % 3 != 0 }.map {
        InputEvent(time: time, type: EventType.abs, code: $0, value: Int32(next() % 8193) - 4096)
      }
      events.append(InputEvent(time: time, type: EventType.syn, code: SynCode.report, value: 0))
      return Frame(events: events)
    }
  }

  @Test(arguments: [1, 7, 64])
  func everyFrameReadIsInTheFile(batchSize: Int) throws {
    let frames = Self.frames(900, seed: UInt64(batchSize))
    let batches = stride(from: 0, to: frames.count, by: batchSize).map {
      Array(frames[$0..<min($0 + batchSize, frames.count)])
    }
    let device = FakeDevice(info: Self.info, batches: batches)
    let path = FileManager.default.temporaryDirectory
      .appendingPathComponent("tilt-recorder-\(getpid())-\(batchSize).evemu").path
    defer { try? FileManager.default.removeItem(atPath: path) }
    let status = try Recorder(device: device, devicePath: "fake", outputPath: path, duration: nil)
      .run()
    #expect(status == 1, "the device going away ends the recording with status 1")
    #expect(device.closed)
    let reader = try EvemuReader(path: path)
    #expect(reader.info.name == Self.info.name)
    var read: [Frame] = []
    while let frame = try reader.nextFrame() { read.append(frame) }
    #expect(read.count == frames.count)
    let start = frames[0].time!.totalMicroseconds
    for (a, b) in zip(read, frames) {
      #expect(a.events.map { [$0.type, $0.code] } == b.events.map { [$0.type, $0.code] })
      #expect(a.events.map(\.value) == b.events.map(\.value))
      let recorded = a.time!.totalMicroseconds - read[0].time!.totalMicroseconds
      #expect(recorded == b.time!.totalMicroseconds - start)
    }
  }
}
