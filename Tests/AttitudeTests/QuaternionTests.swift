import Foundation
import Testing

@testable import Attitude

@Suite struct QuaternionTests {
  @Test(arguments: [90.0, -90.0])
  func pitchOfNinetyDegreesIsExactAndFinite(pitchDegrees: Double) {
    let a = Attitude(pitch: radians(pitchDegrees), roll: 0.3, yaw: -0.4)
    #expect(abs(degrees(a.pitch) - pitchDegrees) < 1e-6)
    #expect(a.roll.isFinite && a.yaw.isFinite)
    // Roll and yaw turn about the same axis there: what the getters return
    // must rebuild the same rotation.
    let rebuilt = Attitude(pitch: a.pitch, roll: a.roll, yaw: a.yaw)
    #expect(degrees(rebuilt.quaternion.angle(to: a.quaternion)) < 1e-4)
  }

  @Test(arguments: [Vector3(1, 0, 0), Vector3(0, 1, 0), Vector3(0, 0, 1), Vector3(1, -2, 0.5)])
  func halfTurnsComposeToIdentity(axis: Vector3) {
    let half = Quaternion(axis: axis, angle: .pi)
    let full = half * half
    #expect(degrees(full.angle(to: .identity)) < 1e-9)
    #expect(abs(degrees(half.angle(to: .identity)) - 180) < 1e-9)
    let v = Vector3(0.3, -0.7, 0.2)
    let axisUnit = axis.normalized!
    // A half turn keeps the axis component and flips the rest.
    let along = axisUnit * v.dot(axisUnit)
    #expect(half.rotate(v).isApproximatelyEqual(to: along * 2 - v, tolerance: 1e-12))
  }

  @Test func yawOfHalfTurnReadsPlusOrMinus180() {
    let a = Attitude(pitch: 0, roll: 0, yaw: .pi)
    #expect(abs(abs(degrees(a.yaw)) - 180) < 1e-9)
    #expect(abs(a.pitch) < 1e-12 && abs(a.roll) < 1e-12)
  }

  @Test(arguments: [
    (Vector3(0, 0, 1), Vector3(0, 0, 1)), (Vector3(1, 0, 0), Vector3(0, 1, 0)),
    (Vector3(0, 0, 1), Vector3(0, 0, -1)), (Vector3(1, 0, 0), Vector3(-1, 0, 0)),
    (Vector3(0.6, 0, 0.8), Vector3(0, -0.8, 0.6)),
  ])
  func rotatingOntoTakesOneVectorToTheOther(from: Vector3, to: Vector3) {
    let q = Quaternion(rotating: from, onto: to)
    #expect(abs(q.norm - 1) < 1e-12)
    #expect(q.rotate(from).isApproximatelyEqual(to: to, tolerance: 1e-12))
  }

  @Test(arguments: [1e-6, 1e-3, 0.04, 0.06, 1.0, 3.0])
  func gyroStepMatchesAxisAngle(angle: Double) {
    let rate = Vector3(0.2, -0.5, 0.9).normalized! * 7
    let dt = angle / 7
    let step = Quaternion(rotationRate: rate, interval: dt)
    let exact = Quaternion(rotationVector: rate * dt)
    #expect(abs(step.w - exact.w) < 1e-15 && abs(step.x - exact.x) < 1e-15)
    #expect(abs(step.y - exact.y) < 1e-15 && abs(step.z - exact.z) < 1e-15)
  }

  /// The fusion's rows of its rotation skip the products with the unit
  /// vector's zeros: the result must still be `rotate`'s to the bit, signed
  /// zeros and subnormal components included.
  @Test func rotatedAxesAreRotateBitForBit() {
    let tiny = Double.leastNonzeroMagnitude
    let special: [Double] = [0, -0.0, 1, -1, 0.5, -0.5, 1e-300, -1e-300, tiny, -tiny]
    var generator = SeededGenerator(seed: 7)
    var quaternions: [Quaternion] = []
    for w in special {
      for x in special {
        for y in special {
          for z in special { quaternions.append(Quaternion(w: w, x: x, y: y, z: z)) }
        }
      }
    }
    for _ in 0..<20000 {
      func component() -> Double {
        Bool.random(using: &generator)
          ? Double.random(in: -1...1, using: &generator)
          : special.randomElement(using: &generator)!
      }
      let q = Quaternion(w: component(), x: component(), y: component(), z: component())
      quaternions.append(q.normalized)
      quaternions.append(q)
    }
    func bits(_ v: Vector3) -> [UInt64] { [v.x.bitPattern, v.y.bitPattern, v.z.bitPattern] }
    for q in quaternions {
      #expect(bits(q.rotatedXAxis()) == bits(q.rotate(Vector3(1, 0, 0))), "\(q)")
      #expect(bits(q.rotatedYAxis()) == bits(q.rotate(Vector3(0, 1, 0))), "\(q)")
    }
  }

  @Test func rotationVectorRoundTrips() {
    let v = Vector3(0.4, -1.1, 2.0)
    #expect(
      Quaternion(rotationVector: v).rotationVector.isApproximatelyEqual(to: v, tolerance: 1e-12))
    #expect(Quaternion.identity.rotationVector == .zero)
  }

  @Test func slerpEndsAndMiddle() {
    let a = Quaternion(axis: Vector3(0, 0, 1), angle: 0.2)
    let b = Quaternion(axis: Vector3(0, 0, 1), angle: 1.4)
    #expect(degrees(a.slerp(to: b, t: 0).angle(to: a)) < 1e-9)
    #expect(degrees(a.slerp(to: b, t: 1).angle(to: b)) < 1e-6)
    let mid = a.slerp(to: b, t: 0.5)
    #expect(degrees(mid.angle(to: Quaternion(axis: Vector3(0, 0, 1), angle: 0.8))) < 1e-9)
    // −b is the same rotation: slerp takes the short way.
    let negB = Quaternion(w: -b.w, x: -b.x, y: -b.y, z: -b.z)
    #expect(degrees(a.slerp(to: negB, t: 0.5).angle(to: mid)) < 1e-9)
  }

  @Test func upVectorIsThirdRowOfTheMatrix() {
    let q = Attitude(pitch: 0.5, roll: -1.0, yaw: 2.0).quaternion
    let m = q.rotationMatrix
    #expect(q.upVector.isApproximatelyEqual(to: Vector3(m.m31, m.m32, m.m33), tolerance: 1e-15))
  }

  @Test func nonFiniteInputsAreRecognised() {
    #expect(Vector3(.nan, 0, 0).normalized == nil)
    #expect(Vector3(.infinity, 0, 0).normalized == nil)
    #expect(Vector3.zero.normalized == nil)
    #expect(!MotionSample(time: .nan, acceleration: Vector3(0, 0, 1)).isFinite)
    #expect(
      !MotionSample(time: 0, acceleration: Vector3(0, 0, 1), rotationRate: Vector3(0, .nan, 0))
        .isFinite)
    #expect(Quaternion(w: .nan, x: 0, y: 0, z: 0).normalized == .identity)
  }
}
