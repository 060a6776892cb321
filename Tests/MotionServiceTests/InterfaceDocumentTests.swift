import Foundation
import MotionService
import TestTools
import Testing

/// The introspection file that `scripts/install` installs is the one the
/// service serves (the Python client checks the running service against it).
@Suite struct InterfaceDocumentTests {
  @Test func thePackagedXMLIsTheServicesDocument() throws {
    let file = TestTools.packageRoot.appendingPathComponent("packaging/dbus/org.tilt.Motion1.xml")
    let text = try String(contentsOf: file, encoding: .utf8)
    #expect(text == MotionInterface.document)
  }
}
