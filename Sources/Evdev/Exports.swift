// A program that reads live devices also reads their events, frames and
// profiles: `import Evdev` brings SensorData's types with it.
@_exported import SensorData
