import Attitude
import CallgrindControl
import Foundation
import MallocCounter
import MotionSimulator

// Runs this project's estimators on BROAD trials and prints one JSON object
// per trial: inclination RMSE (degrees) of fusion, accelerometer-only and the
// plain low-pass τ = 0.103 s, the fusion's cost per sample (ns, median of
// passes) and the allocations counted in the timed loops.
//
// usage: AttitudeBench [--passes N] [--set NAME=VALUE] [--accuracy-only]
//                     [--orientations PREFIX] [--profile] CSV...
//        AttitudeBench --simulate DIR [--seeds 1,2,...] [--without-accelerometer-bias]
//        AttitudeBench --simulate-adversarial DIR [--seeds 1,2,...]
//        AttitudeBench --defaults      (the tunable constants' defaults, JSON)
//
// --simulate writes each case of the simulated stress suite (MotionSimulator's
// StressSuite) for each seed as a BROAD-format CSV, DIR/sim_CASE_sSEED.csv, and
// prints their paths: the same samples that VQF is then run on. With
// --without-accelerometer-bias each reading is written less its recording's
// simulated accelerometer bias (a clipped axis kept at the range): what an
// estimator would do with that bias known exactly (docs/bench-attitude.md,
// fifth session).
// --simulate-adversarial does the same for MotionSimulator's AdversarialCases
// (cases made to break the fusion, outside the suite), as DIR/adv_CASE_sSEED.csv.
// Beside each CSV: DIR/..._sSEED.range (the accelerometer's and gyroscope's
// ranges) and DIR/..._sSEED.bias (the simulated gyroscope bias, °/s, card
// x y z, before any step).
//
// --errors PREFIX writes PREFIX-TRIAL.csv per trial: per sample with a ground
// truth, the inclination error (°), the bias estimate (°/s), √d² of the time
// constant's law (drift_deg_s: the bias error the covariance expects along the
// two observed rows, °/s) and the motion time constant (tau_s, s).
//
// --profile reads the trials, then runs only the fusion (--profile-accel: the
// accelerometer-only estimator) over each of them once, with callgrind's
// instrumentation on just for that loop:
//   valgrind --tool=callgrind --instr-atstart=no AttitudeBench --profile CSV...
// and prints the sample count, to divide the instruction count by.

