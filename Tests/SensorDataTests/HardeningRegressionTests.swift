import Foundation
import Testing

@testable import SensorData

/// Inputs that once broke a parser, kept with their exact bytes so the fix
/// stays. Each names how it was found (a fuzz target's invariant, or review
/// while writing one) and what went wrong before the fix.
@Suite struct HardeningRegressionTests {
  /// CSV reader: `t_s` was only required to be finite, so a first time of
  /// -1e308 and a second of 1e308 gave a sample time of +inf (their
  /// difference overflows), breaking the fuzz target's "finite, non-decreasing
  /// times" invariant and any filter step downstream. Found while writing
  /// that invariant. Now times beyond ±10¹² s are refused.
  @Test func csvTimesWhoseDifferenceOverflows() throws {
    let path = TestData.file(
      "t_s,acc_x_g,acc_y_g,acc_z_g\n-1e308,0,0,1\n1e308,0,0,1\n", name: "overflow.csv")
    let error = #expect(throws: RecordingError.self) {
      let reader = try CSVMotionReader(path: path)
      while let sample = try reader.nextSample() {
        #expect(sample.time.isFinite)
      }
    }
    #expect(error?.kind == .outOfRange)
    #expect(error?.line == 2)
    #expect(error?.message.contains("t_s is -1e+308, beyond ±1000000000000") == true)
  }

  /// CSV reader: an acceleration of 1e300 g was accepted; its square is
  /// infinite, so any norm taken downstream became inf or NaN. Readings
  /// beyond ±10⁹ are now refused.
  @Test func csvReadingWhoseSquareOverflows() throws {
    let path = TestData.file(
      "t_s,acc_x_m_s2,acc_y_m_s2,acc_z_m_s2\n0,0,0,9.8\n0.01,0,0,-1e300\n", name: "huge.csv")
    // Checked before the first row is handed out (contract §3.4): the error comes at once.
    let error = #expect(throws: RecordingError.self) { _ = try CSVMotionReader(path: path) }
    #expect(error?.kind == .outOfRange)
    #expect(
      error?.description.hasSuffix(
        ":3: acc_z_m_s2 is -1e+300, beyond ±1000000000; the row is corrupt, remove or fix it")
        == true)
  }

  /// Evemu reader: an `A:` line with minimum above maximum was read as is;
  /// the kernel (uinput) refuses such an axis, so `evemu-device` cannot
  /// replay the file, and ranges computed from it are negative. Now refused
  /// with the file and line.
  @Test func evemuAxisWithMinimumAboveMaximum() throws {
    let path = TestData.file(
      "N: T\nI: 0003 0000 0000 0000\nA: 02 100 -100 0 0 0\nE: 0.000001 0000 0000 0\n")
    let error = #expect(throws: RecordingError.self) { _ = try EvemuReader(path: path) }
    #expect(
      error?.description
        == "\(path):3: A: axis ABS_Z has minimum 100 above maximum -100; the kernel refuses such an axis, so the file is corrupt"
    )
  }

  /// Equal minimum and maximum is what evemu writes for an axis without
  /// absinfo: it must still be read (classification then calls it unusable).
  @Test func evemuAxisWithEqualMinimumAndMaximumIsRead() throws {
    let path = TestData.file("N: T\nI: 0003 0000 0000 0000\nA: 02 0 0 0 0 0\n")
    let reader = try EvemuReader(path: path)
    #expect(reader.info.absInfo[AbsCode.z]?.minimum == 0)
    #expect(reader.info.absInfo[AbsCode.z]?.maximum == 0)
  }
}
