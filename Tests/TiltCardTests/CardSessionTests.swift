import Attitude
import Foundation
import Testing

@testable import TiltCard

@Suite struct CardSessionTests {
  /// `BTN_TRIGGER` and `BTN_SOUTH`: the card is told its flip buttons.
  static let flipButtons: Set<UInt16> = [0x120, 0x130]

  typealias S = TestSupport

  /// Feeds samples at `hz` from `start` to `end` with a tilt given by `pitch(t)`.
  func feed(
    _ session: inout CardSession, from start: Double, to end: Double, hz: Double = 200,
    pitch: (Double) -> Double = { _ in 0 }
  ) -> [CardFrame] {
    var out: [CardFrame] = []
    var i = 0
    while true {
      let t = start + Double(i) / hz
      if t > end { break }
      out += session.receive(S.motion(at: t, pitch: pitch(t)))
      i += 1
    }
    return out
  }

  @Test func atRestOnlyTheFirstFrameIsEmitted() {
    var session = CardSession(configuration: CardConfiguration(), flipButtons: Self.flipButtons)
    let frames = feed(&session, from: 0, to: 5) + session.finish()
    #expect(frames.count == 1)
    #expect(frames.first?.t == 0)
    #expect(session.nextFrameTime == nil)
    #expect(session.nextWakeTime == nil)
  }

  @Test func tiltMotionMakesFramesOnThe60HzGrid() {
    var session = CardSession(configuration: CardConfiguration(), flipButtons: Self.flipButtons)
    let frames =
      feed(&session, from: 0, to: 2) { t in t < 1 ? 0.3 * t : 0.3 } + session.finish()
    // Moving for 1 s at 60 Hz: about 60 frames, then nothing.
    #expect(frames.count >= 55 && frames.count <= 62)
    for f in frames {
      let k = f.t * 60
      #expect(abs(k - k.rounded()) < 1e-9, "frame at \(f.t) is off the 60 Hz grid")
    }
    #expect(frames.last!.t <= 1.05)
    #expect(zip(frames, frames.dropFirst()).allSatisfy { $0.t < $1.t })
  }

  @Test func flipAnimatesAt60HzThenStops() {
    var session = CardSession(configuration: CardConfiguration(), flipButtons: Self.flipButtons)
    var frames = feed(&session, from: 0, to: 0.5)
    frames += session.buttonPressed(code: 0x130, at: 0.5)
    frames += feed(&session, from: 0.5 + 1.0 / 200, to: 4)
    frames += session.finish()
    let flipFrames = frames.filter { $0.t >= 0.5 }
    #expect(flipFrames.first.map { abs($0.t - 0.5) < 1e-9 } == true)
    #expect(flipFrames.last?.flipAngle == 180)
    #expect(flipFrames.last?.face == .back)
    // Consecutive frames one display interval apart while animating.
    for (a, b) in zip(flipFrames, flipFrames.dropFirst()) {
      #expect(abs(b.t - a.t - 1.0 / 60) < 1e-9)
    }
    // 0.7 s after the press: within 3° of 180.
    let at07 = flipFrames.first { abs($0.t - 1.2) < 1e-9 }!
    #expect(abs(at07.flipAngle - 180) < 3)
    #expect(flipFrames.last!.t < 3)
    #expect(session.nextFrameTime == nil)
  }

  @Test func onlyFlipButtonsFlip() {
    var session = CardSession(configuration: CardConfiguration(), flipButtons: Self.flipButtons)
    _ = session.buttonPressed(code: 0x131, at: 0.1)  // BTN_EAST
    #expect(!session.flipped)
    _ = session.buttonPressed(code: 0x120, at: 0.2)  // BTN_TRIGGER
    #expect(session.flipped)
    var config = CardConfiguration()
    config.flipTrigger = .none
    var quiet = CardSession(configuration: config, flipButtons: Self.flipButtons)
    _ = quiet.buttonPressed(code: 0x130, at: 0.1)
    #expect(!quiet.flipped)
    _ = quiet.perform(.flip, at: 0.2)
    #expect(quiet.flipped)
  }

  @Test func turnoverFlipsWithHysteresis() {
    var config = CardConfiguration()
    config.flipTrigger = .turnover
    var session = CardSession(configuration: config, flipButtons: Self.flipButtons)
    func roll(_ degrees: Double, at t: Double) {
      _ = session.receive(S.motion(at: t, roll: S.radians(degrees)))
    }
    roll(100, at: 0.1)  // z·z = cos 100° ≈ −0.17: not yet
    #expect(!session.flipped)
    roll(125, at: 0.2)  // −0.57: face down
    #expect(session.flipped)
    roll(100, at: 0.3)  // between the thresholds: holds
    #expect(session.flipped)
    roll(50, at: 0.4)  // +0.64: back up
    #expect(!session.flipped)
  }

