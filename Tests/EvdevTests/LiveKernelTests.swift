import CEvdev
import Foundation
import Testing

@testable import Evdev

/// `LiveDevice` and `DeviceScanner` against the kernel's evdev, with devices made
/// through uinput. Runs where `/dev/uinput` is writable (a Linux kernel with the
/// uinput module, e.g. the project's VM test); skipped elsewhere.
@Suite(
  .serialized,
  .enabled(
    if: VirtualDevice.isAvailable,
    "needs a writable /dev/uinput (a real kernel with the uinput module); skipped here"))
struct LiveKernelTests {
  @Test func readsTheDescriptionTheKernelReports() throws {
    let virtual = try VirtualDevice.motionSensors(phys: "usb-tilt-info/input0")
    let device = try LiveDevice(path: virtual.path)
    #expect(device.info.name == "Tilt Test Pad Motion Sensors")
    #expect(device.info.phys == "usb-tilt-info/input0")
    #expect(device.info.uniq.isEmpty)  // uinput cannot set uniq
    #expect(device.info.id.bustype == UInt16(BUS_USB))
    #expect(device.info.has(property: InputProperty.accelerometer))
    #expect(device.info.has(type: EventType.msc, code: MscCode.timestamp))
    #expect(device.info.absInfo[AbsCode.x]?.resolution == 8192)
    #expect(device.info.absInfo[AbsCode.rz]?.resolution == 1024)
    #expect(device.info.absInfo[AbsCode.y]?.minimum == -32768)
    #expect(device.fileDescriptor >= 0)
  }

