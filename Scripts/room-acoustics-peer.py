#!/usr/bin/env python3
"""The reference a generated room is checked against: pyroomacoustics' image-source shoebox.

Reads one JSON object on standard input (size_m, rt60_s, source_m, mic_m, fs) and prints the
absorption and image order pyroomacoustics' inverse Sabine gives, the direct sound's sample and
amplitude in its impulse response (less its fractional-delay filter's offset), and the
reverberation time it measures on that response (T30).
"""
import json
import sys

import numpy as np
import pyroomacoustics as pra

spec = json.load(sys.stdin)
fs = spec["fs"]
absorption, order = pra.inverse_sabine(spec["rt60_s"], spec["size_m"])
room = pra.ShoeBox(spec["size_m"], fs=fs, materials=pra.Material(absorption), max_order=order,
                   air_absorption=False)
room.add_source(spec["source_m"])
room.add_microphone_array(np.array(spec["mic_m"], dtype=float).reshape(3, 1))
room.compute_rir()
h = np.asarray(room.rir[0][0])
offset = pra.constants.get("frac_delay_length") // 2
peak = int(np.argmax(np.abs(h)))
print(json.dumps({
    "absorption": float(absorption),
    "order": int(order),
    "direct_index": peak - offset,
    "direct_value": float(h[peak]),
    "rt60_measured": float(pra.experimental.measure_rt60(h, fs=fs, decay_db=30)),
}))
