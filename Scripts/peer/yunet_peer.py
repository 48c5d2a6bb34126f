#!/usr/bin/env python3
"""The reference pipeline the benchmark compares OpenDock with: what a person would write with
Debian's python3-opencv to find the faces in every frame of a recording (decode every frame at
full size, shrink to the detector's input width with area averaging, YuNet with the same model,
thresholds and size). `dockctl peer-run` finds the same faces the way dockd does.

Prints one JSON object: frames, cpu_s, wall_s, frame_ms (one per frame), max_rss_kb, faces
([frame, x, y, width, height, score] in the video's pixels).

    yunet_peer.py VIDEO MODEL [--detect-width 320] [--threads N]
"""
import argparse
import json
import resource
import sys
import time

try:
    import cv2
except ImportError:
    sys.exit("yunet_peer: python3-opencv is not installed (apt-get install python3-opencv)")


def peak_rss_kb():
    """VmHWM: ru_maxrss survives exec, so it would report the parent's peak."""
    try:
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return float(line.split()[1])
    except OSError:
        pass
    return float(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("video")
    parser.add_argument("model")
    parser.add_argument("--detect-width", type=int, default=320)
    parser.add_argument("--threads", type=int, default=None)
    args = parser.parse_args()
    if args.threads:
        cv2.setNumThreads(args.threads)

    capture = cv2.VideoCapture(args.video)
    if not capture.isOpened():
        sys.exit(f"yunet_peer: cannot open {args.video}")
    detector = cv2.FaceDetectorYN.create(args.model, "", (320, 320), 0.6, 0.3, 200)
    input_size = None
    frame_ms, faces = [], []
    cpu_start, wall_start = time.process_time(), time.perf_counter()
    index = 0
    while True:
        start = time.perf_counter()
        ok, frame = capture.read()
        if not ok:
            break
        height, width = frame.shape[:2]
        target = min(max(args.detect_width, 16), width)
        factor = width / target
        size = (target, max(1, round(height / factor)))
        scaled = frame if size == (width, height) else cv2.resize(frame, size, interpolation=cv2.INTER_AREA)
        if size != input_size:
            detector.setInputSize(size)
            input_size = size
        _, found = detector.detect(scaled)
        frame_ms.append((time.perf_counter() - start) * 1000)
        if found is not None:
            for row in found:
                faces.append([index, *(float(v) * factor for v in row[:4]), float(row[14])])
        index += 1
    result = {
        "frames": index,
        "cpu_s": time.process_time() - cpu_start,
        "wall_s": time.perf_counter() - wall_start,
        "frame_ms": frame_ms,
        "max_rss_kb": peak_rss_kb(),
        "faces": faces,
    }
    json.dump(result, sys.stdout)
    print()


if __name__ == "__main__":
    main()
