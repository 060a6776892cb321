import CEvdev
import SensorData

extension DeviceInfo {
  /// Everything libevdev knows about the device after `libevdev_new_from_fd`:
  /// name, id, uniq, phys, properties, the codes of every event type, and the
  /// absinfo of every `ABS_*` code.
  init(libevdev device: OpaquePointer) {
    func string(_ pointer: UnsafePointer<CChar>?) -> String {
      pointer.map { String(cString: $0) } ?? ""
    }
    var properties: Set<UInt16> = []
    for property in 0...UInt32(INPUT_PROP_MAX) where libevdev_has_property(device, property) == 1 {
      properties.insert(UInt16(property))
    }
    var codes: [UInt16: Set<UInt16>] = [:]
    var absInfo: [UInt16: AbsInfo] = [:]
    for type in 0...UInt32(EV_MAX) where libevdev_has_event_type(device, type) == 1 {
      var typeCodes: Set<UInt16> = []
      let maximum = libevdev_event_type_get_max(type)
      if maximum >= 0 {
        for code in 0...UInt32(maximum) where libevdev_has_event_code(device, type, code) == 1 {
          typeCodes.insert(UInt16(code))
          if type == UInt32(EV_ABS), let info = libevdev_get_abs_info(device, code)?.pointee {
            absInfo[UInt16(code)] = AbsInfo(
              value: info.value, minimum: info.minimum, maximum: info.maximum, fuzz: info.fuzz,
              flat: info.flat, resolution: info.resolution)
          }
        }
      }
      codes[UInt16(type)] = typeCodes
    }
    self.init(
      name: string(libevdev_get_name(device)),
      id: DeviceID(
        bustype: UInt16(truncatingIfNeeded: libevdev_get_id_bustype(device)),
        vendor: UInt16(truncatingIfNeeded: libevdev_get_id_vendor(device)),
        product: UInt16(truncatingIfNeeded: libevdev_get_id_product(device)),
        version: UInt16(truncatingIfNeeded: libevdev_get_id_version(device))),
      uniq: string(libevdev_get_uniq(device)),
      phys: string(libevdev_get_phys(device)),
      properties: properties, codes: codes, absInfo: absInfo)
  }
}
