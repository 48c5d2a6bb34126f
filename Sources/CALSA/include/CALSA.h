// ALSA capture for Swift: one handle per open device, interleaved signed 16-bit samples.
// ALSA's own error printing is silenced; every failure comes back as a negative errno and,
// where it helps, a message naming what was wrong.
#ifndef CALSA_H
#define CALSA_H

#include <stddef.h>
#include <stdint.h>

typedef struct cas_capture cas_capture;

/// Opens `name` ("default", "hw:CARD=C920,DEV=0", "plughw:1", a name from asound.conf) for
/// capture at about `rate` Hz with up to `channels` channels, `period_frames` per wake-up.
/// `configuration`: ALSA configuration text to use instead of the system's (NULL = the
/// system's, ~/.asoundrc included). Returns 0, or a negative errno with a message in `message`.
int cas_capture_open(const char *name, const char *configuration, unsigned rate, unsigned channels,
                     unsigned period_frames, cas_capture **out, char *message, size_t capacity);

/// What the device agreed to.
unsigned cas_capture_rate(const cas_capture *capture);
unsigned cas_capture_channels(const cas_capture *capture);

/// Reads up to `frames` frames into `samples` (frames × channels values), blocking until some
/// arrive. Returns the frames read, or a negative errno: -EPIPE after an overrun (samples were
/// lost; the stream is already restarted), -ENODEV when the device went away. `pending` gets
/// the frames captured but not yet read, for timestamps.
long cas_capture_read(cas_capture *capture, int16_t *samples, unsigned long frames, long *pending);

void cas_capture_close(cas_capture *capture);

#endif
