import Attitude
import Motion

/// A sample of an open device: its orientation (whoever holds it open, a
/// DSU client too), and for the service's claim a Motion signal to each
/// client whose interval has come.
extension MotionBusService {
  func observe(_ sample: HubMotion, of served: ServedDevice) {
    let motion = sample.motion
    served.latestAttitude = motion.attitude
    if served.orientation.update(acceleration: motion.userAcceleration - motion.gravity) {
      announce(served, rate: false)
    }
  }

  func deliver(_ sample: HubMotion, from served: ServedDevice) {
    let motion = sample.motion
    for claim in served.claims.values {
      let reference = claim.reference ?? motion.attitude
      claim.reference = reference
      guard claim.pacer.isDue(at: sample.timestampMicroseconds) else { continue }
      claim.signalsSent += 1
      send {
        try sendMotion(
          sample, attitude: motion.attitude.relative(to: reference).quaternion, to: claim.client,
          path: served.path)
      }
    }
  }

  /// `Motion(t, (dddd), (ddd), (ddd), (ddd))` to `client` alone. Kept out
  /// of line so that callgrind counts a signal's cost apart from the sample's.
  @inline(never)
  private func sendMotion(
    _ sample: HubMotion, attitude q: Quaternion, to client: String, path: String
  ) throws {
    let motion = sample.motion
    let g = motion.gravity
    let r = motion.rotationRate ?? Vector3(0, 0, 0)
    let u = motion.userAcceleration
    try bus.emit(
      path: path, interface: MotionInterface.deviceInterface, member: "Motion",
      destination: client
    ) { message in
      try message.append(sample.timestampMicroseconds)
      try message.appendStructure(q.x, q.y, q.z, w: q.w)
      try message.appendStructure(g.x, g.y, g.z)
      try message.appendStructure(r.x, r.y, r.z)
      try message.appendStructure(u.x, u.y, u.z)
    }
  }
}
