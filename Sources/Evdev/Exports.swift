// A program that reads live devices also reads their events, frames and
// profiles: `import Evdev` brings EvdevCore's types with it.
@_exported import EvdevCore
