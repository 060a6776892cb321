import Attitude
import Evdev
import TiltCard

print("tilt-cli: not wired yet")