var passes = 9
var paths: [String] = []
var parameters = FusionParameters()
/// Where to write the fusion's per-sample inclination error (t_s, degrees), for diagnosis.
var errorsPath: String?
/// Where to write every fusion output (time, quaternion w x y z, bias x y z), one line a
/// sample, to check that a change to the fusion leaves its results bit-identical.
var orientationsPath: String?
/// Only the RMSEs: no timing, no allocation counts (for parameter searches).
var accuracyOnly = false
/// Run the fusion once over each trial under callgrind and nothing else.
var profile = false
/// With --profile: run the accelerometer-only estimator instead of the fusion.
var profileAccelerometer = false
/// A file of parameter sets, one a line (`NAME=VALUE NAME=VALUE …`): prints
/// the RMSEs of every set on every trial, reading the trials once.
var gridPath: String?
/// With --grid: run only this estimator ("fusion" or "accel"); the other's RMSE is printed as -1.
var only: String?
/// Where to write the simulated stress suite's recordings, and for which seeds.
var simulateDirectory: String?
var seeds: [UInt64] = [1]
var simulatedCases = StressSuite.cases
var simulatedPrefix = "sim"
/// With --simulate: the readings less the simulated accelerometer bias (a diagnosis of
/// what that bias costs; the suite's recordings keep it).
var withoutAccelerometerBias = false
let tunable: [String: WritableKeyPath<FusionParameters, Double>] = [
  "accelerometerTimeConstant": \.accelerometerTimeConstant,
  "motionBiasTimeConstant": \.motionBiasTimeConstant,
  "correctionInterval": \.correctionInterval,
  "tiltTimeConstant": \.tiltTimeConstant,
  "tiltDisturbanceScale": \.tiltDisturbanceScale,
  "tiltMaximumTimeConstant": \.tiltMaximumTimeConstant,
  "tiltDisturbanceTimeConstant": \.tiltDisturbanceTimeConstant,
  "restMinimumDuration": \.restMinimumDuration,
  "initialRestMinimumDuration": \.initialRestMinimumDuration,
  "restBiasGate": \.restBiasGate,
  "restGyroscopeNoise": \.restGyroscopeNoise,
  "biasRandomWalk": \.biasRandomWalk,
  "restGyroscopeThreshold": \.restGyroscopeThreshold,
  "restAccelerometerThreshold": \.restAccelerometerThreshold,
  "motionBiasNoise": \.motionBiasNoise,
  "restAccelerometerTimeConstant": \.restAccelerometerTimeConstant,
  "maximumBias": \.maximumBias,
  "shockScale": \.shockScale,
  "restDisagreementScale": \.restDisagreementScale,
  "gyroscopeScaleError": \.gyroscopeScaleError,
  "usageTimeConstant": \.usageTimeConstant,
  "restingRotationRate": \.restingRotationRate,
  "minimumAccelerometerTimeConstant": \.minimumAccelerometerTimeConstant,
  "maximumAccelerometerTimeConstant": \.maximumAccelerometerTimeConstant,
  "translationFilterTimeConstant": \.translationFilterTimeConstant,
  "tiltNormSmoothing": \.tiltNormSmoothing,
  "tiltShockScale": \.tiltShockScale,
  "tiltSpeedTimeConstant": \.tiltSpeedTimeConstant,
  "tiltTranslationRatio": \.tiltTranslationRatio,
  "clippedHoldTime": \.clippedHoldTime,
  "restFilterTimeConstant": \.restFilterTimeConstant,
  "maximumStep": \.maximumStep,
  "saturationDirectionStep": \.saturationDirectionStep,
  "saturationVisibleShare": \.saturationVisibleShare,
  "saturationOnset": \.saturationOnset,
]
@MainActor func set(_ assignment: Substring, in parameters: inout FusionParameters) {
  let parts = assignment.split(separator: "=").map(String.init)
  if parts.count == 2, parts[0] == "usableMinimum", let value = Double(parts[1]) {
    parameters.usableAccelerationRange = value...parameters.usableAccelerationRange.upperBound
    return
  }
  guard parts.count == 2, let key = tunable[parts[0]], let value = Double(parts[1]) else {
    fail("cannot set \(assignment): expected NAME=VALUE with a name from --defaults", status: 64)
  }
  parameters[keyPath: key] = value
}

let usage = """
  usage: AttitudeBench [--passes N] [--set NAME=VALUE] [--accuracy-only] [--errors PREFIX]
                       [--orientations PREFIX] [--profile | --profile-accel] [--grid FILE [--only fusion|accel]]
                       CSV...
         AttitudeBench --simulate DIR [--seeds 1,2,...] [--without-accelerometer-bias]
         AttitudeBench --simulate-adversarial DIR [--seeds 1,2,...]
         AttitudeBench --defaults      (the tunable constants' defaults, JSON)
  """

/// Prints `message` to standard error after the program's name and exits.
func fail(_ message: String, status: Int32 = 1) -> Never {
  FileHandle.standardError.write("AttitudeBench: \(message)\n".data(using: .utf8)!)
  exit(status)
}

/// The trials named on the command line; a file that cannot be read ends the run, named.
func readTrials(_ paths: [String]) -> [BroadTrial] {
  do {
    return try paths.map { try BroadTrial(contentsOf: URL(fileURLWithPath: $0)) }
  } catch {
    fail("\(error)")
  }
}

