/// The names and the introspection data of contract §8's interfaces: the
/// one place they are written. `packaging/org.tilt.Motion1.xml` is
/// ``document`` (a test checks it), and every object introspects as it says.
public enum MotionInterface {
  /// The bus name the service owns.
  public static let busName = "org.tilt.Motion1"
  /// The manager's object and interface.
  static let managerPath = "/org/tilt/Motion1"
  static let managerInterface = "org.tilt.Motion1"
  /// Where the devices' objects are: `devices/N` below it.
  static let devicesPath = "/org/tilt/Motion1/devices"
  static let deviceInterface = "org.tilt.Motion1.Device"

  /// The object of device `number`.
  static func devicePath(_ number: Int) -> String { "\(devicesPath)/\(number)" }

  /// The errors of §8, besides the bus's own.
  enum ErrorName {
    static let invalidInterval = "org.tilt.Motion1.Error.InvalidInterval"
    static let tooManyClaims = "org.tilt.Motion1.Error.TooManyClaims"
  }

  /// The bus's standard errors (`org.freedesktop.DBus.Error.…`).
  enum StandardError {
    static let unknownMethod = "org.freedesktop.DBus.Error.UnknownMethod"
    static let unknownInterface = "org.freedesktop.DBus.Error.UnknownInterface"
    static let unknownObject = "org.freedesktop.DBus.Error.UnknownObject"
    static let unknownProperty = "org.freedesktop.DBus.Error.UnknownProperty"
    static let invalidArgs = "org.freedesktop.DBus.Error.InvalidArgs"
    static let propertyReadOnly = "org.freedesktop.DBus.Error.PropertyReadOnly"
    static let failed = "org.freedesktop.DBus.Error.Failed"
  }

  /// The introspection file's header (the DTD every bus tool expects).
  static let doctype = """
    <!DOCTYPE node PUBLIC "-//freedesktop//DTD D-BUS Object Introspection 1.0//EN"
     "http://www.freedesktop.org/standards/dbus/1.0/introspect.dtd">

    """

  /// `org.tilt.Motion1`, the manager's interface.
  static let managerXML = """
      <interface name="org.tilt.Motion1">
        <method name="ListDevices">
          <arg name="devices" type="ao" direction="out"/>
        </method>
        <signal name="DeviceAdded">
          <arg name="device" type="o"/>
        </signal>
        <signal name="DeviceRemoved">
          <arg name="device" type="o"/>
        </signal>
        <property name="Version" type="s" access="read">
          <annotation name="org.freedesktop.DBus.Property.EmitsChangedSignal" value="const"/>
        </property>
      </interface>

    """

  /// `org.tilt.Motion1.Device`, each device's interface.
  static let deviceXML = """
      <interface name="org.tilt.Motion1.Device">
        <method name="Claim">
          <arg name="interval" type="d" direction="in"/>
        </method>
        <method name="Release"/>
        <method name="Recenter"/>
        <signal name="Motion">
          <arg name="timestamp" type="t"/>
          <arg name="attitude" type="(dddd)"/>
          <arg name="gravity" type="(ddd)"/>
          <arg name="rotation_rate" type="(ddd)"/>
          <arg name="user_acceleration" type="(ddd)"/>
        </signal>
        <property name="Name" type="s" access="read">
          <annotation name="org.freedesktop.DBus.Property.EmitsChangedSignal" value="const"/>
        </property>
        <property name="Kind" type="s" access="read">
          <annotation name="org.freedesktop.DBus.Property.EmitsChangedSignal" value="const"/>
        </property>
        <property name="Node" type="s" access="read">
          <annotation name="org.freedesktop.DBus.Property.EmitsChangedSignal" value="const"/>
        </property>
        <property name="HasGyroscope" type="b" access="read">
          <annotation name="org.freedesktop.DBus.Property.EmitsChangedSignal" value="const"/>
        </property>
        <property name="Claimed" type="b" access="read"/>
        <property name="Rate" type="d" access="read"/>
        <property name="Orientation" type="s" access="read"/>
        <property name="GyroscopeBias" type="(ddd)" access="read"/>
        <property name="Calibration" type="s" access="read"/>
      </interface>

    """

  /// The standard interfaces every object has.
  static let standardXML = """
      <interface name="org.freedesktop.DBus.Peer">
        <method name="Ping"/>
        <method name="GetMachineId">
          <arg name="machine_uuid" type="s" direction="out"/>
        </method>
      </interface>
      <interface name="org.freedesktop.DBus.Introspectable">
        <method name="Introspect">
          <arg name="xml_data" type="s" direction="out"/>
        </method>
      </interface>
      <interface name="org.freedesktop.DBus.Properties">
        <method name="Get">
          <arg name="interface_name" type="s" direction="in"/>
          <arg name="property_name" type="s" direction="in"/>
          <arg name="value" type="v" direction="out"/>
        </method>
        <method name="GetAll">
          <arg name="interface_name" type="s" direction="in"/>
          <arg name="props" type="a{sv}" direction="out"/>
        </method>
        <method name="Set">
          <arg name="interface_name" type="s" direction="in"/>
          <arg name="property_name" type="s" direction="in"/>
          <arg name="value" type="v" direction="in"/>
        </method>
        <signal name="PropertiesChanged">
          <arg name="interface_name" type="s"/>
          <arg name="changed_properties" type="a{sv}"/>
          <arg name="invalidated_properties" type="as"/>
        </signal>
      </interface>

    """

  /// The interfaces' introspection file: what `scripts/install` puts in
  /// `PREFIX/share/dbus-1/interfaces/org.tilt.Motion1.xml`.
  public static let document = doctype + "<node>\n" + managerXML + deviceXML + "</node>\n"

  /// What an object introspects as: its interface (none for a plain node),
  /// the standard ones, and its children.
  static func introspection(interface: String?, children: [String]) -> String {
    doctype + "<node>\n" + standardXML + (interface ?? "")
      + children.map { "  <node name=\"\($0)\"/>\n" }.joined() + "</node>\n"
  }
}
