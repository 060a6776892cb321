import Attitude
import CommandLineOptions
import SensorData
import Tilt
import TiltCard

extension PipelineOptions {
  /// The estimator and filter that `--fusion`, `--filter` and `--reference` ask for.
  var motionConfiguration: MotionConfiguration {
    var c = MotionConfiguration()
    c.fusion = fusion
    c.reference = reference
    if let fusionTau { c.fusionParameters.fixAccelerometerTimeConstant(fusionTau) }
    switch filter {
    case .none: c.filter = .none
    case .lowpass: c.filter = .lowpass(tau: tau)
    case .oneeuro:
      c.filter = .oneEuro(
        minCutoff: minCutoff, beta: beta, derivativeCutoff: Self.oneEuro.derivativeCutoff)
    }
    return c
  }

  /// The card that the pose, flip and lifecycle options describe.
  var cardConfiguration: CardConfiguration {
    var c = CardConfiguration()
    c.gain = gain
    c.maxTilt = maxTilt
    c.perspective = perspective
    c.width = cardWidth
    c.height = cardHeight
    c.flipStyle = flipStyle
    c.reduceMotion = reduceMotion
    c.flipTrigger = flipOn
    c.idleStop = idleStop
    return c
  }

  /// The option that sets each card property.
  static let optionName: [CardConfiguration.Problem.Property: String] =
    ([
      .gain: Keys.gain, .maxTilt: Keys.maxTilt, .perspective: Keys.perspective,
      .size: Keys.cardSize, .idleStop: Keys.idleStop,
    ] as [CardConfiguration.Problem.Property: any OptionKey]).mapValues {
      "--" + $0.declaration.name
    }

  /// The whole pipeline's configuration; `--mount-matrix` is parsed here.
  func tiltConfiguration() throws(UsageError) -> TiltConfiguration {
    var c = TiltConfiguration()
    c.motion = motionConfiguration
    do {
      c.card = try cardConfiguration.validated()
    } catch {
      throw UsageError(
        "\(Self.optionName[error.property]!) \(error.value) is out of range: expected \(error.expected)"
      )
    }
    c.displayRateHz = rate
    c.everySample = everySample
    c.stickRangeDegrees = stickRange
    if let text = mountMatrix {
      do {
        c.mountMatrix = try MountMatrix(parsing: text)
      } catch {
        throw UsageError("'--mount-matrix': \(error)")
      }
    }
    return c
  }
}

extension Recording {
  /// A recording as the options decode it.
  static func open(path: String, options: PipelineOptions) throws -> any MotionSource {
    try open(path: path, configuration: options.tiltConfiguration())
  }
}

/// The tune command's name for the library's CSV source.
typealias CSVSource = CSVMotionSource