var arguments = CommandLine.arguments.dropFirst().makeIterator()
while let a = arguments.next() {
  if a == "--passes", let n = arguments.next().flatMap(Int.init) {
    passes = n
  } else if a == "--set", let assignment = arguments.next() {
    // --set name=value overrides one of the FusionParameters, for tuning.
    set(Substring(assignment), in: &parameters)
  } else if a == "--grid", let path = arguments.next() {
    gridPath = path
  } else if a == "--only", let which = arguments.next() {
    only = which
  } else if a == "--simulate", let directory = arguments.next() {
    simulateDirectory = directory
  } else if a == "--simulate-adversarial", let directory = arguments.next() {
    simulateDirectory = directory
    simulatedCases = AdversarialCases.cases
    simulatedPrefix = "adv"
  } else if a == "--without-accelerometer-bias" {
    withoutAccelerometerBias = true
  } else if a == "--seeds", let list = arguments.next() {
    seeds = list.split(separator: ",").compactMap { UInt64($0) }
  } else if a == "--defaults" {
    // The tunable constants' defaults, one JSON object (for Benchmarks/sensitivity.py).
    // Python's json reads Infinity (an adaptation that is off).
    let values = tunable.keys.sorted().map { name -> String in
      let value = parameters[keyPath: tunable[name]!]
      return "\"\(name)\": \(value.isFinite ? String(value) : "Infinity")"
    }
    print("{" + values.joined(separator: ", ") + "}")
    exit(0)
  } else if a == "--profile" {
    profile = true
  } else if a == "--profile-accel" {
    profile = true
    profileAccelerometer = true
  } else if a == "--accuracy-only" {
    accuracyOnly = true
  } else if a == "--errors", let path = arguments.next() {
    errorsPath = path
  } else if a == "--orientations", let path = arguments.next() {
    orientationsPath = path
  } else if a == "--usable-max", let value = arguments.next().flatMap(Double.init) {
    parameters.usableAccelerationRange = parameters.usableAccelerationRange.lowerBound...value
  } else if a == "--help" || a == "-h" {
    print(usage)
    exit(0)
  } else if a.hasPrefix("-") {
    fail("unknown option \(a), or its value is missing\n\(usage)", status: 64)
  } else {
    paths.append(a)
  }
}
if let simulateDirectory {
  for seed in seeds {
    for stressCase in simulatedCases {
      var recording = stressCase.recording(seed: seed)
      if withoutAccelerometerBias { recording = recording.withoutAccelerometerBias() }
      let path = "\(simulateDirectory)/\(simulatedPrefix)_\(stressCase.name)_s\(seed).csv"
      do {
        try recording.broadCSV().write(toFile: path, atomically: true, encoding: .utf8)
      } catch {
        FileHandle.standardError.write(
          "AttitudeBench: \(path): cannot write: \(error)\n".data(using: .utf8)!)
        exit(1)
      }
      // The device description's part the fusion uses: the accelerometer's
      // range, g, and the gyroscope's, rad/s (VQF cannot take them).
      let rangePath = "\(simulateDirectory)/\(simulatedPrefix)_\(stressCase.name)_s\(seed).range"
      try? "\(recording.sensor.accelerometerRange) \(recording.sensor.gyroscopeRange)\n".write(
        toFile: rangePath, atomically: true, encoding: .utf8)
      let b = recording.sensor.gyroscopeBias * (180 / .pi)
      try? "\(b.x) \(b.y) \(b.z)\n".write(
        toFile: rangePath.dropLast(6) + ".bias", atomically: true, encoding: .utf8)
      print(path)
    }
  }
  exit(0)
}
if paths.isEmpty {
  fail("no trial given\n\(usage)", status: 64)
}

func upVectors<E: AttitudeEstimator>(_ estimator: inout E, _ samples: [MotionSample]) -> [Vector3] {
  var ups = [Vector3](repeating: Vector3(0, 0, 1), count: samples.count)
  var last = Vector3(0, 0, 1)
  for i in samples.indices {
    if let e = estimator.update(samples[i]) { last = e.orientation.upVector }
    ups[i] = last
  }
  return ups
}

/// The classic tilt-card filter as a time constant: low-pass of the raw accelerometer vector.
func plainLowPassUp(_ samples: [MotionSample], tau: Double) -> [Vector3] {
  var state = samples.first?.acceleration ?? Vector3(0, 0, 1)
  var lastTime = samples.first?.time ?? 0
  return samples.map { s in
    let alpha = 1 - exp(-(s.time - lastTime) / tau)
    lastTime = s.time
    state += alpha * (s.acceleration - state)
    return state.normalized ?? Vector3(0, 0, 1)
  }
}

func nanoseconds() -> UInt64 {
  var ts = timespec()
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
  return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
}

/// Median ns/sample of the fusion over the whole trial, and the number of
/// allocations made inside all timed loops together.
@MainActor func timeFusion(_ samples: [MotionSample], passes: Int) -> (Double, UInt) {
  var costs: [Double] = []
  costs.reserveCapacity(passes)
  var sink = 0.0
  var allocations: UInt = 0
  for _ in 0..<passes {
    var fusion = GyroAccelFusion(parameters: parameters)
    let before = malloc_counter_count()
    let start = nanoseconds()
    samples.withUnsafeBufferPointer { buffer in
      for s in buffer {
        if let e = fusion.update(s) { sink += e.orientation.w }
      }
    }
    let end = nanoseconds()
    allocations += UInt(malloc_counter_count() - before)
    costs.append(Double(end - start) / Double(samples.count))
  }
  if sink == 42 { print("") }  // keeps the loop's work observable
  costs.sort()
  return (costs[costs.count / 2], allocations)
}

