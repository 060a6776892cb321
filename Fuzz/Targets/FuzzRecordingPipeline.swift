import Evdev
import Motion
import SensorData
import Tilt
import TiltCard

/// libFuzzer target: any bytes as a recording, through the whole path a
/// replay and `info` take: the reader (evemu or CSV, as `Recording`
/// tells them apart), the classifier, the decoder and its sample clock
/// (`MSC_TIMESTAMP` unwrapping, the rate cross-check), `info`'s rate probe,
/// then the motion manager and the card session to the frames a sink gets.
///
/// Besides "no trap, no hang, bounded memory": errors name the file; frames
/// hold at most `EvemuReader.maximumFrameEvents` events; decoded sample times
/// are finite and never decrease; every card frame has a finite time that
/// never decreases, a finite transform and quaternion, and its visible face
/// projects with a positive signed area (contract §4.2's invariant).
nonisolated(unsafe) private let input = FuzzInputFile(name: "fuzz-pipeline")

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRecordingPipeline(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  input.write(fuzzBytes(data, size))
  let isCSV = Recording.looksLikeCSV(input.path)
  if !isCSV { probeAndDecode() }
  replay()
  return 0
}

/// `info`'s path: frames into the rate probe and the decoder.
private func probeAndDecode() {
  do {
    let reader = try EvemuReader(path: input.path)
    let profile = DeviceProfile.classify(reader.info)
    var decoder = SampleDecoder(profile: profile)
    var probe = RateProbe()
    var last = -Double.infinity
    while let frame = try reader.nextFrame() {
      precondition(frame.events.count <= EvemuReader.maximumFrameEvents, "frame too long")
      probe.add(frame)
      if let sample = decoder.decode(frame) {
        precondition(sample.time.isFinite && sample.time >= last, "sample time \(sample.time)")
        last = sample.time
        if let a = sample.acceleration {
          precondition(a.x.isFinite && a.y.isFinite && a.z.isFinite, "acceleration \(a)")
        }
      }
    }
    let report = probe.report
    if let rate = report.rateHz { precondition(rate.isFinite && rate > 0, "rate \(rate)") }
    _ = decoder.timestampRate
  } catch {
    precondition(error.file == input.path, "error does not name the file: \(error)")
    precondition(!error.message.isEmpty, "error without a message")
  }
}

/// `replay --speed max`'s path: the source through the pipeline to frames.
private func replay() {
  let configuration = TiltConfiguration()
  let source: any MotionSource
  do {
    source = try Recording.open(path: input.path, configuration: configuration)
  } catch {
    precondition(!"\(error)".isEmpty, "error without a message")
    return
  }
  let card = configuration.card
  var lastTime = -Double.infinity
  let sink = FrameHandlerSink { frames in
    for frame in frames {
      precondition(
        frame.t.isFinite && frame.t >= lastTime, "frame time \(frame.t) after \(lastTime)")
      lastTime = frame.t
      for i in 0..<16 { precondition(frame.transform.elements[i].isFinite, "transform not finite") }
      let q = frame.motion.attitude.quaternion
      precondition(q.w.isFinite && q.x.isFinite && q.y.isFinite && q.z.isFinite, "quaternion")
      let area = CardGeometry.signedArea(
        of: frame.transform, width: card.width, height: card.height)
      precondition(area > 0, "visible face mirrored or behind the viewer: area \(area)")
    }
  }
  let pipeline = TiltPipeline(
    configuration: configuration, hasGyroscope: source.capabilities.hasGyroscope,
    buttons: source.capabilities.keyCodes,
    sink: sink)
  do {
    let player = try TiltMotionManager(
      device: RecordingDevice(source, speed: nil, path: input.path), pipeline: pipeline)
    try player.run(endingOn: [])
  } catch let error as RecordingError {
    precondition(error.file == input.path, "error does not name the file: \(error)")
  } catch {
    precondition(!"\(error)".isEmpty, "error without a message")
  }
}
