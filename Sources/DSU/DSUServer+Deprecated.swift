import Motion

/// What a DSU server serves, before 0.4.0: the hub's selection.
@available(*, deprecated, renamed: "DeviceHub.Selection")
public typealias DSUServerSource = DeviceHub.Selection

extension DSUServer {
  /// The server's initializer before 0.4.0, whose selection was its `source`.
  @available(
    *, deprecated, renamed: "init(host:port:allowList:selection:deviceConfiguration:serverID:)"
  )
  public convenience init(
    host: String, port: UInt16, allowList: AllowList, source: DeviceHub.Selection,
    deviceConfiguration: DeviceMotionConfiguration = .init(),
    serverID: UInt32 = .random(in: 1...UInt32.max)
  ) throws {
    try self.init(
      host: host, port: port, allowList: allowList, selection: source,
      deviceConfiguration: deviceConfiguration, serverID: serverID)
  }
}