/// The loop callgrind counts, alone: the fusion (or the accelerometer-only
/// estimator) over one trial's samples. A function of its own, not top-level
/// code, so that nothing of the main actor's globals enters the loop.
func profiledRun(_ samples: [MotionSample], parameters: FusionParameters, accelerometerOnly: Bool)
  -> Double
{
  var sink = 0.0
  var fusion = GyroAccelFusion(parameters: parameters)
  var tilt = AccelerometerTiltEstimator(parameters: parameters)
  callgrind_start_instrumentation()
  samples.withUnsafeBufferPointer { buffer in
    if accelerometerOnly {
      for s in buffer {
        if let e = tilt.update(s) { sink += e.orientation.w }
      }
    } else {
      for s in buffer {
        if let e = fusion.update(s) { sink += e.orientation.w }
      }
    }
  }
  callgrind_stop_instrumentation()
  return sink
}

if profile {
  let trials = readTrials(paths)
  var sink = 0.0
  var count = 0
  for trial in trials {
    sink += profiledRun(
      trial.samples, parameters: parameters, accelerometerOnly: profileAccelerometer)
    count += trial.samples.count
  }
  print("{\"profiled_samples\": \(count), \"sink\": \(sink)}")
  exit(0)
}

if let gridPath {
  guard let text = try? String(contentsOfFile: gridPath, encoding: .utf8) else {
    fail("\(gridPath): cannot read the grid (one parameter set a line, NAME=VALUE …)")
  }
  let sets = text.split(separator: "\n")
  let trials = readTrials(paths)
  for line in sets {
    var p = parameters
    for assignment in line.split(separator: " ") where assignment != "defaults" {
      set(assignment, in: &p)
    }
    for trial in trials {
      var p = p
      if let range = trial.accelerometerRange { p.accelerometerRange = range }
      if let range = trial.gyroscopeRange { p.gyroscopeRange = range }
      var fusion = GyroAccelFusion(parameters: p)
      var tilt = AccelerometerTiltEstimator(parameters: p)
      let fusionUp = only == "accel" ? [] : upVectors(&fusion, trial.samples)
      let fusionRMSE = only == "accel" ? -1 : trial.inclinationRMSE(estimatedUp: fusionUp)
      let fusionWindows =
        only == "accel" ? [] : trial.inclinationWindows(estimatedUp: fusionUp)
      let accelRMSE =
        only == "fusion" ? -1 : trial.inclinationRMSE(estimatedUp: upVectors(&tilt, trial.samples))
      print(
        """
        {"set": "\(line)", "trial": "\(trial.name)", "fusion_rmse_deg": \(fusionRMSE), \
        "accel_rmse_deg": \(accelRMSE), \
        "fusion_windows_deg": [\(fusionWindows.map { String($0) }.joined(separator: ", "))]}
        """)
    }
  }
  exit(0)
}

