#include "CALSA.h"

#include <alsa/asoundlib.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct calsa_capture {
    snd_pcm_t *pcm;
    snd_config_t *configuration;
    unsigned rate;
    unsigned channels;
};

// ALSA prints its own diagnostics on stderr; the caller reports failures in one line instead.
static void quiet(const char *file, int line, const char *function, int err, const char *fmt, ...) {
    (void)file; (void)line; (void)function; (void)err; (void)fmt;
}

static _Thread_local char last_error[512];

const char *calsa_last_error(void) { return last_error; }

static int fail(int err, const char *format, const char *name, const char *detail) {
    snprintf(last_error, sizeof last_error, format, name, detail);
    return err < 0 ? err : -EINVAL;
}

static int load_configuration(const char *text, snd_config_t **out) {
    snd_input_t *input = NULL;
    int err = snd_config_top(out);
    if (err < 0) return err;
    err = snd_input_buffer_open(&input, text, (ssize_t)strlen(text));
    if (err >= 0) {
        err = snd_config_load(*out, input);
        snd_input_close(input);
    }
    if (err < 0) { snd_config_delete(*out); *out = NULL; }
    return err;
}

int calsa_capture_open(const char *name, const char *configuration, unsigned rate, unsigned channels,
                     unsigned period_frames, calsa_capture **out) {
    last_error[0] = 0;
    snd_lib_error_set_handler(quiet);
    *out = NULL;
    calsa_capture *c = calloc(1, sizeof *c);
    if (!c) return fail(-ENOMEM, "%s: %s", name, "out of memory");
    int err;
    if (configuration) {
        err = load_configuration(configuration, &c->configuration);
        if (err < 0) { free(c); return fail(err, "%s: the ALSA configuration does not parse (%s)", name, snd_strerror(err)); }
        err = snd_pcm_open_lconf(&c->pcm, name, SND_PCM_STREAM_CAPTURE, 0, c->configuration);
    } else {
        err = snd_pcm_open(&c->pcm, name, SND_PCM_STREAM_CAPTURE, 0);
    }
    if (err < 0) {
        if (c->configuration) snd_config_delete(c->configuration);
        free(c);
        return fail(err, "no ALSA capture device '%s' (%s)", name, snd_strerror(err));
    }

    snd_pcm_hw_params_t *hw = NULL;
    const char *step = "allocating parameters";
    err = snd_pcm_hw_params_malloc(&hw);
    if (err >= 0) { step = "reading its capabilities"; err = snd_pcm_hw_params_any(c->pcm, hw); }
    if (err >= 0) { step = "interleaved access"; err = snd_pcm_hw_params_set_access(c->pcm, hw, SND_PCM_ACCESS_RW_INTERLEAVED); }
    if (err >= 0) { step = "signed 16-bit samples"; err = snd_pcm_hw_params_set_format(c->pcm, hw, SND_PCM_FORMAT_S16_LE); }
    c->channels = channels;
    if (err >= 0) { step = "the channel count"; err = snd_pcm_hw_params_set_channels_near(c->pcm, hw, &c->channels); }
    c->rate = rate;
    if (err >= 0) { step = "the sample rate"; err = snd_pcm_hw_params_set_rate_near(c->pcm, hw, &c->rate, NULL); }
    snd_pcm_uframes_t period = period_frames;
    if (err >= 0) { step = "the period size"; err = snd_pcm_hw_params_set_period_size_near(c->pcm, hw, &period, NULL); }
    // Room for a quarter second: a reader held up briefly loses nothing.
    snd_pcm_uframes_t buffer = c->rate / 4 > period * 2 ? c->rate / 4 : period * 2;
    if (err >= 0) { step = "the buffer size"; err = snd_pcm_hw_params_set_buffer_size_near(c->pcm, hw, &buffer); }
    if (err >= 0) { step = "applying the parameters"; err = snd_pcm_hw_params(c->pcm, hw); }
    if (hw) snd_pcm_hw_params_free(hw);
    // Capture starts with the first read, so nothing overruns before the reader is running.
    if (err >= 0) { step = "preparing capture"; err = snd_pcm_prepare(c->pcm); }
    if (err < 0) {
        char detail[160];
        snprintf(detail, sizeof detail, "%s: %s", step, snd_strerror(err));
        calsa_capture_close(c);
        return fail(err, "ALSA device '%s' refused %s", name, detail);
    }
    *out = c;
    return 0;
}

unsigned calsa_capture_rate(const calsa_capture *capture) { return capture->rate; }
unsigned calsa_capture_channels(const calsa_capture *capture) { return capture->channels; }

long calsa_capture_read(calsa_capture *capture, int16_t *samples, unsigned long frames, long *pending) {
    snd_pcm_sframes_t got = snd_pcm_readi(capture->pcm, samples, frames);
    if (got == -EPIPE || got == -ESTRPIPE) {
        // Overrun or suspend: samples are lost; restart so the next read gets fresh ones.
        int err = snd_pcm_recover(capture->pcm, (int)got, 1);
        return err < 0 ? err : -EPIPE;
    }
    if (got < 0) return got;
    snd_pcm_sframes_t delay = 0;
    if (pending) *pending = snd_pcm_delay(capture->pcm, &delay) < 0 ? 0 : (long)delay;
    return got;
}

void calsa_capture_close(calsa_capture *capture) {
    if (!capture) return;
    if (capture->pcm) snd_pcm_close(capture->pcm);
    if (capture->configuration) snd_config_delete(capture->configuration);
    free(capture);
}
