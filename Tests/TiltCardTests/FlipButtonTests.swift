import Testing

@testable import TiltCard

/// The card flips on the buttons it is told (the device layer's primary
/// buttons, `Buttons.primary(among:)` in SensorData) and on no other.
@Suite struct FlipButtonTests {
  @Test func aSessionFlipsOnItsFlipButtonsOnly() {
    var session = CardSession(
      configuration: CardConfiguration(),
      flipButtons: [0x222])  // a left Joy-Con's primary button, BTN_DPAD_LEFT
    _ = session.buttonPressed(code: 0x136, at: 0.1)  // L
    #expect(!session.flipped)
    _ = session.buttonPressed(code: 0x130, at: 0.2)  // not on this device
    #expect(!session.flipped)
    _ = session.buttonPressed(code: 0x222, at: 0.3)  // D-pad Left
    #expect(session.flipped)
    let frames = session.finish()
    #expect(frames.last?.flipAngle == 180)
  }

  /// The card knows no key codes of its own: told no flip buttons, no
  /// button flips it.
  @Test func aSessionToldNoFlipButtonsFlipsOnNone() {
    var session = CardSession(configuration: CardConfiguration())
    for (index, code) in [UInt16(0x120), 0x130, 0x222].enumerated() {
      _ = session.buttonPressed(code: code, at: 0.1 * Double(index + 1))
      #expect(!session.flipped)
    }
  }

  /// Any button, flip button or not, restarts stopped updates.
  @Test func anyButtonStillRestartsUpdates() {
    var session = CardSession(configuration: CardConfiguration(), flipButtons: [0x222])
    _ = session.perform(.stopUpdates, at: 0.1)
    #expect(session.state == .stopped)
    _ = session.buttonPressed(code: 0x136, at: 0.2)
    #expect(session.state == .active)
    #expect(!session.flipped)
  }
}