// Reading a CSV allocates: if the counter saw none, it is not interposed and
// "0 allocations" below would mean nothing.
let allocationsBeforeReading = malloc_counter_count()
for path in paths {
  let trial: BroadTrial
  do {
    trial = try BroadTrial(contentsOf: URL(fileURLWithPath: path))
  } catch {
    FileHandle.standardError.write("AttitudeBench: \(error)\n".data(using: .utf8)!)
    exit(1)
  }
  var parameters = parameters
  if let range = trial.accelerometerRange { parameters.accelerometerRange = range }
  if let range = trial.gyroscopeRange { parameters.gyroscopeRange = range }
  var fusion = GyroAccelFusion(parameters: parameters)
  let fusionUp = upVectors(&fusion, trial.samples)
  let fusionRMSE = trial.inclinationRMSE(estimatedUp: fusionUp)
  let fusionWindows = trial.inclinationWindows(estimatedUp: fusionUp)
    .map { String($0) }.joined(separator: ", ")
  if let errorsPath {
    var text = "t_s,error_deg,scored,bias_x_deg_s,bias_y_deg_s,bias_z_deg_s,drift_deg_s,tau_s\n"
    var rerun = GyroAccelFusion(parameters: parameters)
    for i in trial.samples.indices {
      _ = rerun.update(trial.samples[i])
      guard let truth = trial.trueUp[i] else { continue }
      let e = fusionUp[i]
      let angle = atan2(e.cross(truth).length, e.dot(truth)) * 180 / .pi
      let b = rerun.bias * (180 / .pi)
      text +=
        "\(trial.samples[i].time),\(angle),\(trial.scored[i] ? 1 : 0),\(b.x),\(b.y),\(b.z),\(rerun.expectedBiasDrift * 180 / .pi),\(rerun.motionTimeConstant)\n"
    }
    try? text.write(
      toFile: errorsPath + "-" + trial.name + ".csv", atomically: true, encoding: .utf8)
  }
  if let orientationsPath {
    // Double's description round-trips exactly, so equal files mean bit-identical outputs.
    var text = ""
    var rerun = GyroAccelFusion(parameters: parameters)
    for s in trial.samples {
      guard let e = rerun.update(s) else { continue }
      let q = e.orientation
      let b = rerun.bias
      text += "\(s.time) \(q.w) \(q.x) \(q.y) \(q.z) \(b.x) \(b.y) \(b.z)\n"
    }
    try? text.write(
      toFile: orientationsPath + "-" + trial.name + ".txt", atomically: true, encoding: .utf8)
  }
  var tilt = AccelerometerTiltEstimator(parameters: parameters)
  let accelRMSE = trial.inclinationRMSE(estimatedUp: upVectors(&tilt, trial.samples))
  let lowPassRMSE = trial.inclinationRMSE(estimatedUp: plainLowPassUp(trial.samples, tau: 0.103))
  if accuracyOnly {
    print(
      """
      {"trial": "\(trial.name)", "fusion_rmse_deg": \(fusionRMSE), \
      "accel_rmse_deg": \(accelRMSE), "lowpass_rmse_deg": \(lowPassRMSE), \
      "fusion_windows_deg": [\(fusionWindows)]}
      """)
    continue
  }
  guard malloc_counter_count() > allocationsBeforeReading else {
    FileHandle.standardError.write(
      "AttitudeBench: the malloc counter is not active\n".data(using: .utf8)!)
    exit(1)
  }
  let (ns, allocations) = timeFusion(trial.samples, passes: passes)
  // The whole per-sample path a caller sees: estimator, One Euro filter, reference, handler.
  let manager = MotionManager(hasGyroscope: true)
  var handled = 0
  manager.startDeviceMotionUpdates { _ in handled += 1 }
  let managerBefore = malloc_counter_count()
  trial.samples.withUnsafeBufferPointer { buffer in
    for s in buffer { manager.process(s) }
  }
  let managerAllocations = malloc_counter_count() - managerBefore
  if handled != trial.samples.count { print("") }
  // The same without a gyroscope: the accelerometer-only estimator's path.
  let accelerometerOnly = MotionManager(hasGyroscope: false)
  accelerometerOnly.startDeviceMotionUpdates { _ in handled += 1 }
  let withoutRates = trial.samples.map {
    MotionSample(time: $0.time, acceleration: $0.acceleration, rotationRate: nil)
  }
  let accelBefore = malloc_counter_count()
  withoutRates.withUnsafeBufferPointer { buffer in
    for s in buffer { accelerometerOnly.process(s) }
  }
  let accelAllocations = malloc_counter_count() - accelBefore
  let b = fusion.bias * (180 / .pi)
  print(
    """
    {"trial": "\(trial.name)", "samples": \(trial.samples.count), \
    "fusion_rmse_deg": \(fusionRMSE), "accel_rmse_deg": \(accelRMSE), \
    "lowpass_rmse_deg": \(lowPassRMSE), "fusion_ns_per_sample": \(ns), \
    "allocations_in_timed_loops": \(allocations), \
    "motion_manager_allocations": \(managerAllocations), \
    "accelerometer_only_manager_allocations": \(accelAllocations), "passes": \(passes), \
    "final_bias_deg_s": [\(b.x), \(b.y), \(b.z)], "fusion_windows_deg": [\(fusionWindows)]}
    """)
}
