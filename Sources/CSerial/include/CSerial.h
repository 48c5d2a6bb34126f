// Serial ports and pseudo-terminals for Swift: termios setup and the pty calls, which need
// _GNU_SOURCE (posix_openpt, ptsname_r) and macros Swift cannot see.
#ifndef CSERIAL_H
#define CSERIAL_H

#include <stddef.h>

/// Opens a serial device read/write, non-blocking, without becoming its controlling terminal,
/// and sets it raw 8N1 at `baud` without flow control. -1 with errno on failure
/// (EINVAL for an unsupported baud rate).
int cserial_open(const char *path, int baud);

/// Creates a pseudo-terminal pair in raw mode: returns the master fd (non-blocking) and writes
/// the slave's path into `slave`. -1 with errno on failure.
int cserial_open_pty(char *slave, size_t capacity);

#endif
