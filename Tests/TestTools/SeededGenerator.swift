/// SplitMix64: the same numbers on every machine and run, for tests that
/// want noise, jitter or mutations they can repeat. The motion simulator's,
/// so that a test and a simulated device draw alike.
@_exported import struct MotionSimulator.SeededGenerator
