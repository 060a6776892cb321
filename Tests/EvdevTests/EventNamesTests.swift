import CEvdev
import SensorData
import Testing

/// SensorData's generated name table (scripts/generate-event-codes) says what
/// libevdev says, so evemu files and messages read the same without it.
@Suite struct EventNamesTests {
  @Test func typeNamesAndMaximaAreLibevdevs() {
    for type in UInt16(0)...UInt16(EV_MAX) {
      let name = libevdev_event_type_get_name(UInt32(type)).map { String(cString: $0) }
      #expect(EventNames.typeName(type) == name, "type \(type)")
      let max = libevdev_event_type_get_max(UInt32(type))
      #expect(EventNames.maximumCode(type: type).map(Int32.init) == (max >= 0 ? max : nil))
    }
  }

  /// Every code libevdev names has that name here. The kernel header can be
  /// newer than the libevdev build: codes only the header knows may have a name
  /// here and none there, but only codes that have one in the header.
  @Test func codeNamesAreLibevdevs() {
    var newer: [String] = []
    for type in UInt16(0)...UInt16(EV_MAX) {
      guard let max = EventNames.maximumCode(type: type) else { continue }
      for code in UInt16(0)...max {
        let theirs = libevdev_event_code_get_name(UInt32(type), UInt32(code)).map {
          String(cString: $0)
        }
        let ours = EventNames.codeName(type: type, code: code)
        if let theirs {
          #expect(ours == theirs, "type \(type) code \(code)")
        } else if let ours {
          newer.append(ours)
        }
      }
    }
    #expect(newer.count < 20, "names libevdev lacks: \(newer)")
  }

  @Test func propertyNamesAreLibevdevs() {
    for property in UInt16(0)...UInt16(INPUT_PROP_MAX) {
      let name = libevdev_property_get_name(UInt32(property)).map { String(cString: $0) }
      #expect(EventNames.propertyName(property) == name, "property \(property)")
    }
  }
}