  @Test func readsFramesAsWritten() throws {
    let virtual = try VirtualDevice.motionSensors(phys: "tilt-frames/input0")
    let device = try LiveDevice(path: virtual.path)
    #expect(try device.readFrames().isEmpty)
    for index in 1...3 {
      let value = Int32(index * 100)
      try virtual.writeSample(x: value, y: -value, z: 8192 + value, timestamp: UInt32(index) * 4000)
    }
    let frames = try device.readFrames()
    #expect(frames.count == 3)
    for (index, frame) in frames.enumerated() {
      let value = Int32((index + 1) * 100)
      #expect(
        frame.events.map { [Int($0.type), Int($0.code), Int($0.value)] } == [
          [Int(EV_ABS), Int(ABS_X), Int(value)], [Int(EV_ABS), Int(ABS_Y), Int(-value)],
          [Int(EV_ABS), Int(ABS_Z), Int(8192 + value)],
          [Int(EV_MSC), Int(MSC_TIMESTAMP), (index + 1) * 4000],
          [Int(EV_SYN), Int(SYN_REPORT), 0],
        ])
    }
    #expect(device.droppedCount == 0)
    #expect(try device.readFrames().isEmpty)
  }

  @Test func overflowIsResynchronisedToTheLatestState() throws {
    let virtual = try VirtualDevice.motionSensors(phys: "tilt-overflow/input0")
    let device = try LiveDevice(path: virtual.path)
    let count = 5000
    for index in 1...count {
      let value = Int32(index % 30000)
      try virtual.writeSample(x: value, y: -value, z: value / 2, timestamp: UInt32(index) * 1000)
    }
    var frames: [Frame] = []
    while case let batch = try device.readFrames(), !batch.isEmpty { frames += batch }

    #expect(device.droppedCount >= 1)
    #expect(frames.contains { $0.isResync })
    var state: [UInt16: Int32] = [:]
    for event in frames.flatMap(\.events) where event.type == EventType.abs {
      state[event.code] = event.value
    }
    let last = Int32(count % 30000)
    #expect(state[AbsCode.x] == last)
    #expect(state[AbsCode.y] == -last)
    #expect(state[AbsCode.z] == last / 2)
    var probe = RateProbe()
    probe.add(frames)
    #expect(probe.report.synDroppedCount == device.droppedCount)
    #expect(frames.count < count)
  }

  @Test func unplugEndsWithVanished() throws {
    let virtual = try VirtualDevice.motionSensors(phys: "tilt-unplug/input0")
    let device = try LiveDevice(path: virtual.path)
    try virtual.writeSample(x: 1, y: 2, z: 3, timestamp: 10)
    virtual.destroy()
    var frames: [Frame] = []
    let error = #expect(throws: DeviceError.self) {
      while true { frames += try device.readFrames() }
    }
    #expect(error == .vanished(virtual.path))
    #expect(frames.count <= 1)
    device.close()
    device.close()
    #expect(device.fileDescriptor == -1)
    #expect(!device.isOpen)
  }

  @Test func closingReleasesTheDescriptor() throws {
    let virtual = try VirtualDevice.motionSensors(phys: "tilt-close/input0")
    let device = try LiveDevice(path: virtual.path)
    let fd = device.fileDescriptor
    #expect(FileManager.default.fileExists(atPath: "/proc/self/fd/\(fd)"))
    device.close()
    #expect(!FileManager.default.fileExists(atPath: "/proc/self/fd/\(fd)"))
  }

  @Test func scannerPairsAMotionNodeWithItsGamepadByPhys() throws {
    let gamepad = try VirtualDevice.gamepad(name: "Tilt Phys Pad", phys: "usb-tilt-test-7/input0")
    let decoy = try VirtualDevice.gamepad(name: "Tilt Phys Pad", phys: "usb-tilt-test-8/input0")
    let motion = try VirtualDevice.motionSensors(
      name: "Tilt Phys Pad Motion Sensors", phys: "usb-tilt-test-7/input2")
    let devices = DeviceScanner.scan()
    let found = try #require(devices.first { $0.path == motion.path })
    #expect(found.info?.name == "Tilt Phys Pad Motion Sensors")
    #expect(found.openError == nil)
    #expect(found.pairedButtonPath == gamepad.path)
    #expect(devices.first { $0.path == decoy.path }?.pairedButtonPath == nil)
    let numbers = devices.compactMap {
      DeviceScanner.eventNumber(($0.path as NSString).lastPathComponent)
    }
    #expect(numbers == numbers.sorted())
  }

  /// What the VM's evemu-made pairs look like: no uniq, no phys.
  @Test func scannerPairsByNameWhenUinputLeavesUniqAndPhysEmpty() throws {
    let gamepad = try VirtualDevice.gamepad(name: "Tilt Name Pad")
    let motion = try VirtualDevice.motionSensors(name: "Tilt Name Pad Motion Sensors")
    let found = try #require(DeviceScanner.scan().first { $0.path == motion.path })
    #expect(found.pairedButtonPath == gamepad.path)
  }
}

/// Opening a node without permission, on the real kernel: the test thread's
/// filesystem uid is switched to `nobody` (`setfsuid` is per thread and drops
/// `CAP_DAC_OVERRIDE`), so other tests running meanwhile are not affected.
@Suite(
  .enabled(
    if: VirtualDevice.isAvailable && getuid() == 0,
    "needs root and a writable /dev/uinput (a real kernel with uinput); skipped here"))
struct LiveKernelPermissionTests {
  typealias SetFilesystemUID = @convention(c) (UInt32) -> Int32

  @Test func anUnreadableNodeGivesPermissionDeniedWithTheFix() throws {
    let virtual = try VirtualDevice.motionSensors()
    let symbol = try #require(dlsym(dlopen(nil, RTLD_NOW), "setfsuid"))
    let setfsuid = unsafeBitCast(symbol, to: SetFilesystemUID.self)
    var status = stat()
    #expect(stat(virtual.path, &status) == 0)
    try #require(status.st_mode & 0o006 == 0, "the node must not be world-readable")

    _ = setfsuid(65534)
    let result = Result { () throws(DeviceError) in try LiveDevice(path: virtual.path) }
    _ = setfsuid(0)

    #expect(throws: DeviceError.permissionDenied(virtual.path)) { try result.get() }
    #expect(try LiveDevice(path: virtual.path).isOpen)
  }
}
