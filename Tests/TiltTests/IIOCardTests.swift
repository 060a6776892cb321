import Attitude
import Foundation
import IIO
import TestTools
import Testing
import Tilt

/// The IIO live source on a fake sysfs tree (``FakeIIOSensor``): a HID hub's
/// accelerometer whose node is a file of crafted scans.
@Suite struct IIOCardTests {
  @Test func readsGravitysDirectionAsTheCardsTiltAndStopClosesTheBuffer() throws {
    let tree = try FakeIIOSensor()
    // Pitched 30°: gravity's direction (0, -sin 30°, -cos 30°) g.
    try tree.writeNode(Array(repeating: (0, -500, -866), count: 5))
    let manager = try TiltMotionManager(
      device: IIOMotionDevice(imu: try tree.imu(), onNote: { _ in }),
      sink: FrameHandlerSink { _ in })
    #expect(manager.isDeviceOpen)
    #expect(tree.attribute("buffer/enable") == "1")
    #expect(tree.attribute("scan_elements/in_timestamp_en") == "1")
    try manager.service(ready: Set(manager.pollDescriptors))
    let gravity = try #require(manager.pipeline.manager.deviceMotion?.gravity)
    #expect(abs(gravity.y + 0.5) < 1e-3 && abs(gravity.z + 0.866) < 1e-3, "gravity \(gravity)")
    try manager.stopDeviceMotionUpdates()
    #expect(!manager.isDeviceOpen)
    #expect(manager.pollDescriptors.isEmpty, "stopped: nothing to wake the loop")
    #expect(tree.attribute("buffer/enable") == "0")
    try manager.startDeviceMotionUpdates()
    #expect(manager.isDeviceOpen)
    #expect(tree.attribute("buffer/enable") == "1")
  }

  @Test func theMountMatrixComesFromTheDriverBeforeTheSign() throws {
    let tree = try FakeIIOSensor()
    try ("0, 1, 0; -1, 0, 0; 0, 0, 1\n").write(
      toFile: tree.sensor + "/in_accel_mount_matrix", atomically: false, encoding: .utf8)
    // Device x carries gravity: after the matrix it is the card's -y; the up-vector +y.
    try tree.writeNode(Array(repeating: (1000, 0, 0), count: 3))
    let manager = try TiltMotionManager(
      device: IIOMotionDevice(imu: try tree.imu(), onNote: { _ in }),
      sink: FrameHandlerSink { _ in })
    try manager.service(ready: Set(manager.pollDescriptors))
    let gravity = try #require(manager.pipeline.manager.deviceMotion?.gravity)
    #expect(abs(gravity.y + 1) < 1e-3, "gravity \(gravity)")
  }
}
