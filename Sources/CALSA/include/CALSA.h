// ALSA capture for Swift: one handle per open device, interleaved signed 16-bit samples.
// ALSA's own error printing is silenced. As in every OpenDock shim, a function that fails
// returns a negative value (here a negative errno) and leaves a message naming what was wrong
// in calsa_last_error() for the calling thread.
#ifndef CALSA_H
#define CALSA_H

#include <stddef.h>
#include <stdint.h>

typedef struct calsa_capture calsa_capture;

/// Opens `name` ("default", "hw:CARD=C920,DEV=0", "plughw:1", a name from asound.conf) for
/// capture at about `rate` Hz with up to `channels` channels, `period_frames` per wake-up.
/// `configuration`: ALSA configuration text to use instead of the system's (NULL = the
/// system's, ~/.asoundrc included). Returns 0, or a negative errno (see calsa_last_error()).
int calsa_capture_open(const char *name, const char *configuration, unsigned rate, unsigned channels,
                       unsigned period_frames, calsa_capture **out);

/// The message of the last failure on this thread ("" when none).
const char *calsa_last_error(void);

/// What the device agreed to.
unsigned calsa_capture_rate(const calsa_capture *capture);
unsigned calsa_capture_channels(const calsa_capture *capture);

/// Reads up to `frames` frames into `samples` (frames × channels values), blocking until some
/// arrive. Returns the frames read, or a negative errno: -EPIPE after an overrun (samples were
/// lost; the stream is already restarted), -ENODEV when the device went away. `pending` gets
/// the frames captured but not yet read, for timestamps.
long calsa_capture_read(calsa_capture *capture, int16_t *samples, unsigned long frames, long *pending);

void calsa_capture_close(calsa_capture *capture);

#endif
