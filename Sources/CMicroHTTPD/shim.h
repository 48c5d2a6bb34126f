// Debian's libmicrohttpd, with the parts Swift cannot reach exported as prefixed functions:
// MHD_start_daemon is variadic and the content-reader results are cast macros.
#include <sys/types.h>
#include <stdint.h>
#include <stdarg.h>
#include <microhttpd.h>

/// Serves connections accepted on `listen_fd` (already bound and listening), one thread per
/// connection, at most `connection_limit` at once; idle connections close after
/// `timeout_seconds`. `completed` is called when a request ends, however it ends. A response
/// may upgrade its connection to another protocol (DockKit clients' sessions).
static inline struct MHD_Daemon *cmicrohttpd_start(int listen_fd, unsigned int connection_limit,
                                                    unsigned int timeout_seconds,
                                                    MHD_AccessHandlerCallback handler, void *context,
                                                    MHD_RequestCompletedCallback completed) {
    return MHD_start_daemon(MHD_USE_THREAD_PER_CONNECTION | MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_ITC |
                                MHD_ALLOW_UPGRADE,
                            0, NULL, NULL, handler, context,
                            MHD_OPTION_LISTEN_SOCKET, (MHD_socket)listen_fd,
                            MHD_OPTION_CONNECTION_LIMIT, connection_limit,
                            MHD_OPTION_CONNECTION_TIMEOUT, timeout_seconds,
                            MHD_OPTION_NOTIFY_COMPLETED, completed, NULL,
                            MHD_OPTION_END);
}

/// A content reader's "no more data" and "abort the connection" results.
static inline ssize_t cmicrohttpd_end_of_stream(void) { return MHD_CONTENT_READER_END_OF_STREAM; }
static inline ssize_t cmicrohttpd_end_with_error(void) { return MHD_CONTENT_READER_END_WITH_ERROR; }
/// Size unknown: the body is streamed (chunked) until the reader ends it.
static inline uint64_t cmicrohttpd_size_unknown(void) { return MHD_SIZE_UNKNOWN; }

/// Closes an upgraded connection's socket (libmicrohttpd's way: the socket is never closed directly).
static inline int cmicrohttpd_close_upgraded(struct MHD_UpgradeResponseHandle *handle) {
    return MHD_upgrade_action(handle, MHD_UPGRADE_ACTION_CLOSE) == MHD_YES ? 0 : -1;
}
