"""Watches the manager's DeviceAdded and DeviceRemoved (contract §8) for
MotionServiceTests' hot-plug test, which drives the hub.

  watch_devices.py ADDRESS READY_FILE COUNT

Prints the devices listed, then touches READY_FILE, waits for COUNT signals
(20 s at most) and prints each as 'MEMBER PATH', then the devices listed."""

import sys

from jeepney import MatchRule
from jeepney.low_level import HeaderFields
from motion_client import MANAGER, Client

address, ready, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
client = Client(address)
print("listed", " ".join(client.list_devices()))
signals = client.watch(MatchRule(type="signal", interface="org.tilt.Motion1", path=MANAGER))
open(ready, "w").close()
client.pump_until(lambda: len(signals) >= count, 20)
for message in signals:
    print(message.header.fields[HeaderFields.member], message.body[0])
print("listed", " ".join(client.list_devices()))
client.close()
