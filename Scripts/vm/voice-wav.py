#!/usr/bin/env python3
"""Writes a stereo 48 kHz 16-bit WAV to stdout: bursts of a voiced buzz (a 130 Hz sawtooth,
broadband like glottal pulses) with faint gaps between them, the left channel LEAD samples
ahead of the right, as a talker to the left of a microphone pair would give.
    voice-wav.py LEAD [SECONDS] > voice.wav"""
import io
import random
import struct
import sys
import wave

lead = int(sys.argv[1])
rate = 48000
seconds = float(sys.argv[2]) if len(sys.argv) > 2 else 4.0
rng = random.Random(5)
count = int(rate * seconds)
source = []
for n in range(count + lead):
    t = n / rate
    voiced = (t % 0.8) < 0.5          # 0.5 s of voice, 0.3 s of near silence
    phase = 130 * t
    buzz = 0.25 * (2 * (phase - int(phase)) - 1) if voiced else 0.0
    source.append(buzz + rng.uniform(-0.003, 0.003))
frames = bytearray()
for n in range(count):
    left, right = source[n + lead], source[n]
    frames += struct.pack("<hh", int(left * 32767), int(right * 32767))
out = io.BytesIO()
with wave.open(out, "wb") as w:
    w.setnchannels(2)
    w.setsampwidth(2)
    w.setframerate(rate)
    w.writeframes(bytes(frames))
sys.stdout.buffer.write(out.getvalue())
