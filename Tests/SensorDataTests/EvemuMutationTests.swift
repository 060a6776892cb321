import Foundation
import TestTools
import Testing

@testable import SensorData

/// Seeded random damage to good files: every reader must either read the
/// file or throw its error with a line number, never crash or hang.
@Suite struct EvemuMutationTests {

  static let alphabet = Array(" \t\n#:.,-+0123456789abcdefxEABNIPLS\u{0}".utf8) + [0xFF, 0xC3]

  static func mutate(_ bytes: [UInt8], _ rng: inout SeededGenerator) -> [UInt8] {
    var out = bytes
    for _ in 0..<Int.random(in: 1...6, using: &rng) {
      guard !out.isEmpty else { break }
      let at = Int.random(in: 0..<out.count, using: &rng)
      switch Int.random(in: 0..<4, using: &rng) {
      case 0: out[at] = alphabet.randomElement(using: &rng)!
      case 1: out.remove(at: at)
      case 2: out.insert(alphabet.randomElement(using: &rng)!, at: at)
      default: out.removeSubrange(at..<min(out.count, at + Int.random(in: 1...40, using: &rng)))
      }
    }
    return out
  }

  @Test func damagedEvemuFilesNeverCrash() throws {
    let lines = DemoRecording.text.split(separator: "\n", omittingEmptySubsequences: false)
    let seed = Array((lines.prefix(140).joined(separator: "\n") + "\n").utf8)
    var rng = SeededGenerator(seed: 42)
    var read = 0
    var refused = 0
    for _ in 0..<400 {
      let path = TestData.file(bytes: Self.mutate(seed, &rng))
      do throws(RecordingError) {
        let reader = try EvemuReader(path: path)
        var decoder = SampleDecoder(profile: .classify(reader.info))
        while let frame = try reader.nextFrame() { _ = decoder.decode(frame) }
        read += 1
      } catch {
        #expect(error.line >= 0)
        #expect(error.description.hasPrefix(path))
        refused += 1
      }
    }
    #expect(read + refused == 400)
    #expect(read > 0 && refused > 0)
  }

  @Test func damagedCSVLogsNeverCrash() throws {
    var text =
      "t_s,acc_x_m_s2,acc_y_m_s2,acc_z_m_s2,gyr_x_deg_s,gyr_y_deg_s,gyr_z_deg_s,opt_qw,opt_qx,opt_qy,opt_qz\n"
    for i in 0..<40 { text += "\(Double(i) * 0.01),0.1,-0.2,9.8,1,2,3,1,0,0,nan\n" }
    let seed = Array(text.utf8)
    var rng = SeededGenerator(seed: 7)
    var refused = 0
    for _ in 0..<300 {
      let path = TestData.file(bytes: Self.mutate(seed, &rng), name: "m.csv")
      do throws(RecordingError) {
        let reader = try CSVMotionReader(path: path)
        while let row = try reader.nextSample() {
          #expect(row.time.isFinite && row.time >= 0)
          #expect(row.acceleration.x.isFinite && row.acceleration.z.isFinite)
        }
      } catch {
        #expect(error.description.hasPrefix(path))
        refused += 1
      }
    }
    #expect(refused > 0)
  }

  @Test func randomMountMatrixTextNeverCrashes() {
    var rng = SeededGenerator(seed: 99)
    let seed = Array("1, 0, 0; 0, -1, 0; 0, 0, 1".utf8)
    for _ in 0..<500 {
      let text = String(decoding: Self.mutate(seed, &rng), as: UTF8.self)
      if let m = try? MountMatrix(parsing: text) {
        #expect(m.rows.allSatisfy { $0.x.isFinite && $0.y.isFinite && $0.z.isFinite })
      }
    }
  }
}
