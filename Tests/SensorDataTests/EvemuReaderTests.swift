import TestTools
import Testing

@testable import SensorData

@Suite struct EvemuReaderTests {
  @Test(.needsSharedData("recordings/mad-catz-xbox360-sticks.evemu"))
  func readsXboxRecording() throws {
    let path = try TestData.path("recordings/mad-catz-xbox360-sticks.evemu")
    let reader = try EvemuReader(path: path)
    #expect(reader.info.name == "Mad Catz Wired Xbox 360 Controller")
    #expect(reader.info.id == DeviceID(bustype: 3, vendor: 0x738, product: 0x4716, version: 0x410))
    #expect(reader.formatVersion == (1, 3))
    #expect(
      reader.info.absInfo[AbsCode.x]
        == AbsInfo(minimum: -32768, maximum: 32767, fuzz: 16, flat: 128))
    #expect(reader.info.absInfo.count == 8)
    #expect(reader.info.has(type: EventType.key, code: ButtonCode.east))
    #expect(reader.info.has(type: EventType.key, code: ButtonCode.south))
    #expect(reader.info.codes[EventType.key]?.count == 11)
    let frames = try reader.allFrames()
    #expect(reader.eventCount == 500)
    #expect(frames.reduce(0) { $0 + $1.events.count } == 500)
    #expect(
      frames.first?.events.first
        == InputEvent(
          time: EventTime(seconds: 0, microseconds: 1), type: 3, code: 1, value: -314))
    #expect(frames.last?.time == EventTime(seconds: 3, microseconds: 484125))
    let eastPresses = frames.flatMap(\.events).filter {
      $0.type == EventType.key && $0.code == ButtonCode.east && $0.value == 1
    }
    // The data README says two presses; the file holds one press and its release.
    #expect(eastPresses.count == 1)
    #expect(reader.backwardSteps == 0)
  }

  @Test(
    .needsSharedData("broad"),
    arguments: [
      ("broad/broad02_window36-56s_as_dualsense_motion.evemu", 43635, 5714),
      ("broad/broad07_window22-42s_as_dualsense_motion.evemu", 44375, 5714),
    ])
  func readsBroadRecordings(file: String, events: Int, reports: Int) throws {
    let path = try TestData.path(file)
    let reader = try EvemuReader(path: path)
    #expect(reader.info.name == "DualSense Wireless Controller Motion Sensors")
    #expect(reader.info.id.vendor == 0x054c)
    #expect(reader.info.has(property: InputProperty.accelerometer))
    #expect(reader.info.absInfo[AbsCode.z]?.resolution == 8192)
    #expect(reader.info.absInfo[AbsCode.rx]?.resolution == 1024)
    #expect(reader.info.has(type: EventType.msc, code: MscCode.timestamp))
    var frames = 0
    while let frame = try reader.nextFrame() {
      frames += 1
      #expect(frame.events.last?.type == EventType.syn)
    }
    #expect(reader.eventCount == events)
    #expect(frames == reports)
  }

  @Test(.needsSharedData("recordings/sony-ps3-controller.desc"))
  func readsOldDescriptionWithFourFieldAbsLines() throws {
    let path = try TestData.path("recordings/sony-ps3-controller.desc")
    let reader = try EvemuReader(path: path)
    #expect(reader.formatVersion == (1, 0))
    #expect(reader.info.name == "Sony PLAYSTATION(R)3 Controller")
    #expect(reader.info.id == DeviceID(bustype: 3, vendor: 0x54c, product: 0x268, version: 0x111))
    #expect(reader.info.absInfo[0x3b] == AbsInfo(minimum: 0, maximum: 1023, fuzz: 3, flat: 63))
    #expect(reader.info.absInfo[AbsCode.x] == AbsInfo(minimum: 0, maximum: 255, fuzz: 0, flat: 15))
    #expect(reader.info.codes[EventType.key]?.count == 19)
    #expect(try reader.nextFrame() == nil)
  }

  @Test(.needsSharedData("recordings/nintendo-wiimote.desc"))
  func readsWiimoteDescription() throws {
    let path = try TestData.path("recordings/nintendo-wiimote.desc")
    let reader = try EvemuReader(path: path)
    #expect(reader.info.name == "Nintendo Wiimote")
    #expect(reader.info.id.bustype == 5)
    #expect(reader.info.absInfo.isEmpty)
    #expect(reader.info.has(type: EventType.key))
    #expect(try reader.nextFrame() == nil)
  }

  @Test func commentsBlankLinesAndLedLinesAreTolerated() throws {
    let path = TestData.file(
      """
      # EVEMU 1.3
      # a comment

      N: Test Accel
      I: 0003 1234 5678 0001   # trailing comment
      P: 40 00 00 00 00 00 00 00
      B: 03 07 00 00 00 00 00 00 00
      A: 00 -512 511 0 0 100
      A: 01 -512 511 0 0
      A: 02 -512 511 0 0 100
      L: 00 1
      S: 00 1
      # events
      E: 0.000001 0003 0002 100 # comment
      E: 0.000001 0000 0000 0000

      E: 0.010001 0003 0002 -1
      E: 0.010001 0000 0000 0000
      """)
    let reader = try EvemuReader(path: path)
    #expect(reader.info.properties == [InputProperty.accelerometer])
    #expect(reader.info.codes[EventType.abs] == [0, 1, 2])
    #expect(reader.info.absInfo[1]?.resolution == 0)
    #expect(reader.info.absInfo[2]?.resolution == 100)
    let frames = try reader.allFrames()
    #expect(frames.count == 2)
    #expect(frames[1].events[0].value == -1)
    #expect(frames[1].events[0].time == EventTime(seconds: 0, microseconds: 10001))
  }

  @Test func timeGoingBackwardsIsAcceptedAndCounted() throws {
    let path = TestData.file(
      """
      N: T
      I: 0003 0000 0000 0000
      E: 1.000000 0003 0000 1
      E: 1.000000 0000 0000 0
      E: 0.500000 0003 0000 2
      E: 0.500000 0000 0000 0
      """)
    let reader = try EvemuReader(path: path)
    #expect(try reader.allFrames().count == 2)
    #expect(reader.backwardSteps == 1)
  }

  @Test func trailingEventsWithoutReportFormALastFrame() throws {
    let path = TestData.file("N: T\nI: 0003 0000 0000 0000\nE: 0.000001 0003 0000 5")
    let reader = try EvemuReader(path: path)
    let frames = try reader.allFrames()
    #expect(frames.count == 1)
    #expect(frames[0].events.count == 1)
  }
}