  @Test func idleStopThenRestartOnButton() {
    var config = CardConfiguration()
    config.idleStop = 2
    var session = CardSession(configuration: config, flipButtons: Self.flipButtons)
    var frames = feed(&session, from: 0, to: 1) { t in 0.2 * t }
    frames += feed(&session, from: 1.005, to: 5) { _ in 0.2 }
    #expect(session.state == .stopped)
    #expect(session.shouldStopUpdates)
    #expect(session.stoppedForIdle)
    let stopped = frames.filter { $0.state == .stopped }
    #expect(stopped.count == 1, "one frame says stopped, then silence")
    // Last significant motion near 0.95 s (1° of attitude steps): stop ≈ 2 s later.
    #expect(stopped.first.map { $0.t > 2.5 && $0.t < 3.2 } == true)
    // While stopped, samples are ignored and nothing is emitted.
    let ignored = feed(&session, from: 5.005, to: 6) { _ in 0.5 }
    #expect(ignored.isEmpty)
    #expect(session.nextWakeTime == nil)
    let restart = session.buttonPressed(code: 0x13c, at: 6.5) + session.finish()
    #expect(session.state == .active)
    #expect(restart.contains { $0.state == .active })
    #expect(!session.flipped, "a non-flip button restarts without flipping")
  }

  @Test func keyStopsAndStartsUpdates() {
    var session = CardSession(configuration: CardConfiguration(), flipButtons: Self.flipButtons)
    var frames = session.perform(.toggleUpdates, at: 1)
    #expect(session.state == .stopped)
    frames += feed(&session, from: 1.1, to: 2) { _ in 0.4 }
    frames += session.perform(.toggleUpdates, at: 3)
    frames += session.finish()
    #expect(session.state == .active)
    #expect(frames.map(\.state) == [.active, .stopped, .active])
    #expect(frames.allSatisfy { $0.pose == .flat }, "samples while stopped are not taken in")
  }

  @Test func everySampleMakesOneFramePerSample() {
    var session = CardSession(
      configuration: CardConfiguration(), everySample: true, flipButtons: Self.flipButtons)
    let frames = feed(&session, from: 0, to: 1, hz: 100) + session.finish()
    #expect(frames.count == 101)
    #expect(frames.map(\.t) == frames.map(\.motion.timestamp))
  }

  @Test func sameInputsGiveTheSameFrames() {
    func script() -> [CardFrame] {
      var session = CardSession(configuration: CardConfiguration(), flipButtons: Self.flipButtons)
      var out = feed(&session, from: 0, to: 1, hz: 285.714) { t in 0.3 * sin(3 * t) }
      out += session.buttonPressed(code: 0x130, at: 1.01)
      out += feed(&session, from: 1.2, to: 1.4, hz: 285.714) { t in 0.1 }
      out += session.perform(.flip, at: 1.25)
      out += session.finish()
      return out
    }
    let a = script()
    #expect(a.count > 50)
    #expect(a == script())
  }

  /// Flip, flip again mid-turn, flip while tilted, tilted to ±maxTilt: the
  /// signed-area invariant and the face agree on every frame.
  @Test(arguments: CardConfiguration.FlipStyle.allCases)
  func scriptedFlipsKeepTheInvariant(style: CardConfiguration.FlipStyle) {
    var config = CardConfiguration()
    config.flipStyle = style
    var session = CardSession(configuration: config, flipButtons: Self.flipButtons)
    var frames = feed(&session, from: 0, to: 0.4) { t in 2 * t }
    frames += session.perform(.flip, at: 0.41)
    frames += feed(&session, from: 0.42, to: 0.6) { _ in -1.2 }
    frames += session.perform(.flip, at: 0.61)  // mid-turn: reverses
    frames += feed(&session, from: 0.62, to: 1.5) { t in 0.35 * sin(9 * t) }
    frames += session.perform(.flip, at: 1.51)
    frames += session.finish()
    #expect(frames.count > 60)
    for f in frames {
      let area = CardGeometry.signedArea(of: f.transform, width: 340, height: 220)
      #expect(area > 0, "t \(f.t): area \(area)")
      let front = CardGeometry.frontRotation(pose: f.pose, flipAngle: f.flipAngle).columns.2.z
      if abs(front) > 1e-3 { #expect((front > 0) == (f.face == .front), "t \(f.t)") }
    }
    // The reversal: no jump in angle between frames around 0.61 s.
    let around = frames.filter { $0.t > 0.55 && $0.t < 0.7 }
    for (a, b) in zip(around, around.dropFirst()) {
      #expect(abs(b.flipAngle - a.flipAngle) < 10)
    }
  }
}
