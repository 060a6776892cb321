/// Evdev: devices, events, frames and recordings; the only importer of CEvdev.
import CEvdev
